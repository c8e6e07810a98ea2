//===- PrivateOutArguments.cpp - Math builtins' results through a private slot -===//
#include "Transforms/PrivateOutArguments.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

namespace {

/// The type a builtin stores through its last argument, if \p Call is one
/// of those that do: the result's type, or int with as many lanes.
Type *outArgumentType(const CallInst &Call) {
  // Only the builtins (declarations): a file's own function of that name
  // may read through the pointer.
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() < 2 ||
      !Call.getArgOperand(Call.arg_size() - 1)->getType()->isPointerTy())
    return nullptr;
  StringRef Name = Callee->getName();
  Type *Result = Call.getType();
  if (Name.starts_with("_Z5fract") || Name.starts_with("_Z4modf") ||
      Name.starts_with("_Z6sincos"))
    return Result->isFPOrFPVectorTy() ? Result : nullptr;
  if (Name.starts_with("_Z5frexp") || Name.starts_with("_Z8lgamma_r") ||
      Name.starts_with("_Z6remquo")) {
    if (!Result->isFPOrFPVectorTy())
      return nullptr;
    Type *Int = Type::getInt32Ty(Call.getContext());
    if (auto *V = dyn_cast<FixedVectorType>(Result))
      return FixedVectorType::get(Int, V->getNumElements());
    return Int;
  }
  return nullptr;
}

} // namespace

PreservedAnalyses PrivateOutArgumentsPass::run(Module &M, ModuleAnalysisManager &) {
  const DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<std::pair<CallInst *, Type *>, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Type *T = outArgumentType(*Call))
          if (!isa<AllocaInst>(getUnderlyingObject(Call->getArgOperand(Call->arg_size() - 1))))
            Calls.push_back({Call, T});
    for (auto [Call, T] : Calls) {
      unsigned Last = Call->arg_size() - 1;
      Value *Out = Call->getArgOperand(Last);
      IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
      AllocaInst *Slot = Entry.CreateAlloca(T, DL.getAllocaAddrSpace(), nullptr, "out.slot");
      IRBuilder<> B(Call);
      Value *Arg = B.CreatePointerBitCastOrAddrSpaceCast(Slot, Out->getType());
      Call->setArgOperand(Last, Arg);
      B.SetInsertPoint(Call->getNextNode());
      B.CreateStore(B.CreateLoad(T, Slot), Out);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
