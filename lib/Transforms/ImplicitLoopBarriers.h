//===- ImplicitLoopBarriers.h - Work-item loops inside kernel loops -*- C++ -*-===//
//
// A work-group function runs a kernel's work-items in a loop; a loop in the
// kernel then becomes an inner loop of that work-item loop, and only the
// innermost loop is vectorized. When the kernel loop cannot be vectorized
// on its own (it carries a floating-point sum, which may not be reordered),
// nothing is: the n-body force loop and the plain matmul's dot product run
// one work-item at a time. Likewise for a loop carrying integer state that
// differs between work-items and that the vectorizer cannot widen along
// the loop (a generator's recurrence, or a private array the loop reads and
// writes, such as the Mersenne twister's state), as long as every private
// array it touches is indexed alike by all work-items: the work-group
// function lays those out element-major, so each access across the items
// is one contiguous vector.
//
// If every work-item runs the loop the same number of times (its exits and
// the branches it sits under depend only on values that are the same for
// the whole group), a barrier at the start and at the end of each iteration
// changes nothing for the kernel, and it turns the loop inside out: the
// work-group function then runs, per iteration, a work-item loop, which
// vectorizes across work-items, the carried sums living per work-item
// between iterations. This pass adds those barriers to innermost loops that
// qualify and would not be unrolled anyway (more than 32 iterations or an
// unknown count).
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-implicit-loop-barriers kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_IMPLICITLOOPBARRIERS_H
#define SKMD_TRANSFORMS_IMPLICITLOOPBARRIERS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class ImplicitLoopBarriersPass
    : public llvm::PassInfoMixin<ImplicitLoopBarriersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_IMPLICITLOOPBARRIERS_H
