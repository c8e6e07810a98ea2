//===- WorkItemScalarizer.cpp - Scalars where work-items vectorize --------===//
#include "Transforms/WorkItemScalarizer.h"
#include "Transforms/WorkGroupFunction.h"

#include "Support/ControlDependence.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

namespace {

bool isVectorAccess(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getType()->isVectorTy();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getValueOperand()->getType()->isVectorTy();
  return false;
}

/// Whether some vector access of \p L runs under a branch that differs
/// between work-items.
bool hasPredicatedVectorAccess(const Loop &L, const PostDominatorTree &PDT) {
  // Branches of the loop but its own exit test; one on a loop invariant (a
  // guard that versioning decided for the whole loop) runs for all items
  // or none, and goes on to what decides it.
  auto InLoop = [&](const BasicBlock &X) { return L.contains(&X) && !L.isLoopExiting(&X); };
  auto Invariant = [&](const Value &Cond) { return L.isLoopInvariant(&Cond); };
  for (const BasicBlock *BB : L.blocks())
    if (llvm::any_of(*BB, isVectorAccess) && !decidedOnlyBy(*BB, PDT, InLoop, Invariant))
      return true;
  return false;
}

/// Whether \p L's floating-point work is its vector code: no more scalar
/// floating-point operations than vector ones. Where scalar work dominates
/// (Box-Muller's log, sinpi and cospi of a float2), the vectorizer widens
/// the loop for it, predicated accesses and all, and needs the split.
bool workIsVectorCode(const Loop &L) {
  unsigned Scalar = 0, Vector = 0;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (!isa<BinaryOperator>(I) && !isa<UnaryOperator>(I) && !isa<CallBase>(I) &&
          !isa<FCmpInst>(I))
        continue;
      Type *T = I.getType();
      if (isa<FCmpInst>(I))
        T = I.getOperand(0)->getType();
      if (!T->getScalarType()->isFloatingPointTy())
        continue;
      ++(T->isVectorTy() ? Vector : Scalar);
    }
  return Vector > 0 && Scalar <= Vector;
}

/// Whether splitting \p F's vectors lets its hottest work-item loops widen.
bool worthSplitting(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  unsigned Deepest = 0;
  bool AllPredicated = true;
  for (const Loop *L : LI.getLoopsInPreorder()) {
    if (!isWorkItemLoop(*L))
      continue;
    bool HasVector = false;
    for (const BasicBlock *BB : L->blocks())
      for (const Instruction &I : *BB)
        HasVector |= isVectorAccess(I);
    if (!HasVector)
      continue;
    unsigned Depth = L->getLoopDepth();
    bool Predicated = hasPredicatedVectorAccess(*L, PDT) && workIsVectorCode(*L);
    if (Depth > Deepest) {
      Deepest = Depth;
      AllPredicated = Predicated;
    } else if (Depth == Deepest) {
      AllPredicated &= Predicated;
    }
  }
  return Deepest == 0 || !AllPredicated;
}

} // namespace

WorkItemScalarizerPass::WorkItemScalarizerPass() {
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
}

PreservedAnalyses WorkItemScalarizerPass::run(Module &M, ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !worthSplitting(F, FAM))
      continue;
    PreservedAnalyses PA = ScalarizerPass(Options).run(F, FAM);
    FAM.invalidate(F, PA);
    Changed |= !PA.areAllPreserved();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
