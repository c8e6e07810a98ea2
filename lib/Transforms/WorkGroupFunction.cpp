//===- WorkGroupFunction.cpp - One function per work-group for CPUs -------===//
#include "Transforms/WorkGroupFunction.h"
#include "Analysis/WorkItemUniformity.h"
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <set>

using namespace llvm;

namespace skmd {

std::string workGroupFunctionName(StringRef Kernel) {
  return (Kernel + WorkGroupFunctionSuffix).str();
}

namespace {

/// Largest expression copied at a use rather than saved per work-item:
/// addresses and indices are a handful of instructions.
constexpr unsigned MaxRecomputedInstructions = 32;

/// Field numbers of struct skmd_wg_ctx (runtime/devices/cpu/WorkGroupABI.h).
enum CtxField : unsigned {
  CtxGroup = 0,
  CtxNumGroups = 1,
  CtxLocalSize = 2,
  CtxGlobalOffset = 3,
  CtxWorkDim = 4,
  CtxLocalMem = 6,
  CtxWIState = 7,
};

StructType *contextType(LLVMContext &C) {
  Type *I64x3 = ArrayType::get(Type::getInt64Ty(C), 3);
  Type *I32 = Type::getInt32Ty(C);
  Type *Ptr = PointerType::getUnqual(C);
  return StructType::get(C, {I64x3, I64x3, I64x3, I64x3, I32, I32, Ptr, Ptr});
}

/// CLK_LOCAL_MEM_FENCE alone orders memory only this thread touches.
bool isLocalOnlyFence(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F || !F->getName().contains("mem_fence") || CB.arg_size() != 1)
    return false;
  const auto *Flags = dyn_cast<ConstantInt>(CB.getArgOperand(0));
  return Flags && Flags->getZExtValue() == 1;
}

/// The element type of private array \p AI: an array of scalars whose
/// store size is their size; null for anything else.
Type *arrayElementType(const AllocaInst &AI) {
  const DataLayout &DL = AI.getDataLayout();
  auto *AT = dyn_cast<ArrayType>(AI.getAllocatedType());
  if (!AT || AI.isArrayAllocation() || AT->getNumElements() < 2)
    return nullptr;
  Type *ET = AT->getElementType();
  if (!(ET->isIntegerTy() || ET->isFloatingPointTy() || ET->isPointerTy()) ||
      !DL.typeSizeEqualsStoreSize(ET))
    return nullptr;
  return ET;
}

/// The element of array \p AI (of \p ET) that \p GEP addresses:
/// `gep ET, AI, i`, `gep [N x ET], AI, 0, i`, or a constant byte offset
/// that is a whole element; null for any other form.
Value *arrayIndexOf(const GetElementPtrInst &GEP, const AllocaInst &AI, Type *ET) {
  if (GEP.getPointerOperand() != &AI)
    return nullptr;
  Type *Src = GEP.getSourceElementType();
  if (Src == ET && GEP.getNumIndices() == 1)
    return GEP.getOperand(1);
  if (Src == AI.getAllocatedType() && GEP.getNumIndices() == 2)
    if (auto *Zero = dyn_cast<ConstantInt>(GEP.getOperand(1)); Zero && Zero->isZero())
      return GEP.getOperand(2);
  uint64_t Size = AI.getDataLayout().getTypeAllocSize(ET);
  if (Src->isIntegerTy(8) && GEP.getNumIndices() == 1)
    if (auto *Bytes = dyn_cast<ConstantInt>(GEP.getOperand(1));
        Bytes && !Bytes->isNegative() && Bytes->getZExtValue() % Size == 0)
      return ConstantInt::get(Bytes->getType(), Bytes->getZExtValue() / Size);
  return nullptr;
}

/// Whether \p U is a simple load or store of \p ET through \p Ptr.
bool isElementAccess(const User *U, const Value *Ptr, const Type *ET) {
  if (const auto *Load = dyn_cast<LoadInst>(U))
    return Load->isSimple() && Load->getType() == ET;
  if (const auto *Store = dyn_cast<StoreInst>(U))
    return Store->isSimple() && Store->getPointerOperand() == Ptr &&
           Store->getValueOperand()->getType() == ET;
  return false;
}

class WorkGroupBuilder {
public:
  WorkGroupBuilder(Function &Kernel)
      : K(Kernel), M(*Kernel.getParent()), Ctx(M.getContext()),
        DL(M.getDataLayout()), I64(Type::getInt64Ty(Ctx)) {}

  void build() {
    createFunctionAndPrologue();
    inlineAllCalls(*WG);
    moveLocalVariablesToContext();
    collectBody();
    splitAtBarriers();
    hoistAllocas();
    if (!BarrierBlocks.empty()) {
      demoteValuesLiveAcrossBarriers();
      scalarizeVectorSlots();
    }
    layOutWorkItemState();
    formRegions();
    separateStateFromKernelMemory();
    K.addFnAttr(LocalMemBytesAttr, std::to_string(LocalMemBytes));
    K.addFnAttr(StateBytesAttr, std::to_string(StateBytesPerItem));
  }

private:
  // The function, its prologue and the uniform values it loads.
  void createFunctionAndPrologue() {
    Type *Ptr = PointerType::getUnqual(Ctx);
    FunctionType *Ty = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
    WG = Function::Create(Ty, GlobalValue::ExternalLinkage,
                          workGroupFunctionName(K.getName()), M);
    Argument *Args = WG->getArg(0), *CtxArg = WG->getArg(1);
    Args->setName("args");
    CtxArg->setName("ctx");
    Prologue = BasicBlock::Create(Ctx, "prologue", WG);
    IRBuilder<> B(Prologue);
    StructType *CT = contextType(Ctx);
    auto Field3 = [&](CtxField F, const char *Name, Value *(&Out)[3]) {
      for (unsigned D = 0; D < 3; ++D)
        Out[D] = B.CreateLoad(
            I64,
            B.CreateInBoundsGEP(CT, CtxArg,
                                {B.getInt32(0), B.getInt32(F), B.getInt32(D)}),
            std::string(Name) + "." + std::to_string(D));
    };
    Field3(CtxGroup, "group", Group);
    Field3(CtxNumGroups, "num_groups", NumGroups);
    Field3(CtxLocalSize, "local_size", LocalSize);
    Field3(CtxGlobalOffset, "global_offset", Offset);
    WorkDim = B.CreateLoad(B.getInt32Ty(), B.CreateStructGEP(CT, CtxArg, CtxWorkDim), "work_dim");
    LocalMem = B.CreateLoad(Ptr, B.CreateStructGEP(CT, CtxArg, CtxLocalMem), "local_mem");
    WIState = B.CreateLoad(Ptr, B.CreateStructGEP(CT, CtxArg, CtxWIState), "wi_state");
    NumItems = B.CreateMul(B.CreateMul(LocalSize[0], LocalSize[1]), LocalSize[2], "items");

    ValueToValueMapTy VMap;
    // A struct passed by value (byval) is a pointer to its bytes in the
    // kernel: the runtime's copy of the value serves, loaded from nowhere.
    SmallVector<std::pair<Argument *, Value *>, 2> WrittenByVal;
    for (Argument &A : K.args()) {
      Value *Slot = B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, Args, A.getArgNo()));
      if (A.hasByValAttr()) {
        VMap[&A] = Slot;
        if (!A.onlyReadsMemory())
          WrittenByVal.push_back({&A, Slot});
        continue;
      }
      VMap[&A] = B.CreateLoad(A.getType(), Slot, A.getName());
      if (isSharedBufferArg(K, A.getArgNo()))
        SharedObjects.insert(VMap[&A]);
    }
    SharedObjects.insert(LocalMem);
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(WG, &K, VMap, CloneFunctionChangeType::LocalChangesOnly,
                      Returns);
    // A kernel that may write its by-value struct gets a private copy per
    // work-item, made where each work-item starts.
    auto *Entry = cast<BasicBlock>(VMap[&K.getEntryBlock()]);
    for (auto [A, Slot] : WrittenByVal) {
      IRBuilder<> E(Entry, Entry->getFirstInsertionPt());
      Type *Ty = A->getParamByValType();
      Align Al = A->getParamAlign().valueOrOne();
      AllocaInst *Copy = E.CreateAlloca(Ty, nullptr, A->getName() + ".copy");
      Copy->setAlignment(Al);
      Slot->replaceUsesWithIf(Copy, [&](Use &U) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        return I && I->getParent() != Prologue;
      });
      E.CreateMemCpy(Copy, Al, Slot, Al, DL.getTypeAllocSize(Ty));
    }
    // A plain C function now: not a kernel, not convergent.
    WG->setCallingConv(CallingConv::C);
    WG->setAttributes(AttributeList());
    WG->addFnAttr(Attribute::NoUnwind);
    for (StringRef Kind : {"kernel_arg_addr_space", "kernel_arg_access_qual",
                           "kernel_arg_type", "kernel_arg_base_type",
                           "kernel_arg_type_qual", "kernel_arg_name",
                           "reqd_work_group_size", "work_group_size_hint"})
      WG->setMetadata(Kind, nullptr);
    B.CreateBr(cast<BasicBlock>(VMap[&K.getEntryBlock()]));
  }

  void moveLocalVariablesToContext() {
    SetVector<GlobalVariable *> Locals;
    for (Instruction &I : instructions(*WG))
      for (Value *Op : I.operands()) {
        SmallVector<Value *, 4> Work = {Op};
        while (!Work.empty()) {
          Value *V = Work.pop_back_val();
          if (auto *GV = dyn_cast<GlobalVariable>(V)) {
            if (isLocalVariable(*GV))
              Locals.insert(GV);
          } else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
            for (Value *Sub : CE->operands())
              Work.push_back(Sub);
          }
        }
      }
    if (Locals.empty())
      return;
    SmallVector<Constant *, 8> Cs(Locals.begin(), Locals.end());
    convertUsersOfConstantsToInstructions(Cs, WG);
    IRBuilder<> B(Prologue->getTerminator());
    uint64_t Offset = 0;
    for (GlobalVariable *GV : Locals) {
      Align A = GV->getAlign().value_or(DL.getABITypeAlign(GV->getValueType()));
      Offset = alignTo(Offset, std::max<uint64_t>(A.value(), 16));
      Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), LocalMem, Offset,
                                                 GV->getName());
      GV->replaceUsesWithIf(Addr, [&](Use &U) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        return I && I->getFunction() == WG;
      });
      Offset += DL.getTypeAllocSize(GV->getValueType());
    }
    LocalMemBytes = Offset;
  }

  void collectBody() {
    for (BasicBlock &BB : *WG)
      if (&BB != Prologue)
        Body.push_back(&BB);
  }

  /// Each barrier alone in its block, which jumps to a fresh block: the
  /// entry of the sub-CFG after the barrier, without PHIs. The block before
  /// a barrier is split off even when it holds nothing else: where two
  /// barriers follow each other (or an emptied `if` between them), that
  /// empty block is the sub-CFG between them; without it the first
  /// barrier's successor was the second barrier's block, no sub-CFG entry.
  void splitAtBarriers() {
    SmallVector<Instruction *, 8> Barriers;
    for (BasicBlock *BB : Body)
      for (Instruction &I : *BB)
        if (isWorkGroupBarrier(I))
          Barriers.push_back(&I);
    for (Instruction *Bar : Barriers) {
      BasicBlock *BarrierBB = Bar->getParent()->splitBasicBlock(Bar, "barrier");
      BasicBlock *After =
          BarrierBB->splitBasicBlock(Bar->getNextNode(), "after.barrier");
      Body.push_back(BarrierBB);
      Body.push_back(After);
      BarrierBlocks.insert(BarrierBB);
    }
  }

  /// Private variables live once per work-item: none stays in the loops.
  void hoistAllocas() {
    for (BasicBlock *BB : Body)
      for (Instruction &I : make_early_inc_range(*BB))
        if (auto *AI = dyn_cast<AllocaInst>(&I))
          AI->moveBefore(Prologue->getTerminator()->getIterator());
  }

  /// Values live at a barrier (some path from the barrier reaches a use
  /// without recomputing the value) move to memory; the memory then becomes
  /// per-work-item state. A value redefined each time round a loop before
  /// its use stays in a register, even if that loop holds barriers.
  void demoteValuesLiveAcrossBarriers() {
    SmallVector<Instruction *, 16> Crossing;
    for (BasicBlock *BB : Body)
      for (Instruction &I : *BB)
        if (!isa<AllocaInst>(I) && isLiveAtABarrier(I))
          Crossing.push_back(&I);
    // Values made only of launch values, arguments, constants and
    // work-item functions are recomputed where used instead: saving them
    // per work-item would turn an address like &tile[ly][k] into a load of
    // a saved pointer per item, which the vectorizer can only gather.
    llvm::erase_if(Crossing, [&](Instruction *I) {
      unsigned Budget = MaxRecomputedInstructions;
      if (!isRecomputable(I, Budget))
        return false;
      for (Use &U : make_early_inc_range(I->uses())) {
        auto *User = cast<Instruction>(U.getUser());
        Instruction *At = isa<PHINode>(User)
                              ? cast<PHINode>(User)->getIncomingBlock(U)->getTerminator()
                              : User;
        U.set(recompute(I, At));
      }
      I->eraseFromParent();
      return true;
    });
    // A value the same for every work-item (a loop counter of a loop with
    // barriers, a bound) needs one slot for the group, not one per item:
    // the vectorizer then sees a load from one address (a broadcast), not
    // a gather. Decided before any demotion changes the IR.
    DominatorTree DT(*WG);
    LoopInfo LI(DT);
    // The prologue's loads are the group's launch values. Its allocas are
    // the work-items' private variables, hoisted there: each item gets its
    // own, so their addresses vary (a pointer into a private array chosen
    // by a loop's PHI, kept in one group slot, sent every item's stores
    // after the barrier to the last item's array).
    WorkItemUniformity Uniformity(
        *WG, LI,
        [&](const Instruction &I) {
          return I.getParent() == Prologue && !isa<AllocaInst>(I);
        },
        [&](const Value &Object) { return SharedObjects.count(&Object) != 0; });
    for (Instruction &I : *Prologue)
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && isUniformlyIndexedArray(*AI, [&](const Value *V) {
            return Uniformity.isUniform(V);
          }))
        UniformlyIndexed.insert(AI);
    SmallVector<std::pair<bool, bool>, 16> Uniform; // Uniform, read first.
    for (Instruction *I : Crossing) {
      bool IsUniform = Uniformity.isUniform(I);
      Uniform.push_back({IsUniform, IsUniform && !groupSlotIsSafe(*I)});
    }
    // A PHI is demoted like any value (stored where it is computed, loaded
    // where used), so no load of it is left to cross a barrier either.
    Instruction *AllocaPoint = Prologue->getTerminator();
    for (auto [I, Kind] : llvm::zip(Crossing, Uniform)) {
      AllocaInst *Slot = DemoteRegToStack(*I, false, AllocaPoint->getIterator());
      if (Kind.first)
        GroupSlots.insert(Slot);
      if (Kind.second)
        SnapshotSlots.insert(Slot);
    }
  }

  /// A vector-typed slot (a float3 accumulator live at a barrier) becomes a
  /// slot per element. Slots are arrays over the items, so each element's
  /// copies then lie side by side, which the vectorizer loads and stores
  /// whole; in a vector slot each item's elements lie together, which it
  /// can only gather and scatter element by element. (An n-body step with
  /// a float3 accumulator, its loop over the bodies given an implicit
  /// barrier, ran at 0.67x PoCL on the 2-core VM, the explicit-component
  /// version at 3x.)
  void scalarizeVectorSlots() {
    SmallVector<AllocaInst *, 8> Vectors;
    for (Instruction &I : *Prologue)
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && !GroupSlots.count(AI) && isWholeVectorSlot(*AI))
        Vectors.push_back(AI);
    for (AllocaInst *AI : Vectors) {
      auto *VT = cast<FixedVectorType>(AI->getAllocatedType());
      Type *ET = VT->getElementType();
      IRBuilder<> B(AI);
      SmallVector<AllocaInst *, 4> Elements;
      for (unsigned E = 0; E < VT->getNumElements(); ++E)
        Elements.push_back(B.CreateAlloca(ET, nullptr, AI->getName() + "." + Twine(E)));
      for (User *U : make_early_inc_range(AI->users())) {
        auto *I = cast<Instruction>(U);
        IRBuilder<> At(I);
        if (auto *Load = dyn_cast<LoadInst>(I)) {
          Value *V = PoisonValue::get(VT);
          for (unsigned E = 0; E < Elements.size(); ++E)
            V = At.CreateInsertElement(V, At.CreateLoad(ET, Elements[E]), E);
          V->takeName(Load);
          Load->replaceAllUsesWith(V);
        } else if (auto *Store = dyn_cast<StoreInst>(I)) {
          for (unsigned E = 0; E < Elements.size(); ++E)
            At.CreateStore(At.CreateExtractElement(Store->getValueOperand(), E), Elements[E]);
        }
        // Else a lifetime marker: the slots live as long as the group.
        I->eraseFromParent();
      }
      AI->eraseFromParent();
    }
  }

  /// Whether \p AI holds one vector of byte-sized elements that is only
  /// loaded and stored whole.
  bool isWholeVectorSlot(AllocaInst &AI) {
    auto *VT = dyn_cast<FixedVectorType>(AI.getAllocatedType());
    if (!VT || AI.isArrayAllocation() || !DL.typeSizeEqualsStoreSize(VT->getElementType()))
      return false;
    return llvm::all_of(AI.users(), [&](User *U) {
      if (auto *Load = dyn_cast<LoadInst>(U))
        return Load->isSimple() && Load->getType() == VT;
      if (auto *Store = dyn_cast<StoreInst>(U))
        return Store->isSimple() && Store->getPointerOperand() == &AI &&
               Store->getValueOperand()->getType() == VT;
      auto *II = dyn_cast<IntrinsicInst>(U);
      return II && II->isLifetimeStartOrEnd();
    });
  }

  /// Work-items run a sub-CFG one after another, so one plain slot for the
  /// group holds a uniform value only if no sub-CFG can read it before
  /// writing it: else the first item's write would reach the next item's
  /// read of the old value (a loop counter read in a latch that shares its
  /// sub-CFG with the header that redefines it; such a slot reads a
  /// snapshot, SnapshotSlots). Checked per use: walking back from the use,
  /// every sub-CFG entry reached without passing the definition must not
  /// lead to the definition within that sub-CFG.
  bool groupSlotIsSafe(Instruction &I) {
    BasicBlock *Def = I.getParent();
    for (Use &U : I.uses()) {
      auto *User = cast<Instruction>(U.getUser());
      BasicBlock *At = isa<PHINode>(User)
                           ? cast<PHINode>(User)->getIncomingBlock(U)
                           : User->getParent();
      SmallVector<BasicBlock *, 16> Work = {At};
      DenseSet<BasicBlock *> Seen;
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        // In the defining block the definition comes first (a PHI user
        // reads at the end of its incoming block).
        if (BB == Def || !Seen.insert(BB).second)
          continue;
        if (isSubCFGEntry(BB)) {
          if (reachesWithinSubCFG(BB, Def))
            return false;
          continue;
        }
        for (BasicBlock *Pred : predecessors(BB))
          Work.push_back(Pred);
      }
    }
    return true;
  }

  bool isSubCFGEntry(BasicBlock *BB) {
    if (BB->hasNPredecessors(0) || BB->getSinglePredecessor() == Prologue)
      return true;
    return llvm::any_of(predecessors(BB), [&](BasicBlock *P) {
      return BarrierBlocks.count(P) != 0;
    });
  }

  /// Whether \p To can run after \p Entry before the next barrier.
  bool reachesWithinSubCFG(BasicBlock *Entry, BasicBlock *To) {
    SmallVector<BasicBlock *, 16> Work = {Entry};
    DenseSet<BasicBlock *> Seen;
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == To)
        return true;
      if (!Seen.insert(BB).second || BarrierBlocks.count(BB))
        continue;
      for (BasicBlock *Succ : successors(BB))
        Work.push_back(Succ);
    }
    return false;
  }

  /// Per-item state is the runtime's memory: no kernel pointer reaches it
  /// except through the slots themselves. Saying so (scoped no-alias
  /// metadata) lets the optimizer keep a value saved across a barrier in a
  /// register between its loads and stores, instead of storing it after
  /// every update because a __local or __global access might overwrite it
  /// (the tiled matmul's accumulator, once per product). Accesses whose
  /// pointers may come from anywhere (loaded from memory, merged from
  /// unknown sources) are left alone.
  void separateStateFromKernelMemory() {
    if (Slots.empty())
      return;
    MDBuilder MDB(Ctx);
    MDNode *Domain = MDB.createAnonymousAliasScopeDomain("skmd.work-group");
    MDNode *State = MDB.createAnonymousAliasScope(Domain, "wi_state");
    MDNode *StateList = MDNode::get(Ctx, {State});
    for (Instruction &I : instructions(*WG)) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
      bool InState = false, Known = true;
      for (const Value *O : Objects) {
        const auto *Inst = dyn_cast<Instruction>(O);
        if (O == WIState)
          InState = true;
        else if (!isa<GlobalVariable>(O) &&
                 !(Inst && (Inst->getParent() == Prologue)))
          Known = false; // Prologue values: arguments, __local, group slots.
      }
      if (InState && Objects.size() == 1)
        I.setMetadata(LLVMContext::MD_alias_scope,
                      MDNode::concatenate(I.getMetadata(LLVMContext::MD_alias_scope),
                                          StateList));
      else if (!InState && Known)
        I.setMetadata(LLVMContext::MD_noalias,
                      MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                          StateList));
    }
  }

  /// Whether \p V can be computed again anywhere in the body: it reads no
  /// memory and depends only on the prologue (launch values, arguments,
  /// __local addresses), constants and work-item functions, which every
  /// sub-CFG has. \p Budget bounds the instructions a copy may take.
  bool isRecomputable(Value *V, unsigned &Budget) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == Prologue)
      return true;
    if (auto *CB = dyn_cast<CallBase>(I))
      return workItemFnOf(*CB).has_value();
    if (Budget == 0 || !(isa<BinaryOperator>(I) || isa<CastInst>(I) ||
                         isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
                         isa<SelectInst>(I)))
      return false;
    --Budget;
    return llvm::all_of(I->operands(),
                        [&](Value *Op) { return isRecomputable(Op, Budget); });
  }

  /// A copy of recomputable \p V (its operands copied too) before \p At.
  Value *recompute(Value *V, Instruction *At) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == Prologue)
      return V;
    Instruction *Copy = I->clone();
    for (Use &Op : Copy->operands())
      Op.set(recompute(Op.get(), At));
    Copy->insertBefore(At->getIterator());
    return Copy;
  }

  /// Backward liveness of one SSA value: walk from its uses towards its
  /// definition; meeting a barrier block on the way means it is live there.
  bool isLiveAtABarrier(Instruction &I) {
    BasicBlock *Def = I.getParent();
    SmallVector<BasicBlock *, 16> Work;
    for (Use &U : I.uses()) {
      auto *User = cast<Instruction>(U.getUser());
      // A PHI uses the value at the end of the incoming block.
      BasicBlock *At = isa<PHINode>(User)
                           ? cast<PHINode>(User)->getIncomingBlock(U)
                           : User->getParent();
      if (At != Def)
        Work.push_back(At);
    }
    DenseSet<BasicBlock *> Seen;
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Def || !Seen.insert(BB).second)
        continue;
      if (BarrierBlocks.count(BB))
        return true;
      for (BasicBlock *Pred : predecessors(BB))
        Work.push_back(Pred);
    }
    return false;
  }

  /// With barriers, an alloca whose memory may be live at a barrier gets a
  /// slot per work-item, structure of arrays: slot k of item w is at
  /// wi_state + offset_k * items + w * size_k. The others (and without
  /// barriers, all) stay allocas of the work-group function, scratch that
  /// each work-item reuses in turn: what one item leaves there is dead
  /// before the next item's sub-CFG starts, so once unrolling makes their
  /// indices constant SROA keeps them in registers. (AES's state arrays
  /// s[4] and t[4], indexed by the column loop and only used after the
  /// table-loading barrier, were slots: every round stored t to wi_state,
  /// reloaded it 16 bytes wide, a failed store forwarding, and reloaded s
  /// byte by byte; 0.97x PoCL's speed.)
  void layOutWorkItemState() {
    uint64_t Offset = 0;
    for (Instruction &I : *Prologue)
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !GroupSlots.count(AI)) {
        if (BarrierBlocks.empty() || isDeadAtEveryBarrier(*AI)) {
          Scratch.insert(AI);
          continue;
        }
        uint64_t Size = *AI->getAllocationSize(DL);
        // A slot is not an alloca, which lifetime markers must name; and a
        // slot lives as long as the group anyway.
        for (User *U : make_early_inc_range(AI->users()))
          if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
            II->eraseFromParent();
        Offset = alignTo(Offset, AI->getAlign().value());
        uint64_t Stride = Size;
        if (UniformlyIndexed.count(AI) &&
            isUniformlyIndexedArray(*AI, [](const Value *) { return true; }))
          Stride = layOutElementMajor(*AI);
        Slots.push_back({AI, Offset, Size, Stride});
        Offset += Size;
      }
    StateBytesPerItem = alignTo(Offset, 16);
  }

  /// Slot k holds its items' copies in Size * items bytes from
  /// offset_k * items; item w's copy starts Stride * w bytes in: Stride is
  /// Size (each item's copy in one piece) or, element-major, the size of
  /// one element.
  struct Slot {
    AllocaInst *AI;
    uint64_t Offset, Size, Stride;
  };

  /// Makes every access of uniformly indexed array \p AI address element
  /// e at e * items elements from the item's start, so that element e of
  /// item w lies at e * items + w: a work-item loop that the vectorizer
  /// widens across the items then loads and stores consecutive elements,
  /// where item-major copies (each item's array in one piece) are a gather
  /// and a scatter with the array's size as stride. (The Mersenne twister's
  /// 624-word state, read and written at the draw's uniform index: with
  /// implicit barriers in its draw loop, item-major copies ran 2.1x slower
  /// than none; element-major, the loop vectorized, 1.6x faster, on the
  /// 2-core VM.) Returns the stride between items' copies.
  uint64_t layOutElementMajor(AllocaInst &AI) {
    Type *ET = arrayElementType(AI);
    uint64_t Size = DL.getTypeAllocSize(ET);
    // Item w's copy starts w elements in: an access is aligned to no more
    // than an element (the array's own alignment, on element 0, no longer
    // holds).
    Align Aligned = commonAlignment(AI.getAlign(), Size);
    auto Realign = [&](User *Access) {
      if (auto *Load = dyn_cast<LoadInst>(Access))
        Load->setAlignment(std::min(Load->getAlign(), Aligned));
      else if (auto *Store = dyn_cast<StoreInst>(Access))
        Store->setAlignment(std::min(Store->getAlign(), Aligned));
    };
    for (User *U : make_early_inc_range(AI.users())) {
      auto *GEP = dyn_cast<GetElementPtrInst>(U);
      if (!GEP) {
        Realign(U); // Element 0, where it was.
        continue;
      }
      for (User *Access : GEP->users())
        Realign(Access);
      IRBuilder<> B(GEP);
      Value *Index = B.CreateSExtOrTrunc(arrayIndexOf(*GEP, AI, ET), I64);
      Value *Scaled = B.CreateMul(Index, NumItems, "", /*HasNUW=*/false,
                                  /*HasNSW=*/true);
      Value *New = B.CreateGEP(ET, &AI, Scaled, "", GEP->getNoWrapFlags());
      New->takeName(GEP);
      GEP->replaceAllUsesWith(New);
      GEP->eraseFromParent();
    }
    return Size;
  }

  /// Whether no barrier can see what \p AI holds: every path from a
  /// barrier to an access of its memory passes a lifetime.start of it,
  /// which makes the contents undefined. Memory reached by pointers this
  /// does not follow (stored, passed to a call) counts as live.
  bool isDeadAtEveryBarrier(AllocaInst &AI) {
    SmallVector<Instruction *, 16> Accesses;
    SmallPtrSet<Instruction *, 4> Starts;
    SmallVector<Value *, 8> Pointers = {&AI};
    SmallPtrSet<Value *, 16> SeenPointers = {&AI};
    while (!Pointers.empty()) {
      Value *P = Pointers.pop_back_val();
      for (User *U : P->users()) {
        auto *I = cast<Instruction>(U);
        if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
            isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
          if (SeenPointers.insert(I).second)
            Pointers.push_back(I);
        } else if (auto *II = dyn_cast<IntrinsicInst>(I);
                   II && II->isLifetimeStartOrEnd()) {
          if (II->getIntrinsicID() == Intrinsic::lifetime_start && P == &AI)
            Starts.insert(II);
        } else if (isa<LoadInst>(I) || isa<MemIntrinsic>(I) ||
                   (isa<StoreInst>(I) &&
                    cast<StoreInst>(I)->getValueOperand() != P)) {
          Accesses.push_back(I);
        } else {
          return false; // The address escapes.
        }
      }
    }
    if (Starts.empty())
      return false;
    // Backwards from each access; a block's end is reached once.
    DenseSet<BasicBlock *> Seen;
    SmallVector<BasicBlock *, 16> Work;
    auto StartsBefore = [&](BasicBlock::iterator It, BasicBlock *BB) {
      while (It != BB->begin())
        if (Starts.count(&*--It))
          return true;
      return false;
    };
    for (Instruction *Access : Accesses)
      if (!StartsBefore(Access->getIterator(), Access->getParent()))
        append_range(Work, predecessors(Access->getParent()));
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Prologue || !Seen.insert(BB).second)
        continue;
      if (BarrierBlocks.count(BB))
        return false;
      if (!StartsBefore(BB->end(), BB))
        append_range(Work, predecessors(BB));
    }
    return true;
  }

  /// Builds the work-item loops of every sub-CFG and the dispatch between
  /// them, then removes the original body.
  void formRegions() {
    std::vector<BasicBlock *> Entries = {Body.front()};
    std::map<BasicBlock *, unsigned> RegionOf;
    RegionOf[Body.front()] = 0;
    for (BasicBlock *B : BarrierBlocks) {
      BasicBlock *After = B->getSingleSuccessor();
      if (!RegionOf.count(After)) {
        RegionOf[After] = Entries.size();
        Entries.push_back(After);
      }
    }
    const unsigned Exit = Entries.size();

    Type *I32 = Type::getInt32Ty(Ctx);
    AllocaInst *Next = nullptr;
    if (Entries.size() > 1)
      Next = new AllocaInst(I32, 0, "skmd.next", Prologue->getTerminator()->getIterator());

    BasicBlock *ExitBB = BasicBlock::Create(Ctx, "exit", WG);
    ReturnInst::Create(Ctx, ExitBB);

    std::vector<BasicBlock *> Pre(Entries.size());
    for (unsigned R = 0; R < Entries.size(); ++R)
      Pre[R] = BasicBlock::Create(Ctx, "region" + std::to_string(R), WG);

    // Each snapshot slot's scratch copy, and the slot a copy stands for.
    DenseMap<AllocaInst *, AllocaInst *> CopyOf;
    DenseMap<Value *, AllocaInst *> SlotOfCopy;
    // In the prologue's order: a set of pointers iterates in an order
    // that changes from run to run, and so would the code.
    SmallVector<AllocaInst *, 4> InOrder;
    for (Instruction &I : *Prologue)
      if (auto *G = dyn_cast<AllocaInst>(&I); G && SnapshotSlots.count(G))
        InOrder.push_back(G);
    for (AllocaInst *G : InOrder) {
      auto *Copy = new AllocaInst(G->getAllocatedType(), G->getAddressSpace(),
                                  G->getName() + ".copy", Prologue->getTerminator()->getIterator());
      CopyOf[G] = Copy;
      SlotOfCopy[Copy] = G;
      Scratch.insert(Copy);
    }

    for (unsigned R = 0; R < Entries.size(); ++R) {
      // The blocks of this sub-CFG: reachable without crossing a barrier.
      std::vector<BasicBlock *> Blocks;
      DenseSet<BasicBlock *> Seen = {Entries[R]};
      SmallVector<BasicBlock *, 16> Work = {Entries[R]};
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        Blocks.push_back(BB);
        for (BasicBlock *S : successors(BB))
          if (!BarrierBlocks.count(S) && Seen.insert(S).second)
            Work.push_back(S);
      }

      // Loop nest z, y, x around the clone.
      std::string P = "r" + std::to_string(R) + ".";
      BasicBlock *HZ = BasicBlock::Create(Ctx, P + "z", WG);
      BasicBlock *HY = BasicBlock::Create(Ctx, P + "y", WG);
      BasicBlock *HX = BasicBlock::Create(Ctx, P + "x", WG);
      BasicBlock *LX = BasicBlock::Create(Ctx, P + "x.latch", WG);
      BasicBlock *LY = BasicBlock::Create(Ctx, P + "y.latch", WG);
      BasicBlock *LZ = BasicBlock::Create(Ctx, P + "z.latch", WG);
      BasicBlock *Done = BasicBlock::Create(Ctx, P + "done", WG);
      IRBuilder<> B(Pre[R]);
      B.CreateBr(HZ);
      B.SetInsertPoint(HZ);
      PHINode *Z = B.CreatePHI(I64, 2, P + "lid.z");
      B.CreateBr(HY);
      B.SetInsertPoint(HY);
      PHINode *Y = B.CreatePHI(I64, 2, P + "lid.y");
      B.CreateBr(HX);
      B.SetInsertPoint(HX);
      PHINode *X = B.CreatePHI(I64, 2, P + "lid.x");
      Value *Item = B.CreateAdd(
          B.CreateMul(B.CreateAdd(B.CreateMul(Z, LocalSize[1]), Y), LocalSize[0]),
          X, P + "item");
      // The work-item values inside this sub-CFG's loops.
      WorkItemGeometry Geometry;
      Value *Lid[3] = {X, Y, Z};
      for (unsigned D = 0; D < 3; ++D) {
        Geometry.Group[D] = Group[D];
        Geometry.LocalId[D] = Lid[D];
        Geometry.LocalSize[D] = LocalSize[D];
        Geometry.NumGroups[D] = NumGroups[D];
        Geometry.GlobalOffset[D] = Offset[D];
      }
      Geometry.WorkDim = WorkDim;

      // The snapshot slots this sub-CFG reads or writes: their values when
      // it begins, copied to each item's scratch at its start.
      ValueToValueMapTy VMap;
      for (BasicBlock *BB : Blocks)
        for (Instruction &I : *BB)
          if (auto *G = dyn_cast_or_null<AllocaInst>(getLoadStorePointerOperand(&I));
              G && SnapshotSlots.count(G) && !VMap.count(G)) {
            auto *Snap = new LoadInst(G->getAllocatedType(), G, G->getName() + ".at.r" + Twine(R),
                                      Pre[R]->getTerminator()->getIterator());
            B.CreateStore(Snap, CopyOf[G]);
            VMap[G] = CopyOf[G];
          }
      for (BasicBlock *BB : Blocks)
        VMap[BB] = CloneBasicBlock(BB, VMap, "." + P.substr(0, P.size() - 1), WG);
      // Per-work-item addresses of the state slots.
      for (const Slot &S : Slots) {
        Value *Base = B.CreateMul(NumItems, ConstantInt::get(I64, S.Offset));
        Value *Off = B.CreateAdd(Base, B.CreateMul(Item, ConstantInt::get(I64, S.Stride)));
        VMap[S.AI] = B.CreateInBoundsGEP(B.getInt8Ty(), WIState, Off,
                                         S.AI->getName() + ".item");
      }
      B.CreateBr(cast<BasicBlock>(VMap[Entries[R]]));

      DenseSet<BasicBlock *> Clones;
      for (BasicBlock *BB : Blocks)
        Clones.insert(cast<BasicBlock>(VMap[BB]));
      std::set<unsigned> NextIds;
      SmallVector<BasicBlock *, 4> Stubs;
      for (BasicBlock *BB : Blocks) {
        auto *Clone = cast<BasicBlock>(VMap[BB]);
        for (Instruction &I : *Clone)
          RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
        // A block shared with other sub-CFGs keeps only this one's edges.
        for (PHINode &Phi : Clone->phis())
          for (unsigned In = Phi.getNumIncomingValues(); In-- > 0;)
            if (!Clones.count(Phi.getIncomingBlock(In)))
              Phi.removeIncomingValue(In, /*DeletePHIIfEmpty=*/false);
        rewriteWorkItemCalls(*Clone, Geometry);
        // An item's writes of a snapshot slot reach the sub-CFGs after it
        // (every item that writes it writes the same value).
        for (Instruction &I : make_early_inc_range(*Clone))
          if (auto *Store = dyn_cast<StoreInst>(&I))
            if (auto It = SlotOfCopy.find(Store->getPointerOperand()); It != SlotOfCopy.end())
              new StoreInst(Store->getValueOperand(), It->second, std::next(I.getIterator()));
        // Leaving the sub-CFG: at a barrier or a return.
        Instruction *T = Clone->getTerminator();
        if (isa<ReturnInst>(T)) {
          NextIds.insert(Exit);
          exitTo(T, Exit, Next, LX);
          continue;
        }
        for (unsigned S = 0; S < T->getNumSuccessors(); ++S) {
          BasicBlock *Succ = T->getSuccessor(S);
          if (!BarrierBlocks.count(Succ))
            continue; // Inside the sub-CFG: remapped to its clone.
          // An edge into a barrier block of the original body.
          unsigned Id = RegionOf.at(Succ->getSingleSuccessor());
          NextIds.insert(Id);
          BasicBlock *Stub = BasicBlock::Create(Ctx, P + "to.region" + std::to_string(Id), WG);
          Stubs.push_back(Stub);
          Instruction *Br = BranchInst::Create(LX, Stub);
          if (Next)
            new StoreInst(ConstantInt::get(I32, Id), Next, Br->getIterator());
          T->setSuccessor(S, Stub);
        }
      }

      B.SetInsertPoint(LX);
      Value *X1 = B.CreateAdd(X, ConstantInt::get(I64, 1));
      Instruction *XBack =
          B.CreateCondBr(B.CreateICmpULT(X1, LocalSize[0]), HX, LY);
      markParallel(Clones, Stubs, XBack);
      B.SetInsertPoint(LY);
      Value *Y1 = B.CreateAdd(Y, ConstantInt::get(I64, 1));
      B.CreateCondBr(B.CreateICmpULT(Y1, LocalSize[1]), HY, LZ);
      B.SetInsertPoint(LZ);
      Value *Z1 = B.CreateAdd(Z, ConstantInt::get(I64, 1));
      B.CreateCondBr(B.CreateICmpULT(Z1, LocalSize[2]), HZ, Done);
      Z->addIncoming(ConstantInt::get(I64, 0), Pre[R]);
      Z->addIncoming(Z1, LZ);
      Y->addIncoming(ConstantInt::get(I64, 0), HZ);
      Y->addIncoming(Y1, LY);
      X->addIncoming(ConstantInt::get(I64, 0), HY);
      X->addIncoming(X1, LX);

      // After every work-item reached the barrier: the next sub-CFG.
      B.SetInsertPoint(Done);
      auto Target = [&](unsigned Id) { return Id == Exit ? ExitBB : Pre[Id]; };
      if (NextIds.size() == 1) {
        B.CreateBr(Target(*NextIds.begin()));
      } else {
        SwitchInst *SW = B.CreateSwitch(B.CreateLoad(I32, Next), ExitBB);
        for (unsigned Id : NextIds)
          if (Id != Exit)
            SW->addCase(ConstantInt::get(cast<IntegerType>(I32), Id), Pre[Id]);
      }
    }

    Prologue->getTerminator()->setSuccessor(0, Pre[0]);
    ExitBB->moveAfter(&WG->back());
    for (BasicBlock *BB : Body)
      BB->dropAllReferences();
    for (BasicBlock *BB : Body)
      BB->eraseFromParent();
    for (const Slot &S : Slots)
      S.AI->eraseFromParent();
  }

  /// Work-items between two barriers are independent (OpenCL makes a race
  /// between them undefined), so every memory access of the sub-CFG joins
  /// one access group and the x loop is declared parallel over it: the
  /// vectorizer then needs no dependence checks between work-items.
  void markParallel(const DenseSet<BasicBlock *> &Clones,
                    ArrayRef<BasicBlock *> Stubs, Instruction *XBackedge) {
    MDNode *Group = MDNode::getDistinct(Ctx, {});
    auto Mark = [&](BasicBlock *BB) {
      for (Instruction &I : *BB)
        if (I.mayReadOrWriteMemory() && !accessesScratch(I))
          I.setMetadata(LLVMContext::MD_access_group, Group);
    };
    for (BasicBlock *BB : Clones)
      Mark(BB);
    for (BasicBlock *BB : Stubs)
      Mark(BB);
    MDNode *Parallel = MDNode::get(
        Ctx, {MDString::get(Ctx, "llvm.loop.parallel_accesses"), Group});
    MDNode *LoopID = MDNode::getDistinct(Ctx, {nullptr, Parallel});
    LoopID->replaceOperandWith(0, LoopID);
    XBackedge->setMetadata(LLVMContext::MD_loop, LoopID);
  }

  /// Scratch allocas are one for all work-items, so their accesses do
  /// depend on the previous item's: they stay out of the parallel group,
  /// and a loop that still has them after SROA keeps the vectorizer's own
  /// dependence checks instead of widening one item's scratch into many.
  bool accessesScratch(const Instruction &I) {
    SmallVector<const Value *, 2> Pointers;
    if (const Value *P = getLoadStorePointerOperand(&I)) {
      Pointers.push_back(P);
    } else if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&I)) {
      for (const Use &Arg : MI->args())
        if (Arg->getType()->isPointerTy())
          Pointers.push_back(Arg);
    } else if (const auto *II = dyn_cast<IntrinsicInst>(&I);
               II && II->isLifetimeStartOrEnd()) {
      Pointers.push_back(II->getArgOperand(0));
    }
    for (const Value *P : Pointers) {
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(P, Objects, nullptr, /*MaxLookup=*/0);
      for (const Value *O : Objects)
        if (const auto *AI = dyn_cast<AllocaInst>(O); AI && Scratch.count(AI))
          return true;
    }
    return false;
  }

  void exitTo(Instruction *T, unsigned Id, AllocaInst *Next, BasicBlock *Latch) {
    if (Next)
      new StoreInst(ConstantInt::get(Type::getInt32Ty(Ctx), Id), Next, T->getIterator());
    BranchInst::Create(Latch, T->getIterator());
    T->eraseFromParent();
  }

  void rewriteWorkItemCalls(BasicBlock &BB, const WorkItemGeometry &G) {
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (isLocalOnlyFence(*CB)) {
        CB->eraseFromParent();
        continue;
      }
      auto Fn = workItemFnOf(*CB);
      if (!Fn)
        continue;
      IRBuilder<> B(CB);
      Value *New = expandWorkItemCall(B, *CB, *Fn, G);
      CB->replaceAllUsesWith(New);
      CB->eraseFromParent();
    }
  }

  Function &K;
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  Type *I64;
  Function *WG = nullptr;
  BasicBlock *Prologue = nullptr;
  Value *Group[3], *NumGroups[3], *LocalSize[3], *Offset[3];
  Value *WorkDim = nullptr, *LocalMem = nullptr, *WIState = nullptr,
        *NumItems = nullptr;
  std::vector<BasicBlock *> Body;
  SetVector<BasicBlock *> BarrierBlocks;
  std::vector<Slot> Slots;
  /// Demoted values the same for all work-items: they stay allocas of the
  /// work-group function, one per group.
  SmallPtrSet<AllocaInst *, 8> GroupSlots;
  /// The group slots a sub-CFG may read before it writes them (a barrier
  /// loop's counter, decremented in the latch that shares a sub-CFG with
  /// the header). Each work-item of such a sub-CFG starts from the value
  /// the slot held when the sub-CFG began (loaded before its work-item
  /// loops) in a scratch copy of its own, which it reads and writes; its
  /// writes also go to the slot, for the sub-CFGs after. So the counter is
  /// a register in each item's iteration, not a slot per item loaded and
  /// stored every step (binomial option's counter, reductions' strides).
  SmallPtrSet<AllocaInst *, 4> SnapshotSlots;
  /// Private variables dead at every barrier: allocas of the work-group
  /// function that each work-item reuses in turn.
  SmallPtrSet<const AllocaInst *, 8> Scratch;
  /// Private arrays every access of which is at a uniform index (decided
  /// before demotion, which turns uniform indices into loads of group
  /// slots): as slots, element-major.
  SmallPtrSet<const AllocaInst *, 4> UniformlyIndexed;
  /// Memory the group shares: the __global, __constant and __local buffer
  /// arguments as loaded in the prologue, and the group's __local memory.
  SmallPtrSet<const Value *, 8> SharedObjects;
  uint64_t LocalMemBytes = 0, StateBytesPerItem = 0;
};

} // namespace

bool isWorkItemLoop(const Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return false;
  for (const MDOperand &Op : llvm::drop_begin(ID->operands()))
    if (auto *Opt = dyn_cast<MDNode>(Op))
      if (auto *Name = dyn_cast<MDString>(Opt->getOperand(0)))
        if (Name->getString() == "llvm.loop.parallel_accesses")
          return true;
  return false;
}

bool isUniformlyIndexedArray(const AllocaInst &AI,
                             function_ref<bool(const Value *)> IsUniform) {
  Type *ET = arrayElementType(AI);
  if (!ET)
    return false;
  return llvm::all_of(AI.users(), [&](const User *U) {
    if (const auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      return true;
    if (isElementAccess(U, &AI, ET))
      return true;
    const auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP)
      return false;
    const Value *Index = arrayIndexOf(*GEP, AI, ET);
    return Index && IsUniform(Index) &&
           llvm::all_of(GEP->users(),
                        [&](const User *A) { return isElementAccess(A, GEP, ET); });
  });
}

PreservedAnalyses WorkGroupFunctionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Kernels;
  // The kernels as written, and their merge kernels, which the CPU runs to
  // merge a device's results.
  for (Function &F : M)
    if (isOpenCLKernel(F) &&
        (isOriginalKernel(F) ||
         F.getFnAttribute(RoleAttr).getValueAsString() == "merge") &&
        !M.getFunction(workGroupFunctionName(F.getName())))
      Kernels.push_back(&F);
  for (Function *K : Kernels)
    WorkGroupBuilder(*K).build();
  return Kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace skmd
