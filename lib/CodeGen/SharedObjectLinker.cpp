//===- SharedObjectLinker.cpp - x86 object to loadable .so ----------------===//
#include "CodeGen/SharedObjectLinker.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skmd {

namespace {

Expected<std::string> findLinker() {
  if (auto Env = sys::Process::GetEnv("SKMD_LINKER")) {
    if (auto P = sys::findProgramByName(*Env))
      return *P;
    return createStringError(inconvertibleErrorCode(),
                             "SKMD_LINKER names '" + *Env +
                                 "', which cannot be found");
  }
  for (StringRef Name : {"ld.lld-22", "ld.lld", "ld"})
    if (auto P = sys::findProgramByName(Name))
      return *P;
  return createStringError(inconvertibleErrorCode(),
                           "no linker found for the x86 variant (tried "
                           "ld.lld, ld); install binutils or set SKMD_LINKER");
}

} // namespace

Expected<std::string> linkSharedObject(std::string_view Object, bool Verbose) {
  auto Linker = findLinker();
  if (!Linker)
    return Linker.takeError();

  SmallString<128> ObjPath, SoPath;
  if (auto EC = sys::fs::createTemporaryFile("skmd-x86", "o", ObjPath))
    return createStringError(EC, "cannot create a temporary object file");
  FileRemover RemoveObj(ObjPath);
  if (auto EC = sys::fs::createTemporaryFile("skmd-x86", "so", SoPath))
    return createStringError(EC, "cannot create a temporary shared object");
  FileRemover RemoveSo(SoPath);

  {
    std::error_code EC;
    raw_fd_ostream OS(ObjPath, EC);
    if (EC)
      return createStringError(EC, "cannot write '" + ObjPath + "'");
    OS << Object;
  }

  // No libc, no start files: the kernels only call what the runtime's
  // builtins provide; undefined symbols resolve when the runtime loads it.
  SmallVector<StringRef, 12> Args = {*Linker, "-shared", "--hash-style=gnu",
                                     "-z", "noexecstack", "-o", SoPath, ObjPath};
  if (Verbose) {
    for (StringRef A : Args)
      errs() << A << ' ';
    errs() << '\n';
  }
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Linker, Args, std::nullopt, {}, 0, 0, &ErrMsg);
  if (RC != 0)
    return createStringError(inconvertibleErrorCode(),
                             "linking the x86 variant with " + *Linker +
                                 " failed" +
                                 (ErrMsg.empty() ? "" : ": " + ErrMsg));

  auto Buffer = MemoryBuffer::getFile(SoPath, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read the linked shared object");
  return (*Buffer)->getBuffer().str();
}

} // namespace skmd
