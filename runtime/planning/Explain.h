//===- Explain.h - A plan and its outcome, for people -------------*- C++ -*-===//
//
// What SKMD_EXPLAIN=1 and skmd-run --explain print: before a launch, each
// device's share and predicted times, and the launch's predicted time
// against the fastest device alone; after it, the measured times next to
// the predicted ones and the prediction errors, (predicted - measured) /
// measured.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_EXPLAIN_H
#define SKMD_PLANNING_EXPLAIN_H

#include "launch/LaunchTypes.h"
#include "planning/ModelPlanner.h"

#include <string>
#include <vector>

namespace skmd {

/// Before the launch. \p Model: the prediction, or null with \p NoModel
/// saying why there is none.
std::string explainPlan(const std::string &Kernel, const std::string &Plan,
                        const std::vector<Piece> &Pieces, uint64_t TotalGroups,
                        const std::vector<const DeviceInfo *> &Devices,
                        const ModelPlan *Model, const std::string &NoModel);

/// After it.
std::string explainOutcome(const LaunchReport &Report,
                           const std::vector<const DeviceInfo *> &Devices,
                           const ModelPlan *Model);

/// (Predicted - Measured) / Measured.
double predictionError(double Predicted, double Measured);

} // namespace skmd

#endif // SKMD_PLANNING_EXPLAIN_H
