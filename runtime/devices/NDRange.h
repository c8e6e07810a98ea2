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
/// and divisionMagic of the groups in x and in y
/// (lib/Transforms/PartitionReadyKernel.h).
inline std::array<uint64_t, 9> partitionReadyArgs(const NDRange &R, uint64_t First) {
  return {First,
          R.NumGroups[0],
          R.NumGroups[1],
          R.NumGroups[2],
          R.GlobalOffset[0],
          R.GlobalOffset[1],
          R.GlobalOffset[2],
          divisionMagic(R.NumGroups[0]),
          divisionMagic(R.NumGroups[1])};
}

} // namespace skmd

#endif // SKMD_DEVICES_NDRANGE_H
