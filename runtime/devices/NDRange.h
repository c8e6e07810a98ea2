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

/// What a partition-ready kernel (and a merge kernel built from one) takes
/// after the kernel's own arguments, as `ulong`s: the first flattened
/// group it runs, the real grid's groups per dimension, its global offset
/// (lib/Transforms/PartitionReadyKernel.h).
inline std::array<uint64_t, 7> partitionReadyArgs(const NDRange &R, uint64_t First) {
  return {First,           R.NumGroups[0],    R.NumGroups[1],   R.NumGroups[2],
          R.GlobalOffset[0], R.GlobalOffset[1], R.GlobalOffset[2]};
}

} // namespace skmd

#endif // SKMD_DEVICES_NDRANGE_H
