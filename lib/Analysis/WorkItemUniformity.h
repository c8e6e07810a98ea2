//===- WorkItemUniformity.h - Values the same for a whole group --*- C++ -*-===//
//
// Whether a value is the same for every work-item of a group: built from
// constants, kernel arguments, the group's launch values (group id, sizes,
// offsets), loads from a uniform address in memory the group shares (a
// __global, __constant or __local buffer), calls of functions that compute
// from their operands alone (the builtins library's math) and, through loop headers,
// induction variables of loops every work-item leaves at the same
// iteration. Optimistic on cycles, conservative elsewhere: any other load
// (private memory, an address from an unknown object, volatile or atomic
// loads), any other call but a uniform work-item function, and any value merging
// paths other than a loop's back edge, varies; so do the values of a loop
// work-items may leave at different iterations. Computed as the least fixed
// point of "varying" from those seeds.
//
// A load from a uniform address in shared memory reads the same value in
// every work-item of a program without data races: between two barriers,
// no other work-item writes what every work-item reads (a kernel reading
// the bytes another work-item writes without a barrier between has no
// defined result in OpenCL C). A work-item reading its own write is the
// only other case, and then the load's branch runs in that work-item alone.
//
// Used where SKMD changes how work-items are scheduled: a uniform loop may
// get barriers (ImplicitLoopBarriers), a uniform value live at a barrier
// needs one slot per group, not one per work-item (WorkGroupFunction).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_WORKITEMUNIFORMITY_H
#define SKMD_ANALYSIS_WORKITEMUNIFORMITY_H

#include "llvm/ADT/DenseMap.h"
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
  /// Memory the group shares is \p F's __global, __constant and __local
  /// pointer arguments (kernel_arg_addr_space), its __local variables and
  /// constant globals, and the underlying objects \p SharedMemory, when
  /// given, names too (a work-group function's buffers, loaded in its
  /// prologue).
  WorkItemUniformity(
      const llvm::Function &F, const llvm::LoopInfo &LI,
      std::function<bool(const llvm::Instruction &)> KnownUniform = {},
      std::function<bool(const llvm::Value &)> SharedMemory = {});

  bool isUniform(const llvm::Value *V) const;

  /// Whether every work-item leaves \p L at the same iteration.
  bool hasUniformExits(const llvm::Loop &L) const;

private:
  /// Varying from the start: what does not only combine other values.
  bool variesByItself(const llvm::Instruction &I) const;
  /// Whether \p Object (an underlying object) is memory the group shares.
  bool isSharedMemory(const llvm::Value &Object) const;

  const llvm::Function &F;
  const llvm::LoopInfo &LI;
  std::function<bool(const llvm::Instruction &)> KnownUniform;
  std::function<bool(const llvm::Value &)> SharedMemory;
  llvm::DenseSet<const llvm::Instruction *> Varying;
  /// Callees known to compute from their operands alone, or not.
  mutable llvm::DenseMap<const llvm::Function *, bool> PureFunctions;
};

/// print<skmd-uniformity>: for each kernel, every value and each
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
