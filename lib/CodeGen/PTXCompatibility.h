//===- PTXCompatibility.h - PTX the CUDA driver's JIT accepts ----*- C++ -*-===//
//
// LLVM's NVPTX backend marks a __local pointer kernel parameter
// `.param .u64 .ptr .shared .align 4 p`. ptxas (CUDA 13) accepts it, but the
// driver's JIT (cuModuleLoadDataEx, driver 580 on an H100) refuses the whole
// module with CUDA_ERROR_INVALID_IMAGE and an empty log; without the
// attribute the same module loads (measured; docs/runtime.md). The
// attribute is only an optimization hint (the kernel reads the parameter
// and addresses shared memory with it either way), so it is removed.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_PTXCOMPATIBILITY_H
#define SKMD_CODEGEN_PTXCOMPATIBILITY_H

#include <string>

namespace skmd {

/// \p PTX without `.ptr .shared .align N` on kernel parameters.
std::string dropSharedPointerParamAttributes(std::string PTX);

} // namespace skmd

#endif // SKMD_CODEGEN_PTXCOMPATIBILITY_H
