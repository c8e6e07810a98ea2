//===- NVPTXWorkItemFunctions.cpp - What libclc's PTX build lacks ---------===//
#include "CodeGen/NVPTXWorkItemFunctions.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace skmd {

namespace {

/// get_work_dim where a CUDA launch cannot give it: in a kernel as written
/// (the range and box forms take it as an argument). SKMD's CUDA device
/// launches only those forms, so this traps rather than guess.
void trapInstead(CallBase &CB) {
  IRBuilder<> B(&CB);
  B.CreateIntrinsic(Intrinsic::trap, {});
  CB.replaceAllUsesWith(PoisonValue::get(CB.getType()));
  CB.eraseFromParent();
}

} // namespace

void lowerNVPTXWorkItemFunctions(Module &M) {
  for (Function &F : M) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto Fn = workItemFnOf(*CB))
          if (*Fn == WorkItemFn::GlobalOffset || *Fn == WorkItemFn::GlobalLinearId ||
              *Fn == WorkItemFn::EnqueuedLocalSize || *Fn == WorkItemFn::WorkDim)
            Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      WorkItemFn Fn = *workItemFnOf(*CB);
      if (Fn == WorkItemFn::WorkDim) {
        trapInstead(*CB);
        continue;
      }
      // From what libclc has; a CUDA grid starts at zero (SKMD's range
      // kernels carry real offsets in their own arguments).
      IRBuilder<> B(CB);
      Type *SizeTy = Type::getInt64Ty(M.getContext());
      WorkItemGeometry G;
      for (unsigned D = 0; D < 3; ++D) {
        G.Group[D] = emitWorkItemCall(B, WorkItemFn::GroupId, SizeTy, D);
        G.LocalId[D] = emitWorkItemCall(B, WorkItemFn::LocalId, SizeTy, D);
        G.LocalSize[D] = emitWorkItemCall(B, WorkItemFn::LocalSize, SizeTy, D);
        G.NumGroups[D] = emitWorkItemCall(B, WorkItemFn::NumGroups, SizeTy, D);
        G.GlobalOffset[D] = ConstantInt::get(SizeTy, 0);
      }
      CB->replaceAllUsesWith(expandWorkItemCall(B, *CB, Fn, G));
      CB->eraseFromParent();
    }
  }
}

} // namespace skmd
