//===- SPIRVAnyAll.cpp - any() and all() as comparisons -------------------===//
#include "Transforms/SPIRVAnyAll.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

PreservedAnalyses SPIRVAnyAllPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<CallInst *, bool>, 4> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->isDeclaration() && Call->arg_size() == 1 &&
            Call->getType()->isIntegerTy() &&
            Call->getArgOperand(0)->getType()->isIntOrIntVectorTy()) {
          StringRef Name = Callee->getName();
          if (Name.starts_with("_Z3any"))
            Calls.push_back({Call, true});
          else if (Name.starts_with("_Z3all"))
            Calls.push_back({Call, false});
        }
  for (auto [Call, IsAny] : Calls) {
    IRBuilder<> B(Call);
    Value *X = Call->getArgOperand(0);
    Value *Negative = B.CreateICmpSLT(X, Constant::getNullValue(X->getType()), "sign");
    Value *Result = Negative;
    if (auto *VT = dyn_cast<FixedVectorType>(X->getType())) {
      Result = B.CreateExtractElement(Negative, uint64_t(0));
      for (unsigned L = 1; L < VT->getNumElements(); ++L) {
        Value *Lane = B.CreateExtractElement(Negative, uint64_t(L));
        Result = IsAny ? B.CreateOr(Result, Lane) : B.CreateAnd(Result, Lane);
      }
    }
    Call->replaceAllUsesWith(B.CreateZExt(Result, Call->getType(), IsAny ? "any" : "all"));
    Call->eraseFromParent();
  }
  return Calls.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace skmd
