//===- ImplicitLoopBarriers.cpp - Work-item loops inside kernel loops -----===//
#include "Transforms/ImplicitLoopBarriers.h"
#include "Analysis/WorkItemUniformity.h"
#include "Support/ControlDependence.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"
#include "Transforms/WorkGroupFunction.h"

#include "llvm/Analysis/IVDescriptors.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
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

/// The private array that \p Ptr addresses, itself or through one GEP.
const AllocaInst *privateArrayOf(const Value *Ptr) {
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(Ptr))
    Ptr = GEP->getPointerOperand();
  return dyn_cast<AllocaInst>(Ptr);
}

/// The private arrays \p L reads, and those it writes.
void privateArraysOf(const Loop &L, SmallPtrSetImpl<const AllocaInst *> &Read,
                     SmallPtrSetImpl<const AllocaInst *> &Written) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (const auto *Load = dyn_cast<LoadInst>(&I)) {
        if (const AllocaInst *AI = privateArrayOf(Load->getPointerOperand()))
          Read.insert(AI);
      } else if (const auto *Store = dyn_cast<StoreInst>(&I)) {
        if (const AllocaInst *AI = privateArrayOf(Store->getPointerOperand()))
          Written.insert(AI);
      }
    }
}

/// Whether \p L carries integer state that differs between work-items in a
/// way the vectorizer cannot widen along the loop: a header PHI that is
/// neither an induction, a reduction nor a fixed-order recurrence (a
/// generator's state, `x = a * (x ^ (x >> 30)) + i`), or a private array
/// that the loop both reads and writes (a dependence through memory: the
/// Mersenne twister's state, read at the draw's index and the next ones,
/// written at the draw's). Only where every private array the loop touches
/// is read and written at uniform indices: those live element-major across
/// the barriers (isUniformlyIndexedArray), so the work-item loop widens to
/// contiguous vectors; item-major copies would be gathers.
bool carriesVaryingIntegerState(Loop &L, const WorkItemUniformity &U,
                                ScalarEvolution &SE, DominatorTree &DT) {
  SmallPtrSet<const AllocaInst *, 4> Read, Written;
  privateArraysOf(L, Read, Written);
  auto IsUniform = [&](const Value *V) { return U.isUniform(V); };
  for (const AllocaInst *AI : Read)
    if (!isUniformlyIndexedArray(*AI, IsUniform))
      return false;
  for (const AllocaInst *AI : Written)
    if (!isUniformlyIndexedArray(*AI, IsUniform))
      return false;
  if (llvm::any_of(Written, [&](const AllocaInst *AI) { return Read.count(AI); }))
    return true;
  return llvm::any_of(L.getHeader()->phis(), [&](PHINode &Phi) {
    if (!Phi.getType()->isIntegerTy() || U.isUniform(&Phi))
      return false;
    InductionDescriptor ID;
    RecurrenceDescriptor RD;
    return !InductionDescriptor::isInductionPHI(&Phi, &L, &SE, ID) &&
           !RecurrenceDescriptor::isReductionPHI(&Phi, &L, RD, nullptr, nullptr,
                                                 &DT, &SE) &&
           !RecurrenceDescriptor::isFixedOrderRecurrence(&Phi, &L, &DT);
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
                                   ScalarEvolution &SE, DominatorTree &DT,
                                   const PostDominatorTree &PDT) {
  WorkItemUniformity U(F, LI);
  SmallVector<Loop *, 4> Chosen;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || !L->getLoopPreheader() || !L->getLoopLatch() ||
        hasBarrier(*L) ||
        !(carriesVaryingFloatingPoint(*L, U) ||
          carriesVaryingIntegerState(*L, U, SE, DT)))
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
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    SmallVector<Loop *, 4> Loops = loopsToTurn(F, LI, SE, DT, PDT);
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
