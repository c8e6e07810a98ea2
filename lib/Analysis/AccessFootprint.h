//===- AccessFootprint.h - Bytes each work-group touches ---------*- C++ -*-===//
//
// The SKMD paper's affine index analysis, generalized (section 3.2). Every
// load and store to a __global or __constant buffer gets its byte offset as
// a polynomial, through ScalarEvolution, over
//   - work-item values: local_id.d, group.d, local_size.d, num_groups.d,
//     global_offset.d (get_global_id and friends are expanded into these);
//   - loop counters loop.k in [0, trip_k), with trip_k from the loop's
//     backedge-taken count;
//   - integer kernel arguments arg.i.
// An offset affine in local_id and loop counters is a lattice box of bytes
// per group; anything else (an index loaded from memory, a non-affine
// expression, an unknown trip count) makes the whole buffer the footprint.
//
// Each buffer and the kernel are then classified: contiguous when, for every
// launch, consecutive groups touch consecutive ranges (reads may overlap,
// writes must tile exactly), proven symbolically; else contiguous when the
// local size is 1 in y and z; else not. reqd_work_group_size is used.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='print<skmd-access>' -disable-output kernel.ll
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_ACCESSFOOTPRINT_H
#define SKMD_ANALYSIS_ACCESSFOOTPRINT_H

#include "Analysis/AffinePolynomial.h"
#include "footprint/Footprint.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// A value a guard's arithmetic is exact for only while it stays in the
/// range of its type: Bits wide, Signed or not.
struct RangeCheck {
  Polynomial Value;
  unsigned Bits = 64;
  bool Signed = true;
};

/// A condition Value < 0 that holds wherever a guarded access happens,
/// valid where every check holds (the kernel computes the compared values
/// in fixed-width integers; the polynomial does not wrap).
struct GuardCondition {
  Polynomial Value;
  std::vector<RangeCheck> Checks;
};

struct AnalyzedAccess {
  const llvm::Instruction *Inst = nullptr;
  bool Reads = false;
  bool Writes = false;
  uint64_t Bytes = 0;
  Polynomial Offset;
  bool Guarded = false;
  /// For a guarded access that happens exactly when its offset is below
  /// this many bytes (`if (i < n) out[i] = ...`): the bound, over launch
  /// values only.
  std::optional<Polynomial> Below;
  /// Of a guarded access: conditions that hold wherever it happens, each a
  /// polynomial P with P < 0, affine in the index variables (`row > t`
  /// gives t - row < 0). The runtime narrows the footprint with them.
  std::vector<GuardCondition> Guards;
};

struct BufferAccessInfo {
  unsigned ArgNo = 0;
  std::string Name;
  bool Whole = false;
  std::string WholeReason;
  Contiguity Contiguous = Contiguity::No;
  std::vector<AnalyzedAccess> Accesses;
};

struct KernelAccessInfo {
  AtomTable Atoms;
  /// Passes of each loop.k as the runtime evaluates them (safe when the
  /// loop is skipped), and as the contiguity proof uses them.
  std::vector<Polynomial> LoopTrips;
  std::vector<Polynomial> LoopTripsIfEntered;
  /// How many dimensions the kernel's work-item calls use (1 to 3).
  unsigned Dimensions = 1;
  std::vector<BufferAccessInfo> Buffers;
  Contiguity Contiguous = Contiguity::No;

  /// The form stored in the bundle and evaluated by the runtime.
  KernelFootprint toFootprint() const;
};

struct AccessFootprintResult {
  llvm::MapVector<const llvm::Function *, KernelAccessInfo> Kernels;
  void print(llvm::raw_ostream &OS) const;
};

class AccessFootprintAnalysis
    : public llvm::AnalysisInfoMixin<AccessFootprintAnalysis> {
public:
  using Result = AccessFootprintResult;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<AccessFootprintAnalysis>;
  static llvm::AnalysisKey Key;
};

class AccessFootprintPrinterPass
    : public llvm::PassInfoMixin<AccessFootprintPrinterPass> {
public:
  explicit AccessFootprintPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace skmd

#endif // SKMD_ANALYSIS_ACCESSFOOTPRINT_H
