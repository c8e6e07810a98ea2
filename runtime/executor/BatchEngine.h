//===- BatchEngine.h - Runs a batch in the order its prediction chose -*- C++ -*-===//
//
// The batch method's execution (seed 002, section 3.2): a batch's
// operations are nodes of one Schedule (executor/Schedule.h), each on the
// lane of the engine it runs on (a device's copies in, its kernels, its
// copies out; copies between host buffers on the host's lane), added in
// the issue order the predictor found soonest and with its Behind edges,
// so that what runs is what was predicted. The report holds both
// timelines, per operation.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_EXECUTOR_BATCHENGINE_H
#define SKMD_EXECUTOR_BATCHENGINE_H

#include "batch/Prediction.h"
#include "executor/DeviceWorkers.h"
#include "executor/Schedule.h"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace skmd {

struct BatchReport {
  Timeline Predicted;
  /// Per operation, from the batch's start, as measured.
  std::vector<double> StartMs, EndMs;
  /// Per operation: done, failed (Errors says why) or skipped (an
  /// operation it depends on did not finish).
  std::vector<ScheduleNode::State> Outcome;
  std::vector<Status> Errors;
  /// Per operation, the engine it ran on (enginesOf).
  std::vector<std::pair<int, unsigned>> Engines;
  /// From the start to the last operation's end.
  double Ms = 0;
  /// The first operation that failed, with what it said; the operations
  /// after it were skipped.
  Status Error;
};

/// The lane of the Schedule that runs operations on \p Engine (engineOf).
unsigned laneOf(std::pair<int, unsigned> Engine);

/// How runBatch runs a batch.
struct BatchOptions {
  BatchOptions(const IssueOrder *Order = nullptr) : Order(Order) {}
  /// The order to issue it in; null: the one predictBatch chose.
  const IssueOrder *Order;
  /// Whether to simulate it (Report.Predicted); a launch's batch, whose
  /// kernels' times the launcher does not know, runs Order unpredicted.
  bool Predict = true;
  /// Devices whose lanes queue their work on their streams (Schedule's
  /// queueOn); each queue outlives the run.
  std::map<unsigned, WorkQueue *> Queues;
  /// Times count from here (default: the call).
  std::optional<std::chrono::steady_clock::time_point> Start;
};

/// Runs \p Ops, operation I by calling \p Work[I], as one Schedule on
/// \p Workers (one thread per lane: four per device of \p M), the host's
/// engine on the calling thread.
Result<BatchReport> runBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                             const std::vector<std::function<Status()>> &Work,
                             DeviceWorkers &Workers, const BatchOptions &Options = {});

/// The engine's own costs on \p Workers (lanes of device 0 and 1 used):
/// SetupMs from one batch of one operation that does nothing, HandoffMs
/// from a chain of such operations alternating between two engines, the
/// least of several runs each.
struct EngineCost {
  double SetupMs = 0, HandoffMs = 0;
};
EngineCost measureEngineCost(DeviceWorkers &Workers);

} // namespace skmd

#endif // SKMD_EXECUTOR_BATCHENGINE_H
