//===- NVPTXDeviceLibraries.cpp - libclc + libdevice for PTX --------------===//
#include "CodeGen/NVPTXDeviceLibraries.h"

#include "CodeGen/BitcodeLibrary.h"

#include "llvm/Support/Process.h"

#include <vector>

using namespace llvm;

namespace skmd {

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
  auto Libclc = findBitcodeLibrary("libclc's nvptx64--nvidiacl.bc", "--libclc",
                                   LibclcOverride, LibclcCandidates,
                                   "Pass --libclc=PATH, or build without PTX "
                                   "(--targets=x86,spirv)");
  if (!Libclc)
    return Libclc.takeError();
  auto Libdevice = findBitcodeLibrary(
      "CUDA libdevice (libdevice.10.bc)", "--libdevice", LibdeviceOverride,
      LibdeviceCandidates,
      "Pass --libdevice=PATH, or build without PTX (--targets=x86,spirv)");
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
  for (const std::string &Path : {Paths.Libclc, Paths.Libdevice})
    if (Error E = linkBitcodeLibrary(M, Path))
      return E;
  return Error::success();
}

} // namespace skmd
