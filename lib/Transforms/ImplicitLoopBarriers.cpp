//===- ImplicitLoopBarriers.cpp - Work-item loops inside kernel loops -----===//
#include "Transforms/ImplicitLoopBarriers.h"
#include "Analysis/WorkItemUniformity.h"
#include "Support/ControlDependence.h"
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

/// Whether \p L carries a floating-point value that differs between
/// work-items: what running the work-items inside the loop vectorizes
/// (a value the same for all, such as a sum of a uniform row, gains
/// nothing from it).
bool carriesVaryingFloatingPoint(const Loop &L, const WorkItemUniformity &U) {
  return llvm::any_of(L.getHeader()->phis(), [&](const PHINode &Phi) {
    return Phi.getType()->getScalarType()->isFloatingPointTy() && !U.isUniform(&Phi);
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
        !carriesVaryingFloatingPoint(*L, U) || hasBarrier(*L))
      continue;
    unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips != 0 && Trips <= UnrolledTripCount)
      continue;
    // All work-items run the loop, or none: every branch deciding whether
    // its header runs is uniform, followed transitively (a loop whose own
    // guard is uniform still runs for some work-items only when that guard
    // sits under a varying branch; LU factorisation:
    // `if (tx > i) for (j = 0; j < i; j++) ...`).
    bool ForAllOrNone = decidedOnlyBy(
        *L->getHeader(), PDT, [](const BasicBlock &) { return true; },
        [&](const Value &Cond) { return U.isUniform(&Cond); });
    if (U.hasUniformExits(*L) && ForAllOrNone)
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
