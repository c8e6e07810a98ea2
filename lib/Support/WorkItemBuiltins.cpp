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

} // namespace skmd
