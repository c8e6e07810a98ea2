//===- KernelBodyInlining.cpp - Inline Clang's kernel body helpers --------===//
#include "Transforms/KernelBodyInlining.h"
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace skmd {

static bool isKernelBody(const Function *F) {
  return F && !F->isDeclaration() &&
         F->getName().starts_with("__clang_ocl_kern_imp_");
}

Expected<bool> KernelBodyInliningPass::parseAllHelpers(StringRef Params) {
  if (Params.empty())
    return false;
  if (Params == "all")
    return true;
  return createStringError(inconvertibleErrorCode(),
                           "skmd-inline-kernel-bodies: unknown parameter '" +
                               Params + "' (use all)");
}

PreservedAnalyses KernelBodyInliningPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (!isOpenCLKernel(F))
      continue;
    if (AllHelpers) {
      Changed |= !F.isDeclaration();
      inlineAllCalls(F);
      continue;
    }
    SmallVector<CallBase *, 2> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (isKernelBody(CB->getCalledFunction()))
          Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      // The body is Clang's own split of the kernel, not a user decision
      // against inlining, so its noinline is deliberately overridden.
      Changed |= InlineFunction(*CB, IFI).isSuccess();
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
