//===- WorkItemBuiltins.cpp - OpenCL work-item functions in IR ------------===//
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

namespace {

struct Entry {
  WorkItemFn Fn;
  StringRef Mangled;
  StringRef Source;
  bool HasDim;
};

constexpr Entry Table[] = {
    {WorkItemFn::GlobalId, "_Z13get_global_idj", "get_global_id", true},
    {WorkItemFn::LocalId, "_Z12get_local_idj", "get_local_id", true},
    {WorkItemFn::GroupId, "_Z12get_group_idj", "get_group_id", true},
    {WorkItemFn::GlobalSize, "_Z15get_global_sizej", "get_global_size", true},
    {WorkItemFn::LocalSize, "_Z14get_local_sizej", "get_local_size", true},
    {WorkItemFn::EnqueuedLocalSize, "_Z23get_enqueued_local_sizej",
     "get_enqueued_local_size", true},
    {WorkItemFn::NumGroups, "_Z14get_num_groupsj", "get_num_groups", true},
    {WorkItemFn::GlobalOffset, "_Z17get_global_offsetj", "get_global_offset",
     true},
    {WorkItemFn::GlobalLinearId, "_Z20get_global_linear_idv",
     "get_global_linear_id", false},
    {WorkItemFn::LocalLinearId, "_Z19get_local_linear_idv",
     "get_local_linear_id", false},
    {WorkItemFn::WorkDim, "_Z12get_work_dimv", "get_work_dim", false},
};

const Entry &entryFor(WorkItemFn Fn) {
  for (const Entry &E : Table)
    if (E.Fn == Fn)
      return E;
  llvm_unreachable("work-item function missing from the table");
}

} // namespace

std::optional<WorkItemFn> workItemFnFromName(StringRef MangledName) {
  for (const Entry &E : Table)
    if (E.Mangled == MangledName)
      return E.Fn;
  return std::nullopt;
}

std::optional<WorkItemFn> workItemFnOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  return workItemFnFromName(Callee->getName());
}

StringRef mangledName(WorkItemFn Fn) { return entryFor(Fn).Mangled; }

bool isWorkGroupBarrier(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  if (!F)
    return false;
  StringRef N = F->getName();
  return N == "_Z7barrierj" || N.starts_with("_Z18work_group_barrier");
}

CallInst *emitBarrier(Instruction *At, uint32_t Fences) {
  Module &M = *At->getModule();
  LLVMContext &C = M.getContext();
  FunctionCallee Barrier = M.getOrInsertFunction(
      "_Z7barrierj", FunctionType::get(Type::getVoidTy(C),
                                       {Type::getInt32Ty(C)}, false));
  if (auto *F = dyn_cast<Function>(Barrier.getCallee()))
    F->addFnAttr(Attribute::Convergent);
  auto *Call = CallInst::Create(
      Barrier, {ConstantInt::get(Type::getInt32Ty(C), Fences)}, "",
      At->getIterator());
  Call->addFnAttr(Attribute::Convergent);
  return Call;
}
StringRef sourceName(WorkItemFn Fn) { return entryFor(Fn).Source; }
bool takesDimension(WorkItemFn Fn) { return entryFor(Fn).HasDim; }

CallInst *emitWorkItemCall(IRBuilderBase &B, WorkItemFn Fn, Type *SizeTy,
                           unsigned Dim) {
  Module *M = B.GetInsertBlock()->getModule();
  LLVMContext &Ctx = M->getContext();
  const Entry &E = entryFor(Fn);
  Type *RetTy = Fn == WorkItemFn::WorkDim ? Type::getInt32Ty(Ctx) : SizeTy;
  SmallVector<Type *, 1> Params;
  if (E.HasDim)
    Params.push_back(Type::getInt32Ty(Ctx));
  FunctionCallee Callee =
      M->getOrInsertFunction(E.Mangled, FunctionType::get(RetTy, Params, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    // As Clang declares them: pure, and convergent like every builtin.
    F->setDoesNotAccessMemory();
    F->setDoesNotThrow();
    F->addFnAttr(Attribute::WillReturn);
    F->addFnAttr(Attribute::Convergent);
  }
  SmallVector<Value *, 1> Args;
  if (E.HasDim)
    Args.push_back(B.getInt32(Dim));
  CallInst *Call = B.CreateCall(Callee, Args, E.Source);
  Call->setDoesNotAccessMemory();
  Call->setConvergent();
  return Call;
}

Value *selectByDimension(IRBuilderBase &B, Value *Dim, ArrayRef<Value *> PerDim,
                         Value *OutOfRange) {
  if (auto *C = dyn_cast<ConstantInt>(Dim)) {
    uint64_t D = C->getZExtValue();
    return D < PerDim.size() ? PerDim[D] : OutOfRange;
  }
  Value *Result = OutOfRange;
  for (unsigned D = PerDim.size(); D-- > 0;)
    Result = B.CreateSelect(B.CreateICmpEQ(Dim, B.getInt32(D)), PerDim[D],
                            Result);
  return Result;
}

Value *expandWorkItemCall(IRBuilderBase &B, const CallBase &Call,
                          WorkItemFn Fn, const WorkItemGeometry &G) {
  Type *SizeTy = G.LocalSize[0]->getType();
  Value *Zero = ConstantInt::get(SizeTy, 0), *One = ConstantInt::get(SizeTy, 1);
  Value *Dim = takesDimension(Fn) ? Call.getArgOperand(0) : nullptr;
  auto GlobalId = [&](unsigned D) {
    return B.CreateAdd(B.CreateAdd(B.CreateMul(G.Group[D], G.LocalSize[D]),
                                   G.LocalId[D]),
                       G.GlobalOffset[D]);
  };
  auto GlobalSize = [&](unsigned D) {
    return B.CreateMul(G.NumGroups[D], G.LocalSize[D]);
  };
  Value *V = nullptr;
  switch (Fn) {
  case WorkItemFn::LocalId:
    V = selectByDimension(B, Dim, G.LocalId, Zero);
    break;
  case WorkItemFn::LocalSize:
  case WorkItemFn::EnqueuedLocalSize:
    V = selectByDimension(B, Dim, G.LocalSize, One);
    break;
  case WorkItemFn::GroupId:
    V = selectByDimension(B, Dim, G.Group, Zero);
    break;
  case WorkItemFn::NumGroups:
    V = selectByDimension(B, Dim, G.NumGroups, One);
    break;
  case WorkItemFn::GlobalOffset:
    V = selectByDimension(B, Dim, G.GlobalOffset, Zero);
    break;
  case WorkItemFn::GlobalId: {
    Value *Ids[3] = {GlobalId(0), GlobalId(1), GlobalId(2)};
    V = selectByDimension(B, Dim, Ids, Zero);
    break;
  }
  case WorkItemFn::GlobalSize: {
    Value *Sizes[3] = {GlobalSize(0), GlobalSize(1), GlobalSize(2)};
    V = selectByDimension(B, Dim, Sizes, One);
    break;
  }
  case WorkItemFn::GlobalLinearId:
  case WorkItemFn::LocalLinearId: {
    // ((z * size_y) + y) * size_x + x, ids without the global offset.
    bool Global = Fn == WorkItemFn::GlobalLinearId;
    V = Zero;
    for (int D = 2; D >= 0; --D)
      V = B.CreateAdd(
          B.CreateMul(V, Global ? GlobalSize(D) : G.LocalSize[D]),
          Global ? B.CreateAdd(B.CreateMul(G.Group[D], G.LocalSize[D]), G.LocalId[D])
                 : G.LocalId[D]);
    break;
  }
  case WorkItemFn::WorkDim:
    return G.WorkDim;
  }
  return B.CreateZExtOrTrunc(V, Call.getType());
}

} // namespace skmd
