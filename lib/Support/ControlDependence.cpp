//===- ControlDependence.cpp - The branches that decide whether a block runs ===//
#include "Support/ControlDependence.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace skmd {

bool decidedOnlyBy(const BasicBlock &BB, const PostDominatorTree &PDT,
                   function_ref<bool(const BasicBlock &)> Considered,
                   function_ref<bool(const Value &)> Holds) {
  const Function &F = *BB.getParent();
  SmallVector<const BasicBlock *, 8> Work = {&BB};
  SmallPtrSet<const BasicBlock *, 8> Seen = {&BB};
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    for (const BasicBlock &X : F) {
      const Instruction *Term = X.getTerminator();
      if (Term->getNumSuccessors() < 2 || !Considered(X))
        continue;
      if (PDT.dominates(B, &X) && B != &X)
        continue;
      bool Depends = llvm::any_of(successors(&X), [&](const BasicBlock *S) {
        return PDT.dominates(B, S);
      });
      if (!Depends)
        continue;
      const Value *Cond = nullptr;
      if (const auto *Br = dyn_cast<BranchInst>(Term))
        Cond = Br->getCondition();
      else if (const auto *Sw = dyn_cast<SwitchInst>(Term))
        Cond = Sw->getCondition();
      if (!Cond || !Holds(*Cond))
        return false;
      if (Seen.insert(&X).second)
        Work.push_back(&X);
    }
  }
  return true;
}

} // namespace skmd
