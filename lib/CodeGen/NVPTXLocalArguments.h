//===- NVPTXLocalArguments.h - __local arguments in dynamic shared memory -*- C++ -*-===//
//
// A CUDA block's dynamic shared memory is reached through an extern
// .shared array, wherever the driver places it: after the kernel's static
// __local variables, and after the shared memory it reserves for itself
// (1 KiB from sm_80). The runtime used to pass each __local argument as an
// address it computed, the static size rounded up; on an H100 the static
// variables lay further in, and SHOC's top_scan had its __local seed
// overwritten by its __local scan array. Here every kernel's __local
// pointer argument becomes an offset into @skmd_dynamic_shared, which the
// runtime passes (0, then each argument's size rounded to
// LocalArgumentAlignment, support/DeviceFeatures.h).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_NVPTXLOCALARGUMENTS_H
#define SKMD_CODEGEN_NVPTXLOCALARGUMENTS_H

#include "llvm/IR/Module.h"

namespace skmd {

/// The name of the extern shared array __local arguments point into.
inline constexpr const char *DynamicSharedName = "skmd_dynamic_shared";

void addressLocalArgumentsFromDynamicShared(llvm::Module &M);

} // namespace skmd

#endif // SKMD_CODEGEN_NVPTXLOCALARGUMENTS_H
