//===- KernelBodyInlining.h - Inline Clang's kernel body helpers --*- C++ -*-===//
//
// Clang 22 emits each OpenCL kernel as an entry point that calls
// __clang_ocl_kern_imp_<name>, the body, so that kernels may call kernels.
// On NVPTX both are marked noinline. SKMD's analyses and transforms need the
// body in the entry point, so this pass inlines every such call in every
// kernel, whatever its attributes. With <all> it inlines every helper into
// every kernel, which the analyses need when the optimizer did not (-O0).
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='skmd-inline-kernel-bodies' kernel.ll -S
//   opt ... -passes='skmd-inline-kernel-bodies<all>' kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_KERNELBODYINLINING_H
#define SKMD_TRANSFORMS_KERNELBODYINLINING_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace skmd {

class KernelBodyInliningPass
    : public llvm::PassInfoMixin<KernelBodyInliningPass> {
public:
  explicit KernelBodyInliningPass(bool AllHelpers = false)
      : AllHelpers(AllHelpers) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

  /// Parses the pass parameter: "" or "all".
  static llvm::Expected<bool> parseAllHelpers(llvm::StringRef Params);

private:
  bool AllHelpers;
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_KERNELBODYINLINING_H
