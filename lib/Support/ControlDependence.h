//===- ControlDependence.h - The branches that decide whether a block runs -*- C++ -*-===//
#ifndef SKMD_SUPPORT_CONTROLDEPENDENCE_H
#define SKMD_SUPPORT_CONTROLDEPENDENCE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Function.h"

namespace skmd {

/// Whether every branch that decides whether \p BB runs has a condition
/// that \p Holds: branches of the blocks \p Considered, \p BB control
/// dependent on them directly or through other such branches (B depends on
/// X's branch if it post-dominates one successor of X but not X itself, or
/// X is B and loops back to it). A deciding terminator that is neither a
/// branch nor a switch fails. ImplicitLoopBarriers asks whether all
/// work-items run a loop (conditions uniform), WorkItemScalarizer whether a
/// work-item loop's access runs for every item (conditions loop invariant).
bool decidedOnlyBy(const llvm::BasicBlock &BB, const llvm::PostDominatorTree &PDT,
                   llvm::function_ref<bool(const llvm::BasicBlock &)> Considered,
                   llvm::function_ref<bool(const llvm::Value &)> Holds);

} // namespace skmd

#endif // SKMD_SUPPORT_CONTROLDEPENDENCE_H
