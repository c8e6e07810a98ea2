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

/// The lanes of a builtin's first parameter from its mangled parameters
/// (\p Params: "Dv2_f..." for a float2, "f..." for a float), and its
/// element: float or double; null if it is neither.
std::pair<unsigned, Type *> firstParameter(StringRef Params, LLVMContext &Ctx) {
  unsigned Lanes = 1;
  if (Params.consume_front("Dv")) {
    if (Params.consumeInteger(10, Lanes) || !Params.consume_front("_"))
      return {0, nullptr};
  }
  if (Params.starts_with("f"))
    return {Lanes, Type::getFloatTy(Ctx)};
  if (Params.starts_with("d"))
    return {Lanes, Type::getDoubleTy(Ctx)};
  return {0, nullptr};
}

/// The type a builtin stores through its last argument, if \p Call is one
/// of those that do: the first parameter's type, or int with as many
/// lanes. From the mangled name, not the call's types: the x86-64 calling
/// convention passes a float2 as a double.
Type *outArgumentType(const CallInst &Call) {
  // Only the builtins (declarations): a file's own function of that name
  // may read through the pointer.
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() < 2 ||
      !Call.getArgOperand(Call.arg_size() - 1)->getType()->isPointerTy() ||
      Call.getType()->isVoidTy())
    return nullptr;
  StringRef Name = Callee->getName();
  bool IntOut = false;
  if (!Name.consume_front("_Z5fract") && !Name.consume_front("_Z4modf") &&
      !Name.consume_front("_Z6sincos")) {
    if (!Name.consume_front("_Z5frexp") && !Name.consume_front("_Z8lgamma_r") &&
        !Name.consume_front("_Z6remquo"))
      return nullptr;
    IntOut = true;
  }
  LLVMContext &Ctx = Call.getContext();
  auto [Lanes, Element] = firstParameter(Name, Ctx);
  if (!Element)
    return nullptr;
  if (IntOut)
    Element = Type::getInt32Ty(Ctx);
  return Lanes == 1 ? Element : FixedVectorType::get(Element, Lanes);
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
