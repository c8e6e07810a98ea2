//===- Footprint.h - The bytes each work-group touches -----------*- C++ -*-===//
//
// For each buffer argument, the compiler's access-footprint analysis records
// every load and store as an affine function of index variables:
//
//   offset = base + sum(coeff_v * v)  bytes,  for v in the variables:
//     local_id.d in [0, local_size.d)      (the work-item in its group)
//     loop.k     in [0, trip_k)            (a loop's iteration)
//     group.d    the group, from the flattened group id
//
// base, coeffs and trips are Exprs over launch values. A group's accesses
// then cover a lattice box of bytes; a range of groups, a few more boxes.
// The runtime turns these into copies (intervals, strided boxes) and knows,
// for each launch, exactly which bytes each device needs.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_FOOTPRINT_FOOTPRINT_H
#define SKMD_FOOTPRINT_FOOTPRINT_H

#include "footprint/IndexExpr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skmd {

enum class IndexVar { LocalId, Loop, Group };

struct AccessTerm {
  IndexVar Var = IndexVar::LocalId;
  unsigned Index = 0; ///< Dimension (local_id, group) or loop number.
  IndexExpr Coeff = IndexExpr::constant(0);
};

/// A value that must stay in the range of a Bits-wide integer type (Signed
/// or not) for a guard to be exact: Value + sum(coeff * var).
struct GuardRange {
  IndexExpr Value = IndexExpr::constant(0);
  std::vector<AccessTerm> Terms;
  unsigned Bits = 64;
  bool Signed = true;
};

/// A condition that holds wherever a guarded access happens:
/// Value + sum(coeff * var) < 0, over the access's index variables. It
/// holds only where every InRange value fits its type: the kernel computes
/// in fixed-width integers (`uint x = start + i; if (x < limit)` wraps),
/// the expression does not, so elsewhere the guard says nothing.
struct Guard {
  IndexExpr Value = IndexExpr::constant(0);
  std::vector<AccessTerm> Terms;
  std::vector<GuardRange> InRange;
};

struct Access {
  bool Reads = false;
  bool Writes = false;
  uint64_t Bytes = 0;    ///< Bytes touched per access.
  IndexExpr Base = IndexExpr::constant(0);
  std::vector<AccessTerm> Terms;
  /// The access sits under a condition, so not every variable value
  /// touches memory: the footprint is then an over-approximation.
  bool Guarded = false;
  /// Of a guarded access, when known: it happens exactly at the offsets
  /// below this many bytes (`if (i < n) out[i] = ...`), so its footprint
  /// below the bound is exact.
  std::optional<IndexExpr> Below;
  /// Of a guarded access: conditions it happens under (`if (row > t)`).
  /// Footprints keep only the variables' values that may satisfy them, so
  /// a guard may narrow, never widen, what an access touches.
  std::vector<Guard> Guards;
};

enum class FootprintKind {
  Affine, ///< Every access is described exactly (up to Guarded).
  Whole,  ///< Some address is unknown: a device needs the whole buffer.
};

/// How consecutive groups' footprints sit, as far as the compiler proved.
enum class Contiguity {
  Always,          ///< One interval per group range, for every launch.
  WhenYZGroupsFlat,///< ... when local_size(1) == local_size(2) == 1.
  No,              ///< Not proven: strided boxes or overlap.
};

std::string_view contiguityName(Contiguity C);
std::optional<Contiguity> contiguityFromName(std::string_view Name);

struct ArgFootprint {
  unsigned ArgIndex = 0;
  FootprintKind Kind = FootprintKind::Affine;
  std::string WholeReason; ///< Why, for Whole.
  Contiguity Contiguous = Contiguity::No;
  std::vector<Access> Accesses;
};

struct KernelFootprint {
  std::vector<IndexExpr> LoopTrips; ///< Iterations of loop.k.
  std::vector<ArgFootprint> Args;
  const ArgFootprint *find(unsigned ArgIndex) const;
};

/// A lattice box of bytes: Start + sum(i_j * Dims[j].first) + [0, Inner)
/// for i_j in [0, Dims[j].second). Strides are positive.
struct ByteBox {
  int64_t Start = 0;
  int64_t Inner = 0;
  std::vector<std::pair<int64_t, int64_t>> Dims; ///< (stride, count)
};

/// Sorted, disjoint, non-adjacent half-open intervals.
class IntervalSet {
public:
  void add(int64_t Lo, int64_t Hi);
  void add(const ByteBox &Box);
  void add(const IntervalSet &Other);
  const std::vector<std::pair<int64_t, int64_t>> &intervals() const {
    return Ranges;
  }
  int64_t bytes() const;
  bool operator==(const IntervalSet &O) const { return Ranges == O.Ranges; }
  /// Keeps only [Lo, Hi).
  void clamp(int64_t Lo, int64_t Hi);
  bool empty() const { return Ranges.empty(); }
  /// Removes every byte of \p Other.
  void subtract(const IntervalSet &Other);
  /// The bytes in both.
  static IntervalSet intersect(const IntervalSet &A, const IntervalSet &B);
  /// Whether every byte of \p Other is in this set.
  bool contains(const IntervalSet &Other) const;

private:
  /// Adds intervals sorted by their start, in one pass.
  void merge(const std::vector<std::pair<int64_t, int64_t>> &Sorted);

  std::vector<std::pair<int64_t, int64_t>> Ranges;
};

/// The boxes one argument's accesses cover in one group, given as
/// launch values with Group set.
Result<std::vector<ByteBox>> groupFootprint(const KernelFootprint &K,
                                            const ArgFootprint &Arg,
                                            const LaunchValues &Launch);

/// The boxes the groups [First, First + Count) cover together. Where an
/// access is affine in the group ids, whole runs of groups become one box;
/// otherwise groups are taken one by one.
Result<std::vector<ByteBox>> rangeFootprint(const KernelFootprint &K,
                                            const ArgFootprint &Arg,
                                            LaunchValues Launch,
                                            int64_t First, int64_t Count);

/// The group ids of flattened group \p Flat (x fastest).
std::array<int64_t, 3> unflattenGroup(int64_t Flat,
                                      const std::array<int64_t, 3> &NumGroups);

} // namespace skmd

#endif // SKMD_FOOTPRINT_FOOTPRINT_H
