//===- PartitionReadyKernel.cpp - Kernels that run any group range --------===//
#include "Transforms/PartitionReadyKernel.h"
#include "Support/KernelCloning.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

std::string rangeVariantName(StringRef Kernel) {
  return (Kernel + "__skmd_range").str();
}
std::string guardVariantName(StringRef Kernel) {
  return (Kernel + "__skmd_guard").str();
}
std::string boxVariantName(StringRef Kernel) {
  return (Kernel + "__skmd_box").str();
}

namespace {

/// size_t as the kernel's own work-item calls use it (64-bit on every SKMD
/// target).
Type *sizeType(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto Fn = workItemFnOf(*CB); Fn && *Fn != WorkItemFn::WorkDim)
        return CB->getType();
  return Type::getInt64Ty(F.getContext());
}

std::vector<ExtraArg> rangeArgs(Type *SizeTy) {
  std::vector<ExtraArg> Args;
  for (const char *Name :
       {"skmd_first_group", "skmd_num_groups_x", "skmd_num_groups_y",
        "skmd_num_groups_z", "skmd_global_offset_x", "skmd_global_offset_y",
        "skmd_global_offset_z", "skmd_groups_x_magic", "skmd_groups_y_magic",
        "skmd_work_dim"})
    Args.push_back({SizeTy, Name, 0, "ulong"});
  return Args;
}

std::vector<ExtraArg> boxArgs(Type *SizeTy) {
  std::vector<ExtraArg> Args;
  for (const char *Name :
       {"skmd_group_base_x", "skmd_group_base_y", "skmd_group_base_z", "skmd_id_base_x",
        "skmd_id_base_y", "skmd_id_base_z", "skmd_num_groups_x", "skmd_num_groups_y",
        "skmd_num_groups_z", "skmd_work_dim"})
    Args.push_back({SizeTy, Name, 0, "ulong"});
  return Args;
}

/// The remapped work-item functions: those that depend on the grid, and
/// get_work_dim, which the launch (1-D for the range form, any shape for a
/// box; CUDA records none) does not give.
SmallVector<CallBase *, 16> gridDependentCalls(Function &F) {
  SmallVector<CallBase *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto Fn = workItemFnOf(*CB))
        if (*Fn == WorkItemFn::GroupId || *Fn == WorkItemFn::GlobalId ||
            *Fn == WorkItemFn::NumGroups || *Fn == WorkItemFn::GlobalSize ||
            *Fn == WorkItemFn::GlobalOffset || *Fn == WorkItemFn::GlobalLinearId ||
            *Fn == WorkItemFn::WorkDim)
          Calls.push_back(CB);
  return Calls;
}

/// The real launch's work_dim from its hidden word, where the body starts,
/// if one of \p Calls asks for it.
Value *workDimFrom(IRBuilder<> &B, Value *Word, ArrayRef<CallBase *> Calls) {
  if (none_of(Calls, [](CallBase *CB) { return workItemFnOf(*CB) == WorkItemFn::WorkDim; }))
    return nullptr;
  return B.CreateTrunc(Word, B.getInt32Ty(), "skmd.work_dim");
}

/// Moves \p F's allocas to the top of its entry block, where passes expect
/// them, and returns the first instruction after them.
Instruction *afterAllocas(Function &F) {
  BasicBlock *Entry = &F.getEntryBlock();
  Instruction *Body = &*Entry->getFirstInsertionPt();
  for (Instruction &I : make_early_inc_range(*Entry))
    if (isa<AllocaInst>(I) && &I != Body)
      I.moveBefore(Body->getIterator());
  while (isa<AllocaInst>(Body))
    Body = Body->getNextNode();
  return Body;
}

/// floor(\p N / \p D) at \p B's insertion point, which ends in a new block:
/// for N < 2^32 the high half of Magic * N in two 32x32-bit multiplies
/// (Magic = ceil(2^64 / D), 0 for D = 1: runtime/devices/NDRange.h,
/// divisionMagic), else a division. New blocks go before \p Before.
Value *emitDivide(IRBuilder<> &B, Value *N, Value *D, Value *Magic, BasicBlock *Before,
                  const Twine &Name) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F->getContext();
  Type *Ty = N->getType();
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *ByMagic = BasicBlock::Create(Ctx, Name + ".by_magic", F, Before);
  BasicBlock *ByDivision = BasicBlock::Create(Ctx, Name + ".by_division", F, Before);
  BasicBlock *Done = BasicBlock::Create(Ctx, Name + ".done", F, Before);
  B.SetInsertPoint(From);
  B.CreateCondBr(B.CreateICmpULT(N, ConstantInt::get(Ty, uint64_t(1) << 32), Name + ".fits_32"),
                 ByMagic, ByDivision);

  B.SetInsertPoint(ByMagic);
  // Both products of 32-bit halves fit in 64 bits, and so does their sum.
  Value *High = B.CreateMul(B.CreateLShr(Magic, 32), N, "", /*HasNUW=*/true);
  Value *Low =
      B.CreateLShr(B.CreateMul(B.CreateAnd(Magic, 0xffffffff), N, "", /*HasNUW=*/true), 32);
  Value *Quotient = B.CreateLShr(B.CreateAdd(High, Low, "", /*HasNUW=*/true), 32);
  Quotient = B.CreateSelect(B.CreateICmpEQ(Magic, ConstantInt::get(Ty, 0)), N, Quotient,
                            Name + ".multiplied");
  B.CreateBr(Done);

  B.SetInsertPoint(ByDivision);
  Value *Divided = B.CreateUDiv(N, D, Name + ".divided");
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  PHINode *P = B.CreatePHI(Ty, 2, Name);
  P->addIncoming(Quotient, ByMagic);
  P->addIncoming(Divided, ByDivision);
  return P;
}

/// Computes, at \p F's entry, the real group of this launched group into
/// \p G.Group: flat = first + launched, then x fastest, as flattening
/// numbers groups. Returns the block where the kernel's body now starts.
/// On a GPU a division by a run-time value costs every work-item tens of
/// instructions: with two for every 2-D group past the first row, the
/// range form of Sobel, median filter and FDTD3d ran 16-25% slower than
/// the kernels as written on the H100 and H200 hosts
/// (docs/results/paper-apps.md). So none in the first row of groups
/// (every group of a 1-D launch); past it, rows = flat / num_groups_x, by
/// multiplying with the magic number the runtime passes; past the first
/// plane (a 3-D launch's z), the row divided by num_groups_y the same way.
BasicBlock *emitRealGroup(Function &F, Value *First, Value *const NumGroups[3],
                          Value *const Magic[2], Type *SizeTy, WorkItemGeometry &G) {
  BasicBlock *Entry = &F.getEntryBlock();
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Join = Entry->splitBasicBlock(afterAllocas(F), "skmd.real_group");
  BasicBlock *PastRow = BasicBlock::Create(Ctx, "skmd.past_first_row", &F, Join);
  BasicBlock *PastPlane = BasicBlock::Create(Ctx, "skmd.past_first_plane", &F, Join);
  Entry->getTerminator()->eraseFromParent();
  IRBuilder<> B(Entry);
  Value *Launched = emitWorkItemCall(B, WorkItemFn::GroupId, SizeTy, 0);
  Value *Flat = B.CreateAdd(First, Launched, "skmd.flat_group");
  B.CreateCondBr(B.CreateICmpULT(Flat, NumGroups[0], "skmd.in_first_row"), Join,
                 PastRow);

  B.SetInsertPoint(PastRow);
  Value *Rows = emitDivide(B, Flat, NumGroups[0], Magic[0], PastPlane, "skmd.rows");
  Value *X = B.CreateSub(Flat, B.CreateMul(Rows, NumGroups[0]), "skmd.column");
  BasicBlock *RowDone = B.GetInsertBlock();
  B.CreateCondBr(B.CreateICmpULT(Rows, NumGroups[1], "skmd.in_first_plane"), Join,
                 PastPlane);

  B.SetInsertPoint(PastPlane);
  Value *Z = emitDivide(B, Rows, NumGroups[1], Magic[1], Join, "skmd.planes");
  Value *Y = B.CreateSub(Rows, B.CreateMul(Z, NumGroups[1]), "skmd.row_in_plane");
  BasicBlock *PlaneDone = B.GetInsertBlock();
  B.CreateBr(Join);

  B.SetInsertPoint(Join, Join->getFirstInsertionPt());
  Value *Zero = ConstantInt::get(SizeTy, 0);
  // Per dimension: in the first row, past it in the first plane, past that.
  Value *Incoming[3][3] = {{Flat, X, X}, {Zero, Rows, Y}, {Zero, Zero, Z}};
  BasicBlock *From[3] = {Entry, RowDone, PlaneDone};
  const char *Names[3] = {"skmd.group_x", "skmd.group_y", "skmd.group_z"};
  for (unsigned D = 0; D < 3; ++D) {
    PHINode *P = B.CreatePHI(SizeTy, 3, Names[D]);
    for (unsigned W = 0; W < 3; ++W)
      P->addIncoming(Incoming[D][W], From[W]);
    G.Group[D] = P;
  }
  return Join;
}

/// Remaps the clone's work-item functions onto the real grid.
void remapToRealGrid(Function &F, Type *SizeTy) {
  SmallVector<CallBase *, 16> Calls = gridDependentCalls(F);
  unsigned N = F.arg_size();
  // The hidden arguments, in rangeArgs' order.
  auto Hidden = [&](unsigned I) { return F.getArg(N - RangeHiddenArgs + I); };
  Value *First = Hidden(0);
  Value *NumGroups[3] = {Hidden(1), Hidden(2), Hidden(3)};
  Value *Offset[3] = {Hidden(4), Hidden(5), Hidden(6)};
  Value *Magic[2] = {Hidden(7), Hidden(8)};

  WorkItemGeometry G;
  BasicBlock *Body = emitRealGroup(F, First, NumGroups, Magic, SizeTy, G);
  IRBuilder<> B(Body, Body->getFirstInsertionPt());
  G.WorkDim = workDimFrom(B, Hidden(9), Calls);
  for (unsigned D = 0; D < 3; ++D) {
    // The launch keeps the kernel's local size, so these stay as they are.
    G.LocalSize[D] = emitWorkItemCall(B, WorkItemFn::LocalSize, SizeTy, D);
    G.LocalId[D] = emitWorkItemCall(B, WorkItemFn::LocalId, SizeTy, D);
    G.NumGroups[D] = NumGroups[D];
    G.GlobalOffset[D] = Offset[D];
  }

  for (CallBase *CB : Calls) {
    B.SetInsertPoint(CB);
    Value *New = expandWorkItemCall(B, *CB, *workItemFnOf(*CB), G);
    if (!New->hasName())
      New->takeName(CB);
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  }
}

/// Remaps the clone's work-item functions for a launch of a box of
/// groups: launched group g is real group g + group_base, its work-items'
/// global ids are g * local size + local id + id_base (id_base = group_base
/// * local size + global offset, from the runtime). Every work-item
/// computes what the kernel as written computes, and one add per
/// dimension: no branch, no division. The global offset, which kernels
/// seldom ask for, is id_base - group_base * local size.
void remapToBox(Function &F, Type *SizeTy) {
  SmallVector<CallBase *, 16> Calls = gridDependentCalls(F);
  unsigned N = F.arg_size();
  auto Hidden = [&](unsigned I) { return F.getArg(N - BoxHiddenArgs + I); };
  IRBuilder<> B(afterAllocas(F));
  WorkItemGeometry G;
  G.WorkDim = workDimFrom(B, Hidden(9), Calls);
  Value *GlobalId[3];
  const char *Dims[3] = {"x", "y", "z"};
  for (unsigned D = 0; D < 3; ++D) {
    Value *GroupBase = Hidden(D), *IdBase = Hidden(3 + D);
    Value *Launched = emitWorkItemCall(B, WorkItemFn::GroupId, SizeTy, D);
    // The launch keeps the kernel's local size.
    G.LocalSize[D] = emitWorkItemCall(B, WorkItemFn::LocalSize, SizeTy, D);
    G.LocalId[D] = emitWorkItemCall(B, WorkItemFn::LocalId, SizeTy, D);
    G.Group[D] = B.CreateAdd(Launched, GroupBase, Twine("skmd.group_") + Dims[D]);
    G.NumGroups[D] = Hidden(6 + D);
    G.GlobalOffset[D] = B.CreateSub(IdBase, B.CreateMul(GroupBase, G.LocalSize[D]),
                                    Twine("skmd.global_offset_") + Dims[D]);
    GlobalId[D] = B.CreateAdd(B.CreateAdd(B.CreateMul(Launched, G.LocalSize[D]), G.LocalId[D]),
                              IdBase, Twine("skmd.global_id_") + Dims[D]);
  }
  Value *Zero = ConstantInt::get(SizeTy, 0);
  for (CallBase *CB : Calls) {
    B.SetInsertPoint(CB);
    WorkItemFn Fn = *workItemFnOf(*CB);
    // Global ids from the launched group, not by expandWorkItemCall's
    // definition from the real one, which would add group_base * local
    // size and take it away again in the offset.
    Value *New = Fn == WorkItemFn::GlobalId
                     ? B.CreateZExtOrTrunc(
                           selectByDimension(B, CB->getArgOperand(0), GlobalId, Zero),
                           CB->getType())
                     : expandWorkItemCall(B, *CB, Fn, G);
    if (!New->hasName())
      New->takeName(CB);
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  }
}

/// The paper's form: return at once unless this group is in the range.
void insertGuard(Function &F, Type *SizeTy) {
  unsigned N = F.arg_size();
  Value *First = F.getArg(N - 2);
  Value *Count = F.getArg(N - 1);

  BasicBlock *OldEntry = &F.getEntryBlock();
  BasicBlock *Check =
      BasicBlock::Create(F.getContext(), "skmd.guard", &F, OldEntry);
  BasicBlock *Skip = BasicBlock::Create(F.getContext(), "skmd.skip", &F);
  // Allocas stay in the entry block, where passes expect them.
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (isa<AllocaInst>(I))
      I.moveBefore(*Check, Check->end());
  IRBuilder<> B(Check);
  Value *G[3], *NG[3];
  for (unsigned D = 0; D < 3; ++D) {
    G[D] = emitWorkItemCall(B, WorkItemFn::GroupId, SizeTy, D);
    NG[D] = emitWorkItemCall(B, WorkItemFn::NumGroups, SizeTy, D);
  }
  Value *Flat = B.CreateAdd(
      G[0], B.CreateMul(NG[0], B.CreateAdd(G[1], B.CreateMul(NG[1], G[2]))),
      "skmd.flat_group");
  // flat - first < count, unsigned: one compare covers both ends.
  Value *InRange =
      B.CreateICmpULT(B.CreateSub(Flat, First), Count, "skmd.in_range");
  B.CreateCondBr(InRange, OldEntry, Skip);
  ReturnInst::Create(F.getContext(), Skip);
}

} // namespace

Expected<PartitionForm> PartitionReadyKernelPass::parseForm(StringRef Params) {
  if (Params.empty() || Params == "exact")
    return PartitionForm::Exact;
  if (Params == "guard")
    return PartitionForm::Guard;
  if (Params == "box")
    return PartitionForm::Box;
  return createStringError(inconvertibleErrorCode(),
                           "skmd-partition-ready: unknown form '" + Params +
                               "' (use exact, guard or box)");
}

PreservedAnalyses PartitionReadyKernelPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isOriginalKernel(F))
      Kernels.push_back(&F);

  bool Changed = false;
  for (Function *K : Kernels) {
    StringRef Role = Form == PartitionForm::Exact ? "range"
                     : Form == PartitionForm::Box ? "box"
                                                  : "guard";
    if (findVariant(M, *K, Role))
      continue;
    Type *SizeTy = sizeType(*K);
    std::vector<ExtraArg> Extra;
    std::string Name;
    switch (Form) {
    case PartitionForm::Exact:
      Extra = rangeArgs(SizeTy);
      Name = rangeVariantName(K->getName());
      break;
    case PartitionForm::Box:
      Extra = boxArgs(SizeTy);
      Name = boxVariantName(K->getName());
      break;
    case PartitionForm::Guard:
      Extra = {{SizeTy, "skmd_first_group", 0, "ulong"}, {SizeTy, "skmd_group_count", 0, "ulong"}};
      Name = guardVariantName(K->getName());
      break;
    }
    Function *Clone = cloneKernelWithExtraArgs(*K, Name, Extra, Role);
    Changed = true;
    if (Form == PartitionForm::Guard) {
      insertGuard(*Clone, SizeTy);
      continue;
    }
    // Helpers may call work-item functions too: remap them all in one
    // function. A helper left behind would see the launched grid, so the
    // kernel is marked unpartitionable instead.
    if (!inlineAllCalls(*Clone)) {
      Clone->eraseFromParent();
      K->addFnAttr(UnpartitionableAttr, "a helper function could not be inlined");
      continue;
    }
    if (Form == PartitionForm::Exact)
      remapToRealGrid(*Clone, SizeTy);
    else
      remapToBox(*Clone, SizeTy);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
