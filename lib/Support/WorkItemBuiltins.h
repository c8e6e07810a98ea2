//===- WorkItemBuiltins.h - OpenCL work-item functions in IR -----*- C++ -*-===//
//
// Clang emits OpenCL's work-item functions as calls to their Itanium-mangled
// names (get_global_id -> _Z13get_global_idj) on every target, before any
// device library is linked. SKMD's passes recognize and build them here.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_WORKITEMBUILTINS_H
#define SKMD_SUPPORT_WORKITEMBUILTINS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <optional>

namespace skmd {

enum class WorkItemFn {
  GlobalId,
  LocalId,
  GroupId,
  GlobalSize,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  GlobalOffset,
  GlobalLinearId,
  LocalLinearId,
  WorkDim,
};

/// The work-item function a mangled name stands for.
std::optional<WorkItemFn> workItemFnFromName(llvm::StringRef MangledName);

/// The work-item function a call invokes, if any.
std::optional<WorkItemFn> workItemFnOf(const llvm::CallBase &Call);

llvm::StringRef mangledName(WorkItemFn Fn);

/// Whether \p I is barrier() or work_group_barrier().
bool isWorkGroupBarrier(const llvm::Instruction &I);

/// Emits barrier(\p Fences) before \p At (default CLK_LOCAL_MEM_FENCE),
/// declaring barrier (convergent) in the module if needed.
llvm::CallInst *emitBarrier(llvm::Instruction *At, uint32_t Fences = 1);
llvm::StringRef sourceName(WorkItemFn Fn);

/// Whether the function takes a dimension index argument.
bool takesDimension(WorkItemFn Fn);

/// Emits a call to \p Fn (with \p Dim if it takes one), declaring it in the
/// module if needed, with \p SizeTy as size_t.
llvm::CallInst *emitWorkItemCall(llvm::IRBuilderBase &B, WorkItemFn Fn,
                                 llvm::Type *SizeTy, unsigned Dim = 0);

/// Picks \p PerDim[Dim] for a dimension that may be known only at run time;
/// out-of-range dimensions give \p OutOfRange, as OpenCL specifies.
llvm::Value *selectByDimension(llvm::IRBuilderBase &B, llvm::Value *Dim,
                               llvm::ArrayRef<llvm::Value *> PerDim,
                               llvm::Value *OutOfRange);

/// The basic work-item values (size_t, per dimension) that every other
/// work-item function is defined from.
struct WorkItemGeometry {
  llvm::Value *Group[3];
  llvm::Value *LocalId[3];
  llvm::Value *LocalSize[3];
  llvm::Value *NumGroups[3];
  llvm::Value *GlobalOffset[3];
  llvm::Value *WorkDim = nullptr; ///< i32; null where it is not known.
};

/// Computes work-item function \p Fn, as \p Call asks for it, from \p G
/// by OpenCL's definitions (global id = group * local size + local id +
/// offset, ...), at \p B's insertion point, converted to the call's type.
/// Null for get_work_dim when G has no WorkDim.
llvm::Value *expandWorkItemCall(llvm::IRBuilderBase &B, const llvm::CallBase &Call,
                                WorkItemFn Fn, const WorkItemGeometry &G);

} // namespace skmd

#endif // SKMD_SUPPORT_WORKITEMBUILTINS_H
