//===- BitcodeLibrary.cpp - Device libraries linked as bitcode ------------===//
#include "CodeGen/BitcodeLibrary.h"

#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace skmd {

Expected<std::string> findBitcodeLibrary(StringRef What, StringRef Option,
                                         const std::string &Override,
                                         const std::vector<std::string> &Candidates,
                                         StringRef Remedy) {
  if (!Override.empty()) {
    if (sys::fs::exists(Override))
      return Override;
    return createStringError(inconvertibleErrorCode(),
                             What + " not found at '" + Override +
                                 "' (given by " + Option + ")");
  }
  std::string Tried;
  for (const std::string &C : Candidates) {
    if (sys::fs::exists(C))
      return C;
    Tried += "\n  " + C;
  }
  return createStringError(inconvertibleErrorCode(),
                           What + " not found. Looked in:" + Tried + "\n" +
                               Remedy);
}

Error linkBitcodeLibrary(Module &M, const std::string &Path) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> Lib = getLazyIRFileModule(Path, Diag, M.getContext());
  if (!Lib)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '" + Path + "': " +
                                 Diag.getMessage().str());
  // Libraries name slightly different triples for the same target.
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(Lib), Linker::Flags::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(),
                             "cannot link '" + Path + "' into the kernels");
  return Error::success();
}

} // namespace skmd
