//===- WorkItemUniformity.h - Values the same for a whole group --*- C++ -*-===//
//
// Whether a value is the same for every work-item of a group: built from
// constants, kernel arguments, the group's launch values (group id, sizes,
// offsets) and, through loop headers, induction variables of loops every
// work-item leaves at the same iteration. Optimistic on cycles, conservative
// elsewhere: anything loaded, any call but a uniform work-item function,
// and any value merging paths other than a loop's back edge, varies.
//
// Used where SKMD changes how work-items are scheduled: a uniform loop may
// get barriers (ImplicitLoopBarriers), a uniform value live at a barrier
// needs one slot per group, not one per work-item (WorkGroupFunction).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_WORKITEMUNIFORMITY_H
#define SKMD_ANALYSIS_WORKITEMUNIFORMITY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instruction.h"

#include <functional>

namespace skmd {

class WorkItemUniformity {
public:
  /// \p KnownUniform, when given, vouches for instructions the analysis
  /// could not see through (a work-group function's prologue loads).
  explicit WorkItemUniformity(
      const llvm::LoopInfo &LI,
      std::function<bool(const llvm::Instruction &)> KnownUniform = {})
      : LI(LI), KnownUniform(std::move(KnownUniform)) {}

  bool isUniform(const llvm::Value *V);

  /// Whether every work-item leaves \p L at the same iteration.
  bool hasUniformExits(const llvm::Loop &L);

private:
  bool compute(const llvm::Instruction &I);
  bool allOperandsUniform(const llvm::Instruction &I);

  const llvm::LoopInfo &LI;
  std::function<bool(const llvm::Instruction &)> KnownUniform;
  llvm::DenseMap<const llvm::Instruction *, bool> Known;
};

} // namespace skmd

#endif // SKMD_ANALYSIS_WORKITEMUNIFORMITY_H
