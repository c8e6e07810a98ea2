//===- SPIRVVectorSelects.cpp - Vector selects on a vector condition ------===//
#include "Transforms/SPIRVVectorSelects.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

PreservedAnalyses SPIRVVectorSelectsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Sel = dyn_cast<SelectInst>(&I);
      auto *VT = Sel ? dyn_cast<FixedVectorType>(Sel->getType()) : nullptr;
      if (!VT || Sel->getCondition()->getType()->isVectorTy())
        continue;
      IRBuilder<> B(Sel);
      Sel->setCondition(B.CreateVectorSplat(VT->getNumElements(), Sel->getCondition(),
                                            "select.cond"));
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
