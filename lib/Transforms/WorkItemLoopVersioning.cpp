//===- WorkItemLoopVersioning.cpp - Unmasked work-item loops --------------===//
#include "Transforms/WorkItemLoopVersioning.h"
#include "Transforms/WorkGroupFunction.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace skmd {

namespace {

cl::opt<bool> VersionWorkItemLoops(
    "skmd-version-work-item-loops", cl::init(true), cl::Hidden,
    cl::desc("Copy work-item loops for groups whose guards do not change "
             "between items (=false to measure what the copy gains)"));

/// Loops larger than this are not copied: the copy doubles their code.
constexpr unsigned MaxVersionedInstructions = 2000;

/// A comparison that may be the same for every item of the loop, and what
/// it then is.
struct Decided {
  ICmpInst *Cmp;
  Value *Holds; ///< i1, before the loop: the comparison is loop-invariant.
  Value *Result; ///< i1, before the loop: what it then is.
};

class LoopVersioner {
public:
  LoopVersioner(Loop &L, ScalarEvolution &SE)
      : L(L), SE(SE), Preheader(L.getLoopPreheader()),
        Expander(SE, "skmd.interior") {}

  bool run() {
    if (!Preheader || !L.getLoopLatch() || tooLarge() || usedOutside())
      return false;
    const SCEV *BTC = SE.getBackedgeTakenCount(&L);
    if (isa<SCEVCouldNotCompute>(BTC) ||
        !Expander.isSafeToExpandAt(BTC, Preheader->getTerminator()))
      return false;
    SmallVector<ICmpInst *, 8> Candidates;
    collectBranchComparisons(Candidates);
    for (ICmpInst *Cmp : Candidates)
      decide(*Cmp, BTC);
    if (Decisions.empty()) {
      Expander.clear();
      return false;
    }
    version();
    return true;
  }

private:
  bool tooLarge() const {
    unsigned Count = 0;
    for (BasicBlock *BB : L.blocks())
      Count += BB->size();
    return Count > MaxVersionedInstructions;
  }

  /// The copy's values reach code after the loop only through PHIs of
  /// exit blocks, which get the copy's incoming values; any other use
  /// would need the two versions merged first.
  bool usedOutside() const {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        for (Use &U : I.uses()) {
          auto *User = cast<Instruction>(U.getUser());
          if (L.contains(User))
            continue;
          auto *Phi = dyn_cast<PHINode>(User);
          if (!Phi || !L.contains(Phi->getIncomingBlock(U)))
            return true;
        }
    return false;
  }

  /// The integer comparisons in the loop that branches depend on, through
  /// and/or/xor/not and logical selects; not the loop's own exit test,
  /// which changes at the last item by design.
  void collectBranchComparisons(SmallVectorImpl<ICmpInst *> &Out) {
    SmallPtrSet<Value *, 16> Seen;
    SmallVector<Value *, 16> Work;
    for (BasicBlock *BB : L.blocks())
      if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
          Br && Br->isConditional() && !L.isLoopExiting(BB))
        Work.push_back(Br->getCondition());
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || !L.contains(I) || !I->getType()->isIntegerTy(1) ||
          !Seen.insert(I).second)
        continue;
      if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
        if (Cmp->getOperand(0)->getType()->isIntegerTy())
          Out.push_back(Cmp);
      } else if (isa<SelectInst>(I) || isa<FreezeInst>(I) ||
                 (isa<BinaryOperator>(I) &&
                  (I->getOpcode() == Instruction::And ||
                   I->getOpcode() == Instruction::Or ||
                   I->getOpcode() == Instruction::Xor))) {
        for (Value *Op : I->operands())
          Work.push_back(Op);
      }
    }
  }

  /// Emits, before the loop, when \p Cmp is the same for all items: it
  /// compares an affine function of the local id, A(x) = A0 + Step * x,
  /// with an invariant B.
  void decide(ICmpInst &Cmp, const SCEV *BTC) {
    CmpPredicate Pred = Cmp.getCmpPredicate();
    const SCEV *A = SE.getSCEV(Cmp.getOperand(0));
    const SCEV *B = SE.getSCEV(Cmp.getOperand(1));
    if (SE.isLoopInvariant(A, &L)) {
      std::swap(A, B);
      Pred = CmpPredicate::getSwapped(Pred);
    }
    const auto *AR = dyn_cast<SCEVAddRecExpr>(A);
    if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
        !SE.isLoopInvariant(B, &L))
      return;
    const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step || !Step->getAPInt().isStrictlyPositive() ||
        Step->getAPInt().getActiveBits() > 32 ||
        A->getType()->getIntegerBitWidth() > 64)
      return;
    Instruction *At = Preheader->getTerminator();
    if (!Expander.isSafeToExpandAt(AR->getStart(), At) ||
        !Expander.isSafeToExpandAt(B, At))
      return;

    IRBuilder<> IRB(At);
    Value *BV = Expander.expandCodeFor(B, A->getType(), At);
    bool Signed = ICmpInst::isSigned(Pred);
    auto [A0, A1, NoWrap] = range(AR, Step->getAPInt(), BTC, Signed);
    Value *Holds, *Result;
    if (ICmpInst::isEquality(Pred)) {
      // A runs through [A0, A1] without wrapping: B outside means never
      // equal.
      Value *Outside = IRB.CreateOr(IRB.CreateICmpULT(BV, A0),
                                    IRB.CreateICmpUGT(BV, A1));
      Holds = IRB.CreateAnd(NoWrap, Outside);
      Result = IRB.getInt1(Pred == ICmpInst::ICMP_NE);
    } else {
      // A is monotone: the comparison changes at most once, so equal
      // answers at both ends mean the same answer throughout.
      Value *AtFirst = IRB.CreateICmp(Pred, A0, BV);
      Value *AtLast = IRB.CreateICmp(Pred, A1, BV);
      Holds = IRB.CreateAnd(NoWrap, IRB.CreateICmpEQ(AtFirst, AtLast));
      Result = AtFirst;
    }
    Decisions.push_back({&Cmp, Holds, Result});
  }

  struct Range {
    Value *First, *Last; ///< A at the first and the last item.
    Value *NoWrap;       ///< A does not wrap in between.
  };

  /// Where \p AR runs over the loop, emitted once per start and
  /// signedness (Sobel compares x with 0 and with width - 1).
  Range range(const SCEVAddRecExpr *AR, const APInt &Step, const SCEV *BTC,
              bool Signed) {
    auto [It, New] = Ranges.try_emplace({AR, unsigned(Signed)});
    if (!New)
      return It->second;
    Instruction *At = Preheader->getTerminator();
    IRBuilder<> IRB(At);
    Type *Ty = AR->getType(), *Wide = IRB.getInt128Ty();
    unsigned Bits = Ty->getIntegerBitWidth();
    Value *A0 = Expander.expandCodeFor(AR->getStart(), Ty, At);
    Value *Trips = Expander.expandCodeFor(BTC, BTC->getType(), At);
    // The last item's A, in 128 bits, where nothing wraps: A0 + Step * BTC
    // (at most 2^64 * 2^32 on top of a 64-bit A0).
    Value *First = Signed ? IRB.CreateSExt(A0, Wide) : IRB.CreateZExt(A0, Wide);
    Value *Span = IRB.CreateNUWMul(IRB.CreateZExt(Trips, Wide),
                                   ConstantInt::get(Wide, Step.zext(128)));
    Value *Last = IRB.CreateAdd(First, Span);
    APInt Max = Signed ? APInt::getSignedMaxValue(Bits) : APInt::getMaxValue(Bits);
    Value *NoWrap = IRB.CreateICmpSLE(Last, ConstantInt::get(Wide, Max.zext(128)));
    It->second = {A0, IRB.CreateTrunc(Last, Ty), NoWrap};
    return It->second;
  }

  /// Copies the loop; the copy runs when every decision holds, with each
  /// comparison replaced by its value.
  void version() {
    Function &F = *Preheader->getParent();
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 16> Copies;
    for (BasicBlock *BB : L.blocks()) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".interior", &F);
      VMap[BB] = Copy;
      Copies.push_back(Copy);
    }
    remapInstructionsInBlocks(Copies, VMap);

    SmallVector<BasicBlock *, 4> Exits;
    L.getUniqueExitBlocks(Exits);
    for (BasicBlock *Exit : Exits)
      for (PHINode &Phi : Exit->phis())
        for (unsigned In = 0, E = Phi.getNumIncomingValues(); In != E; ++In)
          if (BasicBlock *From = Phi.getIncomingBlock(In); L.contains(From)) {
            Value *V = Phi.getIncomingValue(In);
            if (Value *Copy = VMap.lookup(V))
              V = Copy;
            Phi.addIncoming(V, cast<BasicBlock>(VMap[From]));
          }

    // Its own loop ID: the same options, a distinct loop.
    auto *Latch = cast<BasicBlock>(VMap[L.getLoopLatch()]);
    if (MDNode *ID = L.getLoopID()) {
      SmallVector<Metadata *, 4> Ops = {nullptr};
      Ops.append(ID->op_begin() + 1, ID->op_end());
      MDNode *NewID = MDNode::getDistinct(F.getContext(), Ops);
      NewID->replaceOperandWith(0, NewID);
      Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, NewID);
    }

    IRBuilder<> IRB(Preheader->getTerminator());
    Value *All = Decisions.front().Holds;
    for (const Decided &D : llvm::drop_begin(Decisions))
      All = IRB.CreateAnd(All, D.Holds);
    Instruction *Old = Preheader->getTerminator();
    BranchInst::Create(cast<BasicBlock>(VMap[L.getHeader()]), L.getHeader(), All,
                       Old->getIterator());
    Old->eraseFromParent();

    for (const Decided &D : Decisions) {
      auto *Copy = cast<ICmpInst>(VMap[D.Cmp]);
      Copy->replaceAllUsesWith(D.Result);
      Copy->eraseFromParent();
    }
  }

  Loop &L;
  ScalarEvolution &SE;
  BasicBlock *Preheader;
  SCEVExpander Expander;
  SmallVector<Decided, 8> Decisions;
  DenseMap<std::pair<const SCEV *, unsigned>, Range> Ranges;
};

} // namespace

PreservedAnalyses WorkItemLoopVersioningPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  if (!VersionWorkItemLoops)
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().ends_with(WorkGroupFunctionSuffix))
      continue;
    SmallVector<BasicBlock *, 4> Headers;
    for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder())
      if (isWorkItemLoop(*L))
        Headers.push_back(L->getHeader());
    // One loop at a time, on fresh analyses: versioning adds blocks that
    // the loop and SCEV results of the function do not know.
    for (BasicBlock *Header : Headers) {
      auto &LI = FAM.getResult<LoopAnalysis>(F);
      Loop *L = LI.getLoopFor(Header);
      if (!L || L->getHeader() != Header)
        continue;
      if (LoopVersioner(*L, FAM.getResult<ScalarEvolutionAnalysis>(F)).run()) {
        Changed = true;
        FAM.invalidate(F, PreservedAnalyses::none());
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
