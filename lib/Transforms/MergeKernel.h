//===- MergeKernel.h - Kernels that merge a device's outputs -----*- C++ -*-===//
//
// The SKMD paper's merge kernel (Fig. 6). For each kernel K that writes
// __global buffers, K__skmd_merge takes one more pointer per written buffer:
// a device's copy of it, brought back to the host. Run over that device's
// groups, it stores, at every address K would store to, the value found at
// the same address in the copy; everything that computed the values is
// gone. So the host merges outputs scattered in any pattern, at memory
// speed, without recording write addresses.
//
// Built from K__skmd_range when skmd-partition-ready ran first (then it
// takes the same range arguments), else from K. Arguments: K's, the range
// arguments if any, then skmd_copy_<name> for each written buffer in order.
//
// Steps: inline all calls; promote local variables to registers; replace
// each stored value with a load from the copy at the same offset; then
// mark-sweep dead-code elimination whose roots are those stores, keeping the
// address arithmetic and the branches they are control dependent on.
//
// A kernel whose output addresses depend on values it reads from its own
// output buffers, or whose writes cannot be traced to one buffer, gets no
// merge kernel; the reason is left in the "skmd-unpartitionable" attribute.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='skmd-partition-ready,skmd-merge-kernel' kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_MERGEKERNEL_H
#define SKMD_TRANSFORMS_MERGEKERNEL_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace skmd {

class MergeKernelPass : public llvm::PassInfoMixin<MergeKernelPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

std::string mergeVariantName(llvm::StringRef Kernel);

} // namespace skmd

#endif // SKMD_TRANSFORMS_MERGEKERNEL_H
