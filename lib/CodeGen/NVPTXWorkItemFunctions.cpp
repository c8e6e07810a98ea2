//===- NVPTXWorkItemFunctions.cpp - What libclc's PTX build lacks ---------===//
#include "CodeGen/NVPTXWorkItemFunctions.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace skmd {

Error lowerNVPTXWorkItemFunctions(Module &M) {
  for (Function &F : M) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto Fn = workItemFnOf(*CB))
          if (*Fn == WorkItemFn::GlobalOffset || *Fn == WorkItemFn::GlobalLinearId ||
              *Fn == WorkItemFn::EnqueuedLocalSize || *Fn == WorkItemFn::WorkDim)
            Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      IRBuilder<> B(CB);
      Type *SizeTy = CB->getType();
      Value *New = nullptr;
      switch (*workItemFnOf(*CB)) {
      case WorkItemFn::GlobalOffset:
        // A CUDA grid starts at zero; SKMD's range kernels carry real
        // offsets in their own arguments.
        New = ConstantInt::get(SizeTy, 0);
        break;
      case WorkItemFn::EnqueuedLocalSize:
        New = emitWorkItemCall(B, WorkItemFn::LocalSize, SizeTy, 0);
        cast<CallInst>(New)->setArgOperand(0, CB->getArgOperand(0));
        break;
      case WorkItemFn::GlobalLinearId: {
        Value *Lin = ConstantInt::get(SizeTy, 0);
        for (int D = 2; D >= 0; --D)
          Lin = B.CreateAdd(
              B.CreateMul(Lin, emitWorkItemCall(B, WorkItemFn::GlobalSize, SizeTy, D)),
              emitWorkItemCall(B, WorkItemFn::GlobalId, SizeTy, D));
        New = Lin;
        break;
      }
      default:
        return createStringError(
            inconvertibleErrorCode(),
            "kernel '" + F.getName() +
                "' calls get_work_dim(), which the PTX target cannot "
                "provide (a CUDA launch does not record it); build without "
                "PTX (--targets=x86,spirv) or avoid get_work_dim");
      }
      CB->replaceAllUsesWith(New);
      CB->eraseFromParent();
    }
  }
  return Error::success();
}

} // namespace skmd
