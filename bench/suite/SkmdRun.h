//===- SkmdRun.h - A Problem through SKMD's public API ----------*- C++ -*-===//
//
// Runs an application's launches from its bundle through the C API, as a
// user's program does: the inputs stay in the caller's host arrays, each
// skmd_launch returns when the outputs are in the caller's arrays, and the
// plan string decides which devices take part ("cpu", "gpu0", "linear",
// "auto", ...). A run is end to end: every copy, kernel and merge.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BENCH_SUITE_SKMDRUN_H
#define SKMD_BENCH_SUITE_SKMDRUN_H

#include "Problem.h"

#include "skmd/skmd.h"

#include <memory>
#include <string>
#include <vector>

namespace skmd::bench {

/// One device's piece of a launch, from its report.
struct SkmdPiece {
  std::string Device;
  uint64_t Groups = 0;
  double InputMs = 0, KernelMs = 0, OutputMs = 0, MergeMs = 0;
  uint64_t BytesIn = 0, BytesOut = 0;
  /// The model's predictions (0 without a model).
  double PredictedInputMs = 0, PredictedKernelMs = 0, PredictedOutputMs = 0,
         PredictedMergeMs = 0;
  unsigned Chunks = 1; ///< Pipelined chunks it ran in.
};

/// What one launch of a run did.
struct SkmdLaunchSummary {
  std::string Kernel, Plan;
  uint64_t TotalGroups = 0;
  double TotalMs = 0, PlanMs = 0, PredictedMs = 0;
  /// Algorithm 1's own estimate (PredictedMs: the launch's batch simulated).
  double EstimatedMs = 0;
  /// The least time any split could take (0 without a model).
  double BoundMs = 0;
  std::vector<SkmdPiece> Pieces;
};

class SkmdProblemRun {
public:
  ~SkmdProblemRun();
  /// Loads \p BundlePath in \p Ctx and prepares \p P: its kernels with their
  /// arguments, its buffers wrapped (outputs in \p Out, allocated there
  /// unless an earlier run left them the right size; in page-locked
  /// memory from skmd_alloc_host when \p Pinned, which the inputs are
  /// copied to as well). Null with the error in \p Why.
  static std::unique_ptr<SkmdProblemRun> prepare(skmd_context Ctx, const std::string &BundlePath,
                                                 const Problem &P, bool Pinned, Outputs &Out,
                                                 std::string &Why);

  /// Sets the outputs to their initial contents (untimed).
  std::string reset();
  /// Every launch, in order, with \p Plan; their reports in lastReports().
  std::string run(const std::string &Plan);
  /// Makes \p Out hold the last run's results (pinned outputs are copied).
  std::string collect();
  const std::vector<SkmdLaunchSummary> &lastReports() const { return Reports; }

private:
  struct State;
  explicit SkmdProblemRun(std::unique_ptr<State> S);
  std::unique_ptr<State> S;
  std::vector<SkmdLaunchSummary> Reports;
};

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_SKMDRUN_H
