//===- Partitionability.h - May a kernel's groups be split? ------*- C++ -*-===//
//
// Decides, per kernel, whether its work-groups may run on different devices
// with separate memories, and says why not:
//   - atomics on a __global buffer, unless they are all one commutative
//     integer update whose result is unused and nothing else touches the
//     buffer: then its devices' copies are combined (Combined);
//   - communication between groups the footprints cannot rule out: a
//     buffer read at addresses the work-item does not itself write, while
//     some group writes it. Where the buffer's footprint is affine this is
//     not a reason but a test at launch (LaunchTested): the runtime
//     evaluates, with the scalar arguments' values and the plan's ranges,
//     whether a piece reads bytes another piece writes;
//   - a written buffer without an affine footprint and no merge kernel
//     (its reason, e.g. control flow on values read from an output, comes
//     from skmd-merge-kernel);
//   - a transform that could not make the partition-ready variant.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='skmd-partition-ready,skmd-merge-kernel,print<skmd-partition>'
//       -disable-output kernel.ll
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_PARTITIONABILITY_H
#define SKMD_ANALYSIS_PARTITIONABILITY_H

#include "bundle/Metadata.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace skmd {

struct PartitionVerdict {
  bool Partitionable = true;
  std::vector<std::string> Reasons;
  /// Buffers (argument numbers) whose independence between groups the
  /// runtime tests at launch.
  std::vector<unsigned> LaunchTested;
  /// Buffers only commutative integer atomics update, and how their
  /// devices' copies combine.
  std::vector<CombinedArg> Combined;
};

struct PartitionabilityResult {
  llvm::MapVector<const llvm::Function *, PartitionVerdict> Kernels;
  void print(llvm::raw_ostream &OS) const;
};

class PartitionabilityAnalysis
    : public llvm::AnalysisInfoMixin<PartitionabilityAnalysis> {
public:
  using Result = PartitionabilityResult;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<PartitionabilityAnalysis>;
  static llvm::AnalysisKey Key;
};

class PartitionabilityPrinterPass
    : public llvm::PassInfoMixin<PartitionabilityPrinterPass> {
public:
  explicit PartitionabilityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace skmd

#endif // SKMD_ANALYSIS_PARTITIONABILITY_H
