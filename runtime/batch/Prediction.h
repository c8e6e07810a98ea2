//===- Prediction.h - A batch's timeline before it runs ----------*- C++ -*-===//
//
// The batch method's latency prediction (seed 002, Algorithm 1): a batch
// is a graph of copies and kernel pieces; an event simulation over the
// route table (batch/Routes.h) gives each operation's start and end.
// Between two events (an operation starting or ending) every running
// copy moves at a constant rate, the share shareRates gives it of the
// limits it runs under; the next event is the soonest end.
//
// Operations run on engines as a device runs them: a device's copies to
// it, its copies back and its kernels each in order on their own engine
// (the Schedule's lanes; a GPU with one copy engine runs both directions
// on one), so the order the operations are issued in matters. The paper
// aligns the streams' completions by delaying the copies the longest
// stream does not wait for; here the predictor simulates a few issue
// orders (as added; the longest path to the end first; copies that share
// a limit with the longest stream's held behind it) and keeps the one that
// finishes soonest. The batch engine (executor/BatchEngine.h) runs the batch
// in that order, so the prediction is of what runs.
//
// A copy costs its route's latency (engine busy, no bytes moving), then
// its bytes at the shared rate. A kernel piece runs its time alone at full
// speed, unless it reads and writes host memory (a CPU piece: HostBytes)
// or runs on the host's cores (its device's HostThreads), which it then
// shares with the copies there.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BATCH_PREDICTION_H
#define SKMD_BATCH_PREDICTION_H

#include "batch/Routes.h"
#include "support/Result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace skmd {

struct BatchOp {
  enum Kind { Copy, Kernel };
  Kind What = Copy;
  /// For reports and --trace: "x>gpu0", "kernel gpu0 [0, 512)".
  std::string Label;
  /// Copy: where its bytes go, and how many.
  Route Path;
  uint64_t Bytes = 0;
  /// Copy: its own rate alone where known, in GB/s (a kernel's copies of
  /// rows and rectangles, profiled, go slower than the route's plain
  /// buffers); 0: its route's.
  double GBps = 0;
  /// Kernel: the device that runs it (an index into BatchMachine::Devices;
  /// HostSide: work of the host's own thread, such as merging a device's
  /// results into host memory) and its time alone.
  int Device = 0;
  double KernelMs = 0;
  /// Kernel: the bytes it reads and writes in host memory (a CPU piece's
  /// buffers), which slow it and the copies there when they run at once.
  uint64_t HostBytes = 0;
  /// Kernel: of HostBytes, those it writes (the rest it reads).
  uint64_t HostWrittenBytes = 0;
  /// Operations (earlier ones) whose results it uses.
  std::vector<unsigned> After;
};

struct BatchDevice {
  std::string Name;
  /// Copies it runs beside its kernels, one per direction where 2 or more
  /// (a GPU's DMA engines); with 1, both directions take turns on it.
  /// 0 (the CPU, a HostDiscrete device): copies on threads of their own,
  /// one per direction, as with 2.
  unsigned CopyEngines = 2;
  /// The host's cores its kernels keep busy (the CPU device's threads, a
  /// HostDiscrete device's); 0 for a GPU.
  unsigned HostThreads = 0;
  /// Its kernels run on the thread that runs the batch, in turn with the
  /// host's copies and work (the launcher's CPU pieces: no hand-off to
  /// another thread).
  bool KernelsOnHostThread = false;
};

/// What the simulation needs of the machine: its devices and the routes
/// between them.
struct BatchMachine {
  std::vector<BatchDevice> Devices;
  RouteTable Routes;
  /// The engine's own costs (measureEngineCost, executor/BatchEngine.h): from
  /// the batch's start to its first operation, and from an operation's
  /// end to the start of one on another engine that waits for it.
  double SetupMs = 0, HandoffMs = 0;
  std::vector<std::string> deviceNames() const;
};

/// An order to issue a batch in: every engine runs its operations in the
/// order they appear in Order (a topological order of the batch), and an
/// operation also waits for those Behind names for it (first: the
/// operation; second: the one it starts after, whatever their links).
struct IssueOrder {
  std::string Name;
  std::vector<unsigned> Order;
  std::vector<std::pair<unsigned, unsigned>> Behind;
};

struct Timeline {
  /// Per operation, from the batch's start.
  std::vector<double> StartMs, EndMs;
  /// The last end.
  double Ms = 0;
  IssueOrder Issued;
};

/// The engine an operation runs on: (device, 0 copies to it, 1 its
/// kernels, 2 copies from it); copies between host buffers and the host's
/// own work on (-1, 0). A peer copy runs on its destination's copies-in
/// engine.
std::pair<int, unsigned> engineOf(const BatchMachine &M, const BatchOp &Op);

/// Per operation, the engine it runs on when issued in \p Order: its
/// engineOf, except that a device whose operations form one chain (each
/// after the one before it in \p Order) runs them all on the first one's
/// engine, as handing an operation to another thread costs a wake-up (0.1
/// ms a launch over scan's three small launches on the H100 host).
std::vector<std::pair<int, unsigned>> enginesOf(const BatchMachine &M,
                                                const std::vector<BatchOp> &Ops,
                                                const std::vector<unsigned> &Order);

/// Whether \p Ops is a batch \p M can run: every dependency earlier,
/// every device known, every copy's route measured. The error names the
/// operation.
Status checkBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops);

/// Simulates \p Ops issued in \p Order (checked by checkBatch).
Result<Timeline> simulateBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                               const IssueOrder &Order);

/// The issue order that finishes soonest of those the predictor tries,
/// with its timeline.
Result<Timeline> predictBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops);

} // namespace skmd

#endif // SKMD_BATCH_PREDICTION_H
