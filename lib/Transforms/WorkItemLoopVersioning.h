//===- WorkItemLoopVersioning.h - Unmasked work-item loops -------*- C++ -*-===//
//
// Kernels guard their work-items with comparisons of the global id:
// `if (i < n)`, Sobel's `x == 0 || x == width - 1`. In a work-group
// function these become branches inside the work-item loop, which the loop
// vectorizer turns into masked loads and stores. Masks are cheap with
// AVX-512 and slow elsewhere (AVX2 masked stores on AMD are microcoded),
// and they cost even where no item is masked off, which is nearly every
// group: only groups at the edges of the range see a comparison change
// from one item to the next.
//
// This pass versions each work-item x loop on those comparisons. A
// comparison of an affine function of the local id with a loop-invariant
// value is the same for every item of the loop when the function does not
// wrap over the loop and the comparison gives the same answer at the first
// and the last item (for == and !=: when the value lies outside the
// function's range). Before the loop, one check per comparison decides;
// if all hold, a copy of the loop runs in which each comparison is its
// value at the first item, a loop invariant: the optimizer then unswitches
// the branches it decided and the vectorizer sees straight-line code.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-work-group-function,skmd-work-item-loop-versioning
//       kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_WORKITEMLOOPVERSIONING_H
#define SKMD_TRANSFORMS_WORKITEMLOOPVERSIONING_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class WorkItemLoopVersioningPass
    : public llvm::PassInfoMixin<WorkItemLoopVersioningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_WORKITEMLOOPVERSIONING_H
