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
        "skmd_global_offset_z"})
    Args.push_back({SizeTy, Name, 0, "ulong"});
  return Args;
}

/// Remaps the clone's work-item functions onto the real grid.
void remapToRealGrid(Function &F, Type *SizeTy) {
  SmallVector<CallBase *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto Fn = workItemFnOf(*CB))
        if (*Fn == WorkItemFn::GroupId || *Fn == WorkItemFn::GlobalId ||
            *Fn == WorkItemFn::NumGroups || *Fn == WorkItemFn::GlobalSize ||
            *Fn == WorkItemFn::GlobalOffset ||
            *Fn == WorkItemFn::GlobalLinearId)
          Calls.push_back(CB);

  unsigned N = F.arg_size();
  Value *First = F.getArg(N - RangeHiddenArgs);
  Value *NumGroups[3] = {F.getArg(N - 6), F.getArg(N - 5), F.getArg(N - 4)};
  Value *Offset[3] = {F.getArg(N - 3), F.getArg(N - 2), F.getArg(N - 1)};

  // The real group of this launched group, computed once at entry:
  // flat = first + launched, then x fastest, as flattening numbers groups.
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Value *Launched = emitWorkItemCall(B, WorkItemFn::GroupId, SizeTy, 0);
  Value *Flat = B.CreateAdd(First, Launched, "skmd.flat_group");
  Value *Rest = B.CreateUDiv(Flat, NumGroups[0]);
  WorkItemGeometry G;
  G.Group[0] = B.CreateURem(Flat, NumGroups[0], "skmd.group_x");
  G.Group[1] = B.CreateURem(Rest, NumGroups[1], "skmd.group_y");
  G.Group[2] = B.CreateUDiv(Rest, NumGroups[1], "skmd.group_z");
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
  return createStringError(inconvertibleErrorCode(),
                           "skmd-partition-ready: unknown form '" + Params +
                               "' (use exact or guard)");
}

PreservedAnalyses PartitionReadyKernelPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isOriginalKernel(F))
      Kernels.push_back(&F);

  bool Changed = false;
  for (Function *K : Kernels) {
    bool Exact = Form == PartitionForm::Exact;
    StringRef Role = Exact ? "range" : "guard";
    if (findVariant(M, *K, Role))
      continue;
    Type *SizeTy = sizeType(*K);
    std::vector<ExtraArg> Extra =
        Exact ? rangeArgs(SizeTy)
              : std::vector<ExtraArg>{{SizeTy, "skmd_first_group", 0, "ulong"},
                                      {SizeTy, "skmd_group_count", 0, "ulong"}};
    Function *Clone = cloneKernelWithExtraArgs(
        *K, Exact ? rangeVariantName(K->getName()) : guardVariantName(K->getName()),
        Extra, Role);
    if (Exact) {
      // Helpers may call work-item functions too: remap them all in one
      // function. A helper left behind would see the launched grid, so
      // the kernel is marked unpartitionable instead.
      if (!inlineAllCalls(*Clone)) {
        Clone->eraseFromParent();
        K->addFnAttr(UnpartitionableAttr,
                     "a helper function could not be inlined");
        Changed = true;
        continue;
      }
      remapToRealGrid(*Clone, SizeTy);
    } else {
      insertGuard(*Clone, SizeTy);
    }
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
