//===- PrivateOutArguments.h - Math builtins' results through a private slot -*- C++ -*-===//
//
// fract, modf, sincos, frexp, lgamma_r and remquo return a second result
// through a pointer. Called with a global buffer's element (sincos(x,
// &c[i])), the pointer reached the footprint analysis as a buffer handed
// to an unknown builtin, and the kernel was refused a split. This pass
// gives each such call a private slot and stores the slot to the pointer
// right after the call: the same bytes written by the same work-item, now
// as a store the analysis describes. Calls whose pointer is already a
// private variable are left alone.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-private-out-args kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_PRIVATEOUTARGUMENTS_H
#define SKMD_TRANSFORMS_PRIVATEOUTARGUMENTS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class PrivateOutArgumentsPass : public llvm::PassInfoMixin<PrivateOutArgumentsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_PRIVATEOUTARGUMENTS_H
