//===- Bound.h - The least time any split of a launch could take -*- C++ -*-===//
//
// How close a plan is to what the hardware allows: from the same kernel
// models and measured links the partitioner uses, the least time in which
// any split of the launch's groups over the devices could finish, if
//
//   - each device ran its share at its kernel's rate with its copies in
//     and out running at the same time as the kernel and as each other
//     (a perfect pipeline): a device's share takes the longest of its
//     kernel, its inputs and its outputs, at its link's DMA rate;
//   - every device together moved no more bytes through host memory than
//     it sustains (the host's measured memcpy rate, counting a read and a
//     write per byte copied): a byte the CPU reads or writes costs one, a
//     byte a GPU copies by DMA one, and a pageable byte staged through
//     page-locked memory two (the staging copy's side in the user's
//     memory and the chunk's write-back; the chunk itself stays in cache).
//
// The bound is reached by no real plan (pipelines fill and drain, kernels
// on the host's cores and copies slow each other); a plan's time over it
// says how much is left. Solved by bisection on the time: at a time T each
// device takes at most the groups it finishes within T, the devices that
// cost host memory least first (a fractional knapsack, exact for costs
// linear in the groups), and T is feasible when every group is taken
// within the host's bytes.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_BOUND_H
#define SKMD_PLANNING_BOUND_H

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace skmd {

/// One device's costs for a share of n groups (called with n > 0).
struct BoundDevice {
  std::string Name;
  /// Its kernel alone, on the whole device.
  std::function<double(uint64_t)> KernelMs;
  /// Its copies at the DMA rate of its link; null for a device on host
  /// memory.
  std::function<double(uint64_t)> InputMs, OutputMs;
  /// Bytes read plus written in host memory for its share; null: none
  /// counted.
  std::function<double(uint64_t)> HostBytes;
};

struct BoundProblem {
  uint64_t TotalGroups = 0;
  std::vector<BoundDevice> Devices;
  /// Bytes host memory sustains per ms, read and written together.
  double HostBytesPerMs = INFINITY;
};

struct BoundResult {
  double Ms = 0;
  /// A split that reaches it (per device).
  std::vector<uint64_t> Groups;
  /// What holds it there: "host memory", or per device in use its
  /// longest part ("gpu0 input", "cpu kernel"), comma-separated.
  std::string Limit;
};

BoundResult launchBound(const BoundProblem &P);

} // namespace skmd

#endif // SKMD_PLANNING_BOUND_H
