//===- WorkItemUniformity.cpp - Values the same for a whole group ---------===//
#include "Analysis/WorkItemUniformity.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace skmd {

bool WorkItemUniformity::isUniform(const Value *V) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  auto [It, New] = Known.try_emplace(I, true); // Optimistic on cycles.
  if (!New)
    return It->second;
  bool Result = (KnownUniform && KnownUniform(*I)) || compute(*I);
  Known[I] = Result;
  return Result;
}

bool WorkItemUniformity::hasUniformExits(const Loop &L) {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  return llvm::all_of(Exiting, [&](BasicBlock *BB) {
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    return Br && (Br->isUnconditional() || isUniform(Br->getCondition()));
  });
}

bool WorkItemUniformity::compute(const Instruction &I) {
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    std::optional<WorkItemFn> Fn = workItemFnOf(*Call);
    if (!Fn)
      return false;
    switch (*Fn) {
    case WorkItemFn::GroupId:
    case WorkItemFn::GlobalSize:
    case WorkItemFn::LocalSize:
    case WorkItemFn::EnqueuedLocalSize:
    case WorkItemFn::NumGroups:
    case WorkItemFn::GlobalOffset:
    case WorkItemFn::WorkDim:
      return allOperandsUniform(I);
    default:
      return false;
    }
  }
  if (const auto *Phi = dyn_cast<PHINode>(&I)) {
    // A loop header joins a uniform start and a uniform step; the value is
    // the same for all only if all leave the loop together.
    const Loop *L = LI.getLoopFor(Phi->getParent());
    if (!L || L->getHeader() != Phi->getParent())
      return false;
    return allOperandsUniform(I) && hasUniformExits(*L);
  }
  if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) ||
      isa<GetElementPtrInst>(I) || isa<SelectInst>(I))
    return allOperandsUniform(I);
  return false;
}

bool WorkItemUniformity::allOperandsUniform(const Instruction &I) {
  return llvm::all_of(I.operands(),
                      [&](const Use &Op) { return isUniform(Op.get()); });
}

} // namespace skmd
