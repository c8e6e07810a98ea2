//===- NVPTXDeviceLibraries.cpp - libclc + libdevice for PTX --------------===//
#include "CodeGen/NVPTXDeviceLibraries.h"

#include "llvm/IR/Constants.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <vector>

using namespace llvm;

namespace skmd {

namespace {

Expected<std::string> findFile(StringRef What, StringRef Option,
                               const std::string &Override,
                               const std::vector<std::string> &Candidates) {
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
                           What + " not found; PTX needs it. Looked in:" +
                               Tried + "\nPass " + Option +
                               "=PATH, or build without PTX (--targets=x86,spirv)");
}

} // namespace

Expected<NVPTXLibraryPaths>
findNVPTXLibraries(const std::string &LibclcOverride,
                   const std::string &LibdeviceOverride) {
  std::vector<std::string> LibclcCandidates;
#ifdef SKMD_LIBCLC_DIR
  LibclcCandidates.push_back(SKMD_LIBCLC_DIR "/nvptx64--nvidiacl.bc");
#endif
  LibclcCandidates.push_back("/usr/lib/clc/nvptx64--nvidiacl.bc");

  std::vector<std::string> LibdeviceCandidates;
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (auto Dir = sys::Process::GetEnv(Var))
      LibdeviceCandidates.push_back(*Dir + "/nvvm/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc");

  NVPTXLibraryPaths Paths;
  auto Libclc = findFile("libclc's nvptx64--nvidiacl.bc", "--libclc",
                         LibclcOverride, LibclcCandidates);
  if (!Libclc)
    return Libclc.takeError();
  auto Libdevice = findFile("CUDA libdevice (libdevice.10.bc)", "--libdevice",
                            LibdeviceOverride, LibdeviceCandidates);
  if (!Libdevice)
    return Libdevice.takeError();
  Paths.Libclc = *Libclc;
  Paths.Libdevice = *Libdevice;
  return Paths;
}

Error linkNVPTXLibraries(Module &M, const NVPTXLibraryPaths &Paths) {
  // libdevice reads this through __nvvm_reflect: keep denormals, since
  // OpenCL's full profile does not let single precision flush them.
  if (!M.getModuleFlag("nvvm-reflect-ftz"))
    M.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));

  // libclc first: its functions are what pull in libdevice's.
  for (const std::string &Path : {Paths.Libclc, Paths.Libdevice}) {
    SMDiagnostic Diag;
    // Lazily: the linker materializes only the functions the kernels reach,
    // instead of parsing all of libdevice for every compile.
    std::unique_ptr<Module> Lib =
        getLazyIRFileModule(Path, Diag, M.getContext());
    if (!Lib)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read '" + Path +
                                   "': " + Diag.getMessage().str());
    // The libraries name slightly different triples for the same target.
    Lib->setTargetTriple(M.getTargetTriple());
    Lib->setDataLayout(M.getDataLayout());
    if (Linker::linkModules(M, std::move(Lib), Linker::Flags::LinkOnlyNeeded))
      return createStringError(inconvertibleErrorCode(),
                               "cannot link '" + Path + "' into the kernels");
  }
  return Error::success();
}

} // namespace skmd
