//===- WorkItemScalarizer.h - Scalars where work-items vectorize -*- C++ -*-===//
//
// The loop vectorizer widens only scalar instructions: float4 code in a
// work-item loop stays 4-wide SSE, one work-item at a time. Split into
// scalars (LLVM's scalarizer), the loop widens across work-items instead,
// float4 memory becoming interleaved groups. But a loop whose float4
// accesses run under a branch that differs between work-items (binomial
// option's `if (tid < j) call_b[tid] = ...`) is not widened: predicated
// interleaved groups are beyond the vectorizer on x86, and the split code
// then runs four scalar operations where the float4 code ran one (built
// without the split, binomial option ran 1.2x faster on this VM).
//
// So this pass splits a work-group function unless its hottest work-item
// loops with vector memory accesses (the most deeply nested: inside the
// kernel's own loops) all have such accesses under a branch that varies
// between work-items. A branch on a loop invariant (a guard that
// skmd-work-item-loop-versioning decided for the whole loop) does not
// count: the optimizer unswitches it.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-work-group-function,skmd-work-item-scalarizer kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_WORKITEMSCALARIZER_H
#define SKMD_TRANSFORMS_WORKITEMSCALARIZER_H

#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

namespace skmd {

class WorkItemScalarizerPass : public llvm::PassInfoMixin<WorkItemScalarizerPass> {
public:
  /// Loads, stores and variable-index element accesses split too.
  WorkItemScalarizerPass();
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  llvm::ScalarizerPassOptions Options;
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_WORKITEMSCALARIZER_H
