//===- WorkItemUniformity.h - Values the same for a whole group --*- C++ -*-===//
//
// Whether a value is the same for every work-item of a group: built from
// constants, kernel arguments, the group's launch values (group id, sizes,
// offsets) and, through loop headers, induction variables of loops every
// work-item leaves at the same iteration. Optimistic on cycles, conservative
// elsewhere: anything loaded, any call but a uniform work-item function,
// and any value merging paths other than a loop's back edge, varies; so do
// the values of a loop work-items may leave at different iterations.
// Computed as the least fixed point of "varying" from those seeds.
//
// Used where SKMD changes how work-items are scheduled: a uniform loop may
// get barriers (ImplicitLoopBarriers), a uniform value live at a barrier
// needs one slot per group, not one per work-item (WorkGroupFunction).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_WORKITEMUNIFORMITY_H
#define SKMD_ANALYSIS_WORKITEMUNIFORMITY_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"

#include <functional>

namespace skmd {

class WorkItemUniformity {
public:
  /// \p KnownUniform, when given, vouches for instructions the analysis
  /// could not see through (a work-group function's prologue loads).
  WorkItemUniformity(
      const llvm::Function &F, const llvm::LoopInfo &LI,
      std::function<bool(const llvm::Instruction &)> KnownUniform = {});

  bool isUniform(const llvm::Value *V) const;

  /// Whether every work-item leaves \p L at the same iteration.
  bool hasUniformExits(const llvm::Loop &L) const;

private:
  /// Varying from the start: what does not only combine other values.
  bool variesByItself(const llvm::Instruction &I) const;

  const llvm::LoopInfo &LI;
  std::function<bool(const llvm::Instruction &)> KnownUniform;
  llvm::DenseSet<const llvm::Instruction *> Varying;
};

/// print<skmd-uniformity>: for each kernel, every named value and each
/// loop (uniform exits or not), in program order.
class WorkItemUniformityPrinterPass
    : public llvm::PassInfoMixin<WorkItemUniformityPrinterPass> {
public:
  explicit WorkItemUniformityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace skmd

#endif // SKMD_ANALYSIS_WORKITEMUNIFORMITY_H
