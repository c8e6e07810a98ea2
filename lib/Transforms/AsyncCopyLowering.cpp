//===- AsyncCopyLowering.cpp - Work-group copies as loops -----------------===//
#include "Transforms/AsyncCopyLowering.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace skmd {

namespace {

constexpr StringLiteral CopyPrefix = "_Z21async_work_group_copy";
constexpr StringLiteral StridedPrefix = "_Z29async_work_group_strided_copy";
constexpr StringLiteral WaitPrefix = "_Z17wait_group_events";
constexpr StringLiteral PrefetchPrefix = "_Z8prefetch";

/// The element type of a copy's first parameter, from its Itanium mangling
/// (P, then address space and qualifiers, then [Dv<N>_] and a builtin
/// type): float is f, uint4 is Dv4_j, ...
Type *elementType(StringRef Params, LLVMContext &C) {
  if (!Params.consume_front("P"))
    return nullptr;
  // Address space (U7CLlocal, U3AS3) and cv-qualifiers.
  while (true) {
    if (Params.consume_front("U")) {
      unsigned Len = 0;
      if (Params.consumeInteger(10, Len) || Params.size() < Len)
        return nullptr;
      Params = Params.drop_front(Len);
    } else if (!Params.consume_front("K") && !Params.consume_front("V")) {
      break;
    }
  }
  unsigned Lanes = 1;
  if (Params.consume_front("Dv")) {
    if (Params.consumeInteger(10, Lanes) || !Params.consume_front("_"))
      return nullptr;
  }
  Type *Scalar = nullptr;
  if (Params.consume_front("Dh"))
    Scalar = Type::getHalfTy(C);
  else if (!Params.empty())
    switch (Params.front()) {
    case 'c':
    case 'a':
    case 'h':
      Scalar = Type::getInt8Ty(C);
      break;
    case 's':
    case 't':
      Scalar = Type::getInt16Ty(C);
      break;
    case 'i':
    case 'j':
      Scalar = Type::getInt32Ty(C);
      break;
    case 'l':
    case 'm':
      Scalar = Type::getInt64Ty(C);
      break;
    case 'f':
      Scalar = Type::getFloatTy(C);
      break;
    case 'd':
      Scalar = Type::getDoubleTy(C);
      break;
    default:
      return nullptr;
    }
  if (!Scalar)
    return nullptr;
  return Lanes == 1 ? Scalar : FixedVectorType::get(Scalar, Lanes);
}

/// Replaces \p Call (dst, src, n, [stride,] event) by the loop its group's
/// work-items share; false where the call is not one this pass knows.
bool lowerCopy(CallInst &Call, bool Strided) {
  Function *Callee = Call.getCalledFunction();
  StringRef Params =
      Callee->getName().drop_front(Strided ? StridedPrefix.size() : CopyPrefix.size());
  Type *Elem = elementType(Params, Call.getContext());
  unsigned Args = Strided ? 5 : 4;
  if (!Elem || Call.arg_size() != Args)
    return false;
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  Value *N = Call.getArgOperand(2);
  Value *Stride = Strided ? Call.getArgOperand(3) : nullptr;
  Value *Event = Call.getArgOperand(Args - 1);
  Type *SizeTy = N->getType();
  if (!SizeTy->isIntegerTy() || (Stride && Stride->getType() != SizeTy))
    return false;
  // Which side is global: the strided form steps through the global one.
  bool DstIsLocal = Params.starts_with("PU7CLlocal") || Params.starts_with("PU3AS3");

  IRBuilder<> B(&Call);
  Value *Id = nullptr, *Items = nullptr;
  for (unsigned D = 3; D-- > 0;) {
    Value *LocalId = emitWorkItemCall(B, WorkItemFn::LocalId, SizeTy, D);
    Value *Size = emitWorkItemCall(B, WorkItemFn::LocalSize, SizeTy, D);
    Id = Id ? B.CreateAdd(B.CreateMul(Id, Size), LocalId) : LocalId;
    Items = Items ? B.CreateMul(Items, Size) : Size;
  }
  BasicBlock *Before = Call.getParent();
  BasicBlock *After = SplitBlock(Before, &Call, static_cast<DominatorTree *>(nullptr));
  After->setName("async.copy.done");
  Function &F = *Before->getParent();
  BasicBlock *Body = BasicBlock::Create(Call.getContext(), "async.copy", &F, After);
  Before->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Before);
  B.CreateCondBr(B.CreateICmpULT(Id, N), Body, After);
  B.SetInsertPoint(Body);
  PHINode *I = B.CreatePHI(SizeTy, 2, "async.i");
  I->addIncoming(Id, Before);
  Value *Far = Stride ? B.CreateMul(I, Stride) : I;
  Value *From = B.CreateGEP(Elem, Src, Stride && DstIsLocal ? Far : I);
  Value *To = B.CreateGEP(Elem, Dst, Stride && !DstIsLocal ? Far : I);
  B.CreateStore(B.CreateLoad(Elem, From), To);
  Value *Next = B.CreateAdd(I, Items);
  I->addIncoming(Next, Body);
  B.CreateCondBr(B.CreateICmpULT(Next, N), Body, After);
  Call.replaceAllUsesWith(Event);
  Call.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses AsyncCopyLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<CallInst *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->isDeclaration()) {
          // A file's own definition under a builtin's name is its own.
          StringRef Name = Callee->getName();
          if (Name.starts_with(CopyPrefix) || Name.starts_with(StridedPrefix) ||
              Name.starts_with(WaitPrefix) || Name.starts_with(PrefetchPrefix))
            Calls.push_back(Call);
        }
  bool Changed = false;
  for (CallInst *Call : Calls) {
    StringRef Name = Call->getCalledFunction()->getName();
    if (Name.starts_with(WaitPrefix)) {
      // Copies to global memory are read by other items after the wait.
      constexpr uint32_t LocalAndGlobal = 1 | 2;
      emitBarrier(Call, LocalAndGlobal);
      Call->eraseFromParent();
      Changed = true;
    } else if (Name.starts_with(PrefetchPrefix)) {
      Call->eraseFromParent();
      Changed = true;
    } else {
      Changed |= lowerCopy(*Call, Name.starts_with(StridedPrefix));
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
