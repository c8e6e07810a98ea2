//===- Atomics.cpp - Atomic operations on memory, and which commute -------===//
#include "Support/Atomics.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace skmd {

namespace {

const Function *atomicBuiltin(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  if (!F || CB->arg_size() == 0 || !CB->getArgOperand(0)->getType()->isPointerTy())
    return nullptr;
  StringRef Name = F->getName();
  return Name.contains("atomic_") || Name.contains("atom_") ? F : nullptr;
}

} // namespace

const Value *atomicPointer(const Instruction &I) {
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return X->getPointerOperand();
  if (atomicBuiltin(I))
    return cast<CallBase>(I).getArgOperand(0);
  return nullptr;
}

std::string describeAtomic(const Instruction &I) {
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return ("atomicrmw " + AtomicRMWInst::getOperationName(RMW->getOperation())).str();
  if (isa<AtomicCmpXchgInst>(I))
    return "cmpxchg";
  if (const Function *F = atomicBuiltin(I))
    return demangle(F->getName());
  return "?";
}

std::optional<CombineOp> commutativeAtomic(const Instruction &I) {
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (!RMW->getType()->isIntegerTy())
      return std::nullopt;
    switch (RMW->getOperation()) {
    case AtomicRMWInst::Add:
    case AtomicRMWInst::Sub:
      return CombineOp::Add;
    case AtomicRMWInst::Xor:
      return CombineOp::Xor;
    case AtomicRMWInst::And:
      return CombineOp::And;
    case AtomicRMWInst::Or:
      return CombineOp::Or;
    case AtomicRMWInst::Min:
      return CombineOp::Min;
    case AtomicRMWInst::Max:
      return CombineOp::Max;
    case AtomicRMWInst::UMin:
      return CombineOp::UMin;
    case AtomicRMWInst::UMax:
      return CombineOp::UMax;
    default:
      return std::nullopt;
    }
  }
  const Function *F = atomicBuiltin(I);
  if (!F)
    return std::nullopt;
  // atomic_add(unsigned int volatile __global*, unsigned int), atom_inc,
  // atomic_fetch_or_explicit, ...: the operation is the name's last word
  // before any _explicit, the signedness the pointee's.
  std::string Full = demangle(F->getName());
  StringRef Name = StringRef(Full).take_until([](char C) { return C == '('; });
  Name.consume_back("_explicit");
  StringRef Op = Name.rsplit('_').second;
  Type *Ty = F->getReturnType();
  if (!Ty->isIntegerTy() || Op.empty())
    return std::nullopt;
  bool Unsigned = StringRef(Full).contains("unsigned");
  if (Op == "add" || Op == "sub" || Op == "inc" || Op == "dec")
    return CombineOp::Add;
  if (Op == "xor")
    return CombineOp::Xor;
  if (Op == "and")
    return CombineOp::And;
  if (Op == "or")
    return CombineOp::Or;
  if (Op == "min")
    return Unsigned ? CombineOp::UMin : CombineOp::Min;
  if (Op == "max")
    return Unsigned ? CombineOp::UMax : CombineOp::Max;
  return std::nullopt;
}

} // namespace skmd
