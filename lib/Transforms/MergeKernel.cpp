//===- MergeKernel.cpp - Kernels that merge a device's outputs ------------===//
#include "Transforms/MergeKernel.h"
#include "Analysis/KernelArgAccess.h"
#include "Support/Atomics.h"
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"
#include "Support/VectorLoadStore.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <map>

using namespace llvm;

namespace skmd {

std::string mergeVariantName(StringRef Kernel) {
  return (Kernel + "__skmd_merge").str();
}

namespace {

/// OpenCL's __global and __local in SPIR numbering (kernel_arg_addr_space).
constexpr unsigned OpenCLGlobal = 1;
constexpr unsigned OpenCLLocal = 3;

class MergeBuilder {
public:
  MergeBuilder(Function &Merge, const std::map<Argument *, Argument *> &Copies)
      : F(Merge), Copies(Copies) {}

  /// Rewrites the stores and removes the computation. Returns a reason on
  /// failure, with F left for the caller to delete.
  std::optional<std::string> build() {
    promoteLocals();
    if (auto Why = rewriteWrites())
      return Why;
    for (Instruction *I : Dropped)
      I->eraseFromParent();
    return markAndSweep();
  }

private:
  void promoteLocals() {
    DominatorTree DT(F);
    SmallVector<AllocaInst *, 8> Promotable;
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (isAllocaPromotable(AI))
          Promotable.push_back(AI);
    if (!Promotable.empty())
      PromoteMemToReg(Promotable, DT);
  }

  /// The written buffer that \p Ptr points into; nullptr for memory that is
  /// not an output (locals, inputs). Sets Why when it cannot tell.
  Argument *outputOf(Value *Ptr, std::optional<std::string> &Why) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
    Argument *Found = nullptr;
    bool Other = false;
    for (const Value *O : Objects) {
      auto *A = dyn_cast<Argument>(const_cast<Value *>(O));
      if (A && Copies.count(A)) {
        if (Found && Found != A)
          Why = "a store may write to either '" + Found->getName().str() +
                "' or '" + A->getName().str() + "'";
        Found = A;
      } else if (!isa<AllocaInst>(O) && !isa<GlobalVariable>(O) &&
                 !isa<Argument>(O)) {
        Other = true;
      }
    }
    if (Found && Other)
      Why = "a store to '" + Found->getName().str() +
            "' goes through a pointer that cannot be traced to it alone";
    if (!Found && Other && !Copies.empty())
      Why = "a store goes through a pointer that cannot be traced to a buffer";
    return Found;
  }

  /// The copy's address that mirrors \p Ptr inside \p Output.
  Value *mirror(IRBuilder<> &B, Value *Ptr, Argument *Output) {
    Type *IntTy = B.getInt64Ty();
    Value *Offset = B.CreateSub(B.CreatePtrToInt(Ptr, IntTy),
                                B.CreatePtrToInt(Output, IntTy), "skmd.offset");
    return B.CreateGEP(B.getInt8Ty(), Copies.at(Output), Offset, "skmd.copy");
  }

  /// The copy's address that mirrors \p Ptr, for a store whose pointer
  /// picks one of several outputs: a select or phi whose every arm points
  /// into one output. LLVM makes such a pointer of
  /// `c ? (A[i] = x) : (B[j] = y)` (AMD's LU decomposition) and of an if/else
  /// storing to two buffers. The mirror picks the copies the same way.
  /// nullptr where an arm points anywhere else.
  Value *mirrorOfChoice(Value *Ptr) {
    std::optional<std::string> Why;
    if (Argument *Out = outputOf(Ptr, Why); Out && !Why) {
      auto *I = dyn_cast<Instruction>(Ptr);
      IRBuilder<> B(I ? I->getNextNode() : &*F.getEntryBlock().getFirstInsertionPt());
      if (I && isa<PHINode>(I))
        B.SetInsertPoint(I->getParent()->getFirstNonPHIIt());
      return mirror(B, Ptr, Out);
    }
    if (auto *G = dyn_cast<GetElementPtrInst>(Ptr)) {
      // The arms' common index, hoisted out of them: A or B, then [i].
      Value *Base = mirrorOfChoice(G->getPointerOperand());
      if (!Base)
        return nullptr;
      Instruction *Moved = G->clone();
      Moved->setOperand(GetElementPtrInst::getPointerOperandIndex(), Base);
      Moved->setName("skmd.copy.choice");
      Moved->insertAfter(G->getIterator());
      return Moved;
    }
    if (auto *S = dyn_cast<SelectInst>(Ptr)) {
      Value *T = mirrorOfChoice(S->getTrueValue());
      Value *E = T ? mirrorOfChoice(S->getFalseValue()) : nullptr;
      if (!E)
        return nullptr;
      IRBuilder<> B(S->getNextNode());
      return B.CreateSelect(S->getCondition(), T, E, "skmd.copy.choice");
    }
    if (auto *Phi = dyn_cast<PHINode>(Ptr)) {
      SmallVector<Value *, 4> Arms;
      for (Value *In : Phi->incoming_values()) {
        Value *M = mirrorOfChoice(In);
        if (!M)
          return nullptr;
        Arms.push_back(M);
      }
      PHINode *Mirror = PHINode::Create(Phi->getType(), Phi->getNumIncomingValues(),
                                        "skmd.copy.choice", Phi->getIterator());
      for (unsigned I = 0; I < Arms.size(); ++I)
        Mirror->addIncoming(Arms[I], Phi->getIncomingBlock(I));
      return Mirror;
    }
    return nullptr;
  }

  /// An atomic update on an output whose devices' copies are combined
  /// instead of merged (a commutative integer update, its result unused):
  /// the merge kernel leaves that buffer alone. Any other is a reason.
  std::optional<std::string> dropCombinedAtomic(Instruction &I) {
    if (!commutativeAtomic(I) || !I.use_empty())
      return "atomic operations on an output (" + describeAtomic(I) + ")";
    Dropped.push_back(&I);
    return std::nullopt;
  }

  std::optional<std::string> rewriteWrites() {
    SmallVector<Instruction *, 16> Writes;
    for (Instruction &I : instructions(F))
      if (I.mayWriteToMemory())
        Writes.push_back(&I);

    for (Instruction *I : Writes) {
      std::optional<std::string> Why;
      IRBuilder<> B(I);
      if (auto *S = dyn_cast<StoreInst>(I)) {
        Argument *Out = outputOf(S->getPointerOperand(), Why);
        Value *Src = nullptr;
        if (Why && !(Src = mirrorOfChoice(S->getPointerOperand())))
          return Why;
        if (!Out)
          continue;
        // The paper's rewrite: same store, value loaded from the copy.
        if (!Src)
          Src = mirror(B, S->getPointerOperand(), Out);
        LoadInst *V = B.CreateAlignedLoad(S->getValueOperand()->getType(), Src,
                                          S->getAlign(), "skmd.merged");
        S->setOperand(0, V);
        Roots.push_back(S);
      } else if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
        Argument *Out = outputOf(MI->getDest(), Why);
        if (Why)
          return Why;
        if (!Out)
          continue;
        Roots.push_back(B.CreateMemCpy(MI->getDest(), MI->getDestAlign(),
                                       mirror(B, MI->getDest(), Out),
                                       MI->getDestAlign(), MI->getLength()));
        MI->eraseFromParent();
      } else if (auto *CB = dyn_cast<CallBase>(I)) {
        if (auto VS = asVectorAccess(*CB); VS && VS->IsStore) {
          Argument *Out = outputOf(VS->Pointer, Why);
          if (Why)
            return Why;
          if (!Out)
            continue;
          Value *Dest = B.CreateGEP(
              B.getInt8Ty(), VS->Pointer,
              B.CreateMul(B.CreateZExtOrTrunc(VS->Offset, B.getInt64Ty()),
                          B.getInt64(VS->Stride)));
          Roots.push_back(B.CreateMemCpy(Dest, Align(1), mirror(B, Dest, Out),
                                         Align(1), VS->Bytes));
          CB->eraseFromParent();
          continue;
        }
        if (atomicPointer(*CB) && outputOf(const_cast<Value *>(atomicPointer(*CB)), Why)) {
          if (auto Why2 = dropCombinedAtomic(*CB))
            return Why2;
          continue;
        }
        for (Value *Arg : CB->args())
          if (Arg->getType()->isPointerTy() && outputOf(Arg, Why))
            return demangle(CB->getCalledOperand()->getName()) +
                   " writes to an output buffer in a way SKMD cannot merge";
        if (Why)
          return Why;
      } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
        Value *Ptr = isa<AtomicRMWInst>(I)
                         ? cast<AtomicRMWInst>(I)->getPointerOperand()
                         : cast<AtomicCmpXchgInst>(I)->getPointerOperand();
        if (outputOf(Ptr, Why))
          if (auto Why2 = dropCombinedAtomic(*I))
            return Why2;
      }
    }
    return std::nullopt;
  }

  /// Post-dominance frontier: the blocks whose branch decides whether a
  /// block runs (its control dependences).
  void computeControlDependence(const PostDominatorTree &PDT) {
    for (BasicBlock &X : F) {
      if (succ_size(&X) < 2)
        continue;
      DomTreeNode *XNode = PDT.getNode(&X);
      DomTreeNode *Stop = XNode ? XNode->getIDom() : nullptr;
      for (BasicBlock *S : successors(&X))
        for (DomTreeNode *R = PDT.getNode(S); R && R != Stop; R = R->getIDom())
          if (BasicBlock *RB = R->getBlock())
            ControlDeps[RB].insert(&X);
    }
  }

  void markLive(Instruction *I) {
    if (Live.insert(I).second)
      Worklist.push_back(I);
  }

  void markBlockLive(BasicBlock *BB) {
    if (!LiveBlocks.insert(BB).second)
      return;
    for (BasicBlock *Decider : ControlDeps[BB])
      markLive(Decider->getTerminator());
  }

  /// A live load from local or private memory needs whatever wrote it, and
  /// the barriers that order those writes.
  void markScratchWritersLive() {
    if (ScratchWritersLive)
      return;
    ScratchWritersLive = true;
    for (Instruction &I : instructions(F)) {
      if (!I.mayWriteToMemory() || Live.count(&I))
        continue;
      std::optional<std::string> Ignored;
      Value *Ptr = nullptr;
      if (auto *S = dyn_cast<StoreInst>(&I))
        Ptr = S->getPointerOperand();
      else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
        Ptr = MI->getDest();
      if (!Ptr || !outputOf(Ptr, Ignored))
        markLive(&I);
    }
  }

  /// Marks live everything the worklist's instructions need.
  std::optional<std::string> propagate() {
    while (!Worklist.empty()) {
      Instruction *I = Worklist.pop_back_val();
      markBlockLive(I->getParent());
      if (auto *Phi = dyn_cast<PHINode>(I))
        for (BasicBlock *In : Phi->blocks())
          markLive(In->getTerminator());
      auto *L = dyn_cast<LoadInst>(I);
      // A merged value comes from a device's copy, through a choice of
      // copies where the store chose among outputs.
      if (L && !L->getName().starts_with("skmd.merged")) {
        std::optional<std::string> Ignored;
        if (Argument *Out = outputOf(L->getPointerOperand(), Ignored)) {
          // The merge would read an output the host is still filling in.
          return "output addresses or control flow depend on values read "
                 "from output '" +
                 Out->getName().str() + "'";
        } else if (const auto *A = dyn_cast<Argument>(
                       getUnderlyingObject(L->getPointerOperand()));
                   !A || kernelArgAddressSpace(F, A->getArgNo()) == OpenCLLocal) {
          // Private or __local memory, a __local pointer argument's too:
          // the merge recomputes it (a flag set by one work-item before a
          // barrier decides the others' stores).
          markScratchWritersLive();
        }
      }
      for (Use &Op : I->operands())
        if (auto *OpI = dyn_cast<Instruction>(Op))
          markLive(OpI);
    }
    return std::nullopt;
  }

  /// Where a dead branch in \p BB can go instead: its immediate
  /// post-dominator, unless that needs to know which way control came.
  BasicBlock *redirectTarget(const PostDominatorTree &PDT, BasicBlock &BB) {
    DomTreeNode *N = PDT.getNode(&BB);
    BasicBlock *Target = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    if (!Target || isa<PHINode>(Target->front()))
      return nullptr;
    return Target;
  }

  std::optional<std::string> markAndSweep() {
    PostDominatorTree PDT(F);
    computeControlDependence(PDT);

    markBlockLive(&F.getEntryBlock());
    for (Instruction *R : Roots)
      markLive(R);
    for (BasicBlock &BB : F)
      if (isa<ReturnInst>(BB.getTerminator()))
        markLive(BB.getTerminator());
    if (auto Why = propagate())
      return Why;

    // A dead branch that cannot be redirected is kept, with what it needs.
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (BasicBlock &BB : F) {
        Instruction *T = BB.getTerminator();
        if (!Live.count(T) && T->getNumSuccessors() > 1 &&
            !redirectTarget(PDT, BB)) {
          markLive(T);
          Grew = true;
        }
      }
      if (auto Why = propagate())
        return Why;
    }

    // Every other dead branch goes straight to its post-dominator.
    for (BasicBlock &BB : F) {
      Instruction *T = BB.getTerminator();
      if (Live.count(T) || T->getNumSuccessors() < 2)
        continue;
      BasicBlock *Target = redirectTarget(PDT, BB);
      for (BasicBlock *S : successors(&BB))
        if (S != Target)
          S->removePredecessor(&BB);
      BranchInst::Create(Target, T->getIterator());
      T->eraseFromParent();
    }

    SmallVector<Instruction *, 64> Dead;
    for (Instruction &I : instructions(F))
      if (!Live.count(&I) && !I.isTerminator())
        Dead.push_back(&I);
    for (Instruction *I : Dead)
      I->dropAllReferences();
    for (Instruction *I : Dead)
      I->eraseFromParent();
    removeUnreachableBlocks(F);
    return std::nullopt;
  }

  Function &F;
  const std::map<Argument *, Argument *> &Copies;
  SmallVector<Instruction *, 4> Dropped;
  SmallVector<Instruction *, 16> Roots;
  SmallPtrSet<Instruction *, 32> Live;
  SmallPtrSet<BasicBlock *, 16> LiveBlocks;
  SmallVector<Instruction *, 64> Worklist;
  DenseMap<BasicBlock *, SmallPtrSet<BasicBlock *, 4>> ControlDeps;
  bool ScratchWritersLive = false;
};

} // namespace

PreservedAnalyses MergeKernelPass::run(Module &M, ModuleAnalysisManager &MAM) {
  const KernelArgAccessResult &Access = MAM.getResult<KernelArgAccessAnalysis>(M);

  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isOriginalKernel(F) && !findVariant(M, F, "merge"))
      Kernels.push_back(&F);

  bool Changed = false;
  for (Function *K : Kernels) {
    const std::vector<ArgAccess> *Args = Access.lookup(*K);
    if (!Args)
      continue;
    std::vector<unsigned> Written;
    std::vector<ExtraArg> Extra;
    for (const ArgAccess &A : *Args)
      if (A.IsPointer && A.Written && A.AddressSpace == OpenCLGlobal) {
        Written.push_back(A.ArgNo);
        Extra.push_back({K->getArg(A.ArgNo)->getType(), "skmd_copy_" + A.Name,
                         OpenCLGlobal, kernelArgTypeName(*K, A.ArgNo)});
      }
    if (Written.empty())
      continue;

    Function *Base = findVariant(M, *K, "range");
    Function *Merge = cloneKernelWithExtraArgs(Base ? *Base : *K,
                                               mergeVariantName(K->getName()),
                                               Extra, "merge");
    // The clone of a variant names that variant as its origin; the merge
    // kernel belongs to the user's kernel.
    Merge->addFnAttr(OriginAttr, K->getName());

    std::map<Argument *, Argument *> Copies;
    unsigned FirstCopy = Merge->arg_size() - Written.size();
    for (size_t I = 0; I < Written.size(); ++I)
      Copies[Merge->getArg(Written[I])] = Merge->getArg(FirstCopy + I);

    std::optional<std::string> Why;
    if (!inlineAllCalls(*Merge))
      Why = "a helper function could not be inlined";
    else
      Why = MergeBuilder(*Merge, Copies).build();
    if (Why) {
      Merge->eraseFromParent();
      K->addFnAttr(NoMergeAttr, *Why);
    }
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
