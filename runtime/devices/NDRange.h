//===- NDRange.h - A launch's geometry in work-groups ------------*- C++ -*-===//
//
// The real N-D grid of a launch, which every device's range of flattened
// groups refers to (flattened x fastest).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_NDRANGE_H
#define SKMD_DEVICES_NDRANGE_H

#include <array>
#include <cstdint>
#include <vector>

namespace skmd {

struct NDRange {
  uint32_t WorkDim = 1;
  std::array<uint64_t, 3> GlobalOffset{0, 0, 0};
  std::array<uint64_t, 3> NumGroups{1, 1, 1};
  std::array<uint64_t, 3> LocalSize{1, 1, 1};
  uint64_t totalGroups() const { return NumGroups[0] * NumGroups[1] * NumGroups[2]; }
};

/// ceil(2^64 / D) for D >= 2, 0 for D < 2: with it floor(N / D) for any
/// N < 2^32 is the high half of M * N (divideByMagic), two 32x32-bit
/// multiplies where a division by a run-time value costs a GPU's work-item
/// tens of instructions (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation", 2019: exact for 32-bit N and D).
inline uint64_t divisionMagic(uint64_t D) { return D < 2 ? 0 : UINT64_MAX / D + 1; }

/// floor(N / D) for N < 2^32 from M = divisionMagic(D), D >= 2: what the
/// partition-ready kernels compute (lib/Transforms/PartitionReadyKernel.cpp).
inline uint64_t divideByMagic(uint64_t N, uint64_t M) {
  return ((M >> 32) * N + (((M & 0xffffffff) * N) >> 32)) >> 32;
}

/// What a partition-ready kernel (and a merge kernel built from one) takes
/// after the kernel's own arguments, as `ulong`s: the first flattened
/// group it runs, the real grid's groups per dimension, its global offset,
/// divisionMagic of the groups in x and in y, and the work_dim
/// (lib/Transforms/PartitionReadyKernel.h).
inline std::array<uint64_t, 10> partitionReadyArgs(const NDRange &R, uint64_t First) {
  return {First,
          R.NumGroups[0],
          R.NumGroups[1],
          R.NumGroups[2],
          R.GlobalOffset[0],
          R.GlobalOffset[1],
          R.GlobalOffset[2],
          divisionMagic(R.NumGroups[0]),
          divisionMagic(R.NumGroups[1]),
          R.WorkDim};
}

/// One launch of a partition-ready kernel (lib/Transforms/
/// PartitionReadyKernel.h), with the kernel's local size.
struct RangeLaunch {
  /// Range: K__skmd_range, a 1-D grid of the flattened groups [First,
  /// First + Grid[0]). Box: K__skmd_box, launched as Grid, running the
  /// groups [Base, Base + Grid) of the real grid, whose first, flattened,
  /// is First.
  enum Form { Range, Box } F = Range;
  uint64_t First = 0;
  std::array<uint64_t, 3> Grid{0, 1, 1};
  std::array<uint64_t, 3> Base{0, 0, 0};

  uint64_t groups() const { return Grid[0] * Grid[1] * Grid[2]; }
};

/// What K__skmd_box takes after the kernel's own arguments for launch \p L
/// of \p R, as `ulong`s: the box's first group per dimension, the global
/// id of its first work-item's (local id 0) per dimension (the group times
/// the local size, plus the global offset), the real grid's groups per
/// dimension, and the work_dim.
inline std::array<uint64_t, 10> boxArgs(const NDRange &R, const RangeLaunch &L) {
  std::array<uint64_t, 10> Words{};
  for (unsigned D = 0; D < 3; ++D) {
    Words[D] = L.Base[D];
    Words[3 + D] = L.Base[D] * R.LocalSize[D] + R.GlobalOffset[D];
    Words[6 + D] = R.NumGroups[D];
  }
  Words[9] = R.WorkDim;
  return Words;
}

/// The hidden arguments of launch \p L of \p R, for its form.
inline std::array<uint64_t, 10> rangeLaunchArgs(const NDRange &R, const RangeLaunch &L) {
  return L.F == RangeLaunch::Box ? boxArgs(R, L) : partitionReadyArgs(R, L.First);
}

/// The most groups a launch may have per dimension (CUDA's: 2^31 - 1 in
/// x, 65535 in y and z).
struct GridLimits {
  std::array<uint64_t, 3> Max{0x7fffffff, 65535, 65535};
};

/// The launches that run the flattened groups [First, First + Count) of
/// \p R, in order. Without \p Boxes, range-form launches alone. With
/// them: in a 1-D grid, one box; else the whole rows go into one box: in
/// 2-D, all of them; in 3-D, whichever is largest of the whole planes, the
/// whole rows before the first of them (in one plane) and the whole rows
/// after the last. The groups before and after that box take a launch
/// each: a box where they lie in one row (a partial row), else the range
/// form (in 3-D, rows of two planes); without whole rows, a box for each
/// partial row. At most three launches, unless a launch would exceed
/// \p Limits, when it is split in its last dimension; every launch a box
/// in 1-D and 2-D.
std::vector<RangeLaunch> splitIntoLaunches(const NDRange &R, uint64_t First, uint64_t Count,
                                           bool Boxes, const GridLimits &Limits = {});

} // namespace skmd

#endif // SKMD_DEVICES_NDRANGE_H
