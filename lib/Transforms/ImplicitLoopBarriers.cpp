//===- ImplicitLoopBarriers.cpp - Work-item loops inside kernel loops -----===//
#include "Transforms/ImplicitLoopBarriers.h"
#include "Analysis/WorkItemUniformity.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

namespace {

/// Loops with a known trip count up to this are unrolled later, which
/// serves them better than barriers would.
constexpr unsigned UnrolledTripCount = 32;

/// Whether every conditional branch that decides whether \p BB runs is
/// uniform: then all work-items run it, or none.
bool runsForAllOrNone(const BasicBlock &BB, const Function &F,
                      const PostDominatorTree &PDT,
                      const WorkItemUniformity &U) {
  for (const BasicBlock &X : F) {
    const auto *Br = dyn_cast<BranchInst>(X.getTerminator());
    const Instruction *Term = X.getTerminator();
    if ((Br && Br->isUnconditional()) || Term->getNumSuccessors() < 2)
      continue;
    // BB depends on X's branch if it post-dominates one successor of X
    // but not X itself.
    if (PDT.dominates(&BB, &X) && &BB != &X)
      continue;
    bool Depends = llvm::any_of(successors(&X), [&](const BasicBlock *S) {
      return PDT.dominates(&BB, S);
    });
    if (!Depends)
      continue;
    const Value *Cond = Br ? Br->getCondition()
                           : isa<SwitchInst>(Term)
                               ? cast<SwitchInst>(Term)->getCondition()
                               : nullptr;
    if (!Cond || !U.isUniform(Cond))
      return false;
  }
  return true;
}

bool carriesFloatingPoint(const Loop &L) {
  return llvm::any_of(L.getHeader()->phis(), [](const PHINode &Phi) {
    return Phi.getType()->getScalarType()->isFloatingPointTy();
  });
}

bool hasBarrier(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isWorkGroupBarrier(I))
        return true;
  return false;
}

/// The innermost loops of \p F that get implicit barriers.
SmallVector<Loop *, 4> loopsToTurn(Function &F, LoopInfo &LI,
                                   ScalarEvolution &SE,
                                   const PostDominatorTree &PDT) {
  WorkItemUniformity U(F, LI);
  SmallVector<Loop *, 4> Chosen;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || !L->getLoopPreheader() || !L->getLoopLatch() ||
        !carriesFloatingPoint(*L) || hasBarrier(*L))
      continue;
    unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips != 0 && Trips <= UnrolledTripCount)
      continue;
    if (U.hasUniformExits(*L) && runsForAllOrNone(*L->getHeader(), F, PDT, U))
      Chosen.push_back(L);
  }
  return Chosen;
}

} // namespace

PreservedAnalyses ImplicitLoopBarriersPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !isOpenCLKernel(F))
      continue;
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    SmallVector<Loop *, 4> Loops = loopsToTurn(F, LI, SE, PDT);
    for (Loop *L : Loops) {
      emitBarrier(&*L->getHeader()->getFirstInsertionPt());
      emitBarrier(L->getLoopLatch()->getTerminator());
    }
    if (!Loops.empty()) {
      Changed = true;
      FAM.invalidate(F, PreservedAnalyses::none());
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
