//===- LockstepBarriers.cpp - Barriers where programs assume lockstep -----===//
#include "Transforms/LockstepBarriers.h"
#include "Analysis/WorkItemUniformity.h"
#include "Support/ControlDependence.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace skmd {

namespace {

bool hasBarrier(const Function &F) {
  return llvm::any_of(instructions(F), [](const Instruction &I) {
    return isWorkGroupBarrier(I);
  });
}

/// Whether \p Ptr may address memory the group shares: it is based on no
/// private variable.
bool isSharedAddress(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
  return llvm::none_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

/// A write of every work-item to the same bytes of shared memory: a store
/// or memset/memcpy/memmove at a uniform address (and length).
bool isCollectiveWrite(const Instruction &I, const WorkItemUniformity &U) {
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return isSharedAddress(S->getPointerOperand()) &&
           U.isUniform(S->getPointerOperand());
  if (const auto *M = dyn_cast<MemIntrinsic>(&I))
    return isSharedAddress(M->getDest()) && U.isUniform(M->getDest()) &&
           U.isUniform(M->getLength());
  return false;
}

/// Whether every work-item runs \p BB, and as often: uniform branches
/// decide whether it runs, and every loop around it has uniform exits.
bool runsInEveryItemAlike(const BasicBlock &BB, const LoopInfo &LI,
                          const PostDominatorTree &PDT,
                          const WorkItemUniformity &U) {
  for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
    if (!U.hasUniformExits(*L))
      return false;
  return decidedOnlyBy(
      BB, PDT, [](const BasicBlock &) { return true; },
      [&](const Value &Cond) { return U.isUniform(&Cond); });
}

/// Whether \p I may read or write memory the group shares.
bool touchesSharedMemory(const Instruction &I) {
  if (isWorkGroupBarrier(I))
    return false;
  if (const auto *M = dyn_cast<MemIntrinsic>(&I)) {
    const auto *T = dyn_cast<MemTransferInst>(M);
    return isSharedAddress(M->getDest()) || (T && isSharedAddress(T->getSource()));
  }
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return isSharedAddress(Ptr);
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return !CB->doesNotAccessMemory() && !workItemFnOf(*CB) &&
           !isa<LifetimeIntrinsic>(CB) && !isa<DbgInfoIntrinsic>(CB) &&
           !isa<AssumeInst>(CB);
  return false;
}

/// Whether code that may run in a work-item between the barriers around
/// \p At touches shared memory on both sides of \p At: only then can a
/// barrier there change what any work-item sees.
bool separatesSharedAccesses(Instruction *At) {
  // Whether a stretch of a block touches shared memory before a barrier
  // (true or false), or runs out (none: the neighbours go on).
  auto Scan = [](auto Begin, auto End) -> std::optional<bool> {
    for (auto It = Begin; It != End; ++It) {
      if (isWorkGroupBarrier(*It))
        return false;
      if (touchesSharedMemory(*It))
        return true;
    }
    return std::nullopt;
  };
  auto Side = [&](bool Forward) {
    BasicBlock *BB = At->getParent();
    std::optional<bool> R =
        Forward ? Scan(At->getIterator(), BB->end())
                : Scan(std::next(At->getReverseIterator()), BB->rend());
    if (R)
      return *R;
    SmallVector<BasicBlock *, 8> Work;
    auto Next = [&](BasicBlock *B) {
      if (Forward)
        Work.append(succ_begin(B), succ_end(B));
      else
        Work.append(pred_begin(B), pred_end(B));
    };
    Next(BB);
    SmallPtrSet<BasicBlock *, 16> Seen;
    while (!Work.empty()) {
      BasicBlock *B = Work.pop_back_val();
      if (!Seen.insert(B).second)
        continue;
      R = Forward ? Scan(B->begin(), B->end()) : Scan(B->rbegin(), B->rend());
      if (R && *R)
        return true;
      if (!R)
        Next(B);
    }
    return false;
  };
  return Side(false) && Side(true);
}

/// A barrier before \p At, unless one is there already.
void barrierBefore(Instruction *At) {
  Instruction *Prev = At->getPrevNode();
  if (!Prev || !isWorkGroupBarrier(*Prev))
    emitBarrier(At);
}

bool addBarriers(Function &F, FunctionAnalysisManager &FAM) {
  if (!hasBarrier(F))
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  WorkItemUniformity U(F, LI);

  // Decided on the IR as it is; the barriers go in afterwards.
  SmallVector<Instruction *, 4> MemoryOps;
  SmallPtrSet<const Loop *, 4> Lockstep;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isWorkGroupBarrier(I)) {
        if (Loop *L = LI.getLoopFor(&BB))
          Lockstep.insert(L);
      } else if (isCollectiveWrite(I, U) && runsInEveryItemAlike(BB, LI, PDT, U)) {
        if (isa<MemIntrinsic>(I))
          MemoryOps.push_back(&I);
        if (Loop *L = LI.getLoopFor(&BB))
          Lockstep.insert(L);
      }
  // A loop around one that gets barriers holds them too.
  SmallVector<const Loop *, 4> Inner(Lockstep.begin(), Lockstep.end());
  for (const Loop *L : Inner)
    for (const Loop *P = L->getParentLoop(); P; P = P->getParentLoop())
      Lockstep.insert(P);
  SmallVector<Loop *, 4> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (Lockstep.count(L) && L->getLoopPreheader() && L->getLoopLatch() &&
        runsInEveryItemAlike(*L->getHeader(), LI, PDT, U))
      Loops.push_back(L);

  // The preheader's and the latch's barriers together separate every
  // iteration from what runs before and after it. Each place is judged on
  // the IR as it is, before any of them gets its barrier.
  SmallVector<Instruction *, 8> Places;
  for (Instruction *I : MemoryOps) {
    Places.push_back(I);
    Places.push_back(I->getNextNode());
  }
  for (Loop *L : Loops) {
    Places.push_back(L->getLoopPreheader()->getTerminator());
    Places.push_back(L->getLoopLatch()->getTerminator());
  }
  llvm::erase_if(Places, [](Instruction *At) { return !separatesSharedAccesses(At); });
  for (Instruction *At : Places)
    barrierBefore(At);
  return !Places.empty();
}

} // namespace

PreservedAnalyses LockstepBarriersPass::run(Module &M, ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !isOpenCLKernel(F) || !addBarriers(F, FAM))
      continue;
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
