//===- NVPTXDeviceLibraries.h - libclc + libdevice for PTX -------*- C++ -*-===//
//
// On NVIDIA GPUs the OpenCL builtins come from libclc's nvptx64--nvidiacl.bc,
// whose math in turn calls CUDA's libdevice (__nv_*). Both are linked as
// bitcode, only what the kernels need.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_NVPTXDEVICELIBRARIES_H
#define SKMD_CODEGEN_NVPTXDEVICELIBRARIES_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>

namespace skmd {

struct NVPTXLibraryPaths {
  std::string Libclc;    ///< nvptx64--nvidiacl.bc
  std::string Libdevice; ///< libdevice.10.bc
};

/// Finds both libraries. An explicit path must exist; otherwise the usual
/// install locations are searched ($CUDA_HOME, /usr/local/cuda, Debian's
/// nvidia-cuda-toolkit). The error lists every place looked at.
llvm::Expected<NVPTXLibraryPaths>
findNVPTXLibraries(const std::string &LibclcOverride,
                   const std::string &LibdeviceOverride);

/// Links the needed parts of libclc and libdevice into \p M.
llvm::Error linkNVPTXLibraries(llvm::Module &M, const NVPTXLibraryPaths &Paths);

} // namespace skmd

#endif // SKMD_CODEGEN_NVPTXDEVICELIBRARIES_H
