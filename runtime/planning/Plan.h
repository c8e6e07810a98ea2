//===- Plan.h - Which groups each device runs --------------------*- C++ -*-===//
//
// A plan names how the flattened groups of a launch are split, as a user
// writes it (skmd-run --plan, skmd_launch's plan string):
//
//   cpu, gpu0, discrete1, ...   everything on that one device
//   even                        equal shares for every device
//   proportional (default)      shares by each device's rough throughput
//                               (compute units; a GPU's SM counts as 32
//                               CPU cores), the rule used until the model
//                               partitioner (issue 6) picks plans; a device
//                               whose share would be under 5% gets none
//                               (it cannot gain more than its share, and
//                               its side costs copies and a thread)
//   manual:cpu=0.2,gpu0=0.8     the given shares (weights, normalized)
//   gpu0@4, manual:...,gpu0=0.8@4
//                               a device's share in 4 pipelined chunks
//                               (Piece::Chunks; devices with memory of
//                               their own, 1 to 1024)
//
// Pieces are contiguous and in device order. A kernel that cannot be split
// runs whole on the fastest device of the proportional rule, unless the
// plan asked for a split explicitly (then launching it is an error).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_PLAN_H
#define SKMD_PLANNING_PLAN_H

#include "buffers/Transfers.h"
#include "devices/Device.h"

#include <string>
#include <vector>

namespace skmd {

/// The pieces of \p Plan for \p TotalGroups groups over \p Devices, or an
/// error naming what in the plan is wrong. \p Kernel names the kernel in
/// errors; \p WhyNotSplittable is empty where it may be split, else why not.
Result<std::vector<Piece>> makePlan(const std::string &Plan,
                                    const std::vector<const DeviceInfo *> &Devices,
                                    uint64_t TotalGroups, const std::string &Kernel,
                                    const std::string &WhyNotSplittable);

/// Splits \p Total groups by \p Weights (largest remainder), skipping
/// devices that get none.
std::vector<Piece> splitByWeights(const std::vector<double> &Weights,
                                  uint64_t Total);

} // namespace skmd

#endif // SKMD_PLANNING_PLAN_H
