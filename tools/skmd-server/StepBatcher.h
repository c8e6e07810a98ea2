//===- StepBatcher.h - Clients' steps on one device, gathered and ordered -*- C++ -*-===//
//
// The GPU virtualization paper (seed 003) gathers the requests of an SPMD
// step's processes and issues them in one of two orders: PS-1, every
// process's copies in, then every kernel, then every copy out, so that
// the kernels run at once; or PS-2, each process's copies in, kernel and
// copies out in turn, so that one's copies run beside another's kernel.
//
// A StepBatcher does so for one device of skmd-server. A client's launch
// announces its step (wire::Step: how many kernel ranges, and what its
// plan predicts of the copies and kernels). The steps that arrive
// together form a batch: within a window of time from the first, or at a
// barrier, once every client active on the device (one that loaded a
// kernel or announced a step there in the last second) has announced one,
// at most the window later. The batch's order is the one the turnaround
// model (model/SharedTurnaround.h) predicts to finish first, unless the
// server forces one. Each client's session thread then asks, before each
// copy or kernel it issues, whether the order lets it go now (enter), and
// waits until it does.
//
// The order only decides when requests are issued: each client's own
// requests keep their order (the server's streams see to that), and
// different clients share no memory, so no order changes a result. Every
// wait is bounded by the window: a client that stops short of what its
// step announced (it waits on something else, or died) holds the others
// up for at most that long, never forever.
//
// Once every step of a batch has run (the completion of the Mark that
// ends it), the batch is reported: what the model predicted of it, and the
// time from its issue to its last step's end (skmd-server --explain).
//
// The model is the paper's, and it misses what this server does: a
// client's pageable copies go through its own staging ring, so that
// different clients' copies overlap on the host's cores where the model
// has them follow each other. So the batcher also learns: per shape of
// batch (its steps, their groups, the order), the ratio of the measured
// turnaround to the model's, and predicts the model's time times the
// ratio learned from the batches before. Where no order is forced it
// tries each order once per shape, then issues the one it predicts
// faster.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TOOLS_SKMD_SERVER_STEPBATCHER_H
#define SKMD_TOOLS_SKMD_SERVER_STEPBATCHER_H

#include "model/SharedTurnaround.h"
#include "wire/Requests.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace skmd {

struct GatherOptions {
  enum Mode { Off, Window, Barrier };
  Mode Gather = Off;
  /// Window: how long a batch gathers from its first step. Barrier: the
  /// longest a batch waits for its last client once the batches before
  /// it are issued. Both: the longest a client waits for another's stage
  /// before the batch goes on without it.
  std::chrono::microseconds Wait{2000};
  /// The order every batch is issued in; none: the faster one the model
  /// predicts (PS-2 where the steps come unpredicted).
  std::optional<SharingOrder> Order;
};

/// Parses --gather's value: "off", "barrier", "barrier:<us>" or
/// "window:<us>" (microseconds, 1 to 1000000); an error otherwise.
std::optional<std::string> parseGather(const std::string &Text, GatherOptions &Into);

/// A batch as it was issued and ran.
struct StepBatchReport {
  uint64_t Number = 0;
  unsigned Steps = 0;
  /// Every step came with its plan's prediction.
  bool Predicted = false;
  /// The mean of the steps' tasks, the class and kernel share the model
  /// took.
  GpuTask Mean;
  TaskClass Class = TaskClass::ComputeIntensive;
  double KernelShare = 0;
  SharingOrder Order = SharingOrder::PS2;
  double GatherMs = 0; ///< from the first step's arrival to the issue
  /// turnaroundBatch of the order issued, where Predicted: the model alone.
  double ModelMs = 0;
  /// ModelMs times what the batches of the same shape measured against the
  /// model before (the learned ratio), once there were such batches.
  double PredictedMs = 0;
  double LearnedRatio = 1;
  unsigned LearnedFrom = 0; ///< batches of the same shape and order before
  /// From the issue to the last step's end; negative where a step's end
  /// was not seen (its client left, or sent no Mark after its copies out).
  double MeasuredMs = -1;
};

/// "gpu0 batch 12: 8 steps, compute-intensive (in 0.40, kernel 2.10, out
/// 0.40 ms, a kernel fills 100% of the GPU), PS-2; predicted 17.6 ms,
/// measured 18.3 ms (+4.0%); gathered in 0.31 ms".
std::string describe(const StepBatchReport &R, const std::string &Device);

class StepBatcher {
public:
  enum class Stage { In, Kernel, Out };
  /// A client (its session).
  using Member = const void *;

  /// \p ComputeUnits: the device's, to tell how much of it a kernel fills
  /// (0: the paper's kernels that overlap completely). \p Report gets each
  /// batch once its steps have run (from the thread that saw the last one).
  StepBatcher(GatherOptions O, unsigned ComputeUnits,
              std::function<void(const StepBatchReport &)> Report = nullptr);

  /// \p M will step on the device (it loaded a kernel there): a barrier
  /// waits for its first step too, for a second.
  void join(Member M);
  /// \p M's next step on the device begins (ending its last one).
  void begin(Member M, const wire::Step &S);
  /// Before \p M issues a request of stage \p S: waits until the batch's
  /// order lets it (at once where \p M is in no step).
  void enter(Member M, Stage S);
  /// After \p M's Mark: where it ends \p M's step (its Runs and a copy
  /// out issued before it, or no copy out where the step has none), a
  /// token for stepRan once the mark's work ran.
  std::optional<uint64_t> marked(Member M);
  /// The work of the step that \p Token ended has run.
  void stepRan(uint64_t Token);
  /// \p M is gone: its step, if any, ends unmeasured.
  void leave(Member M);

  /// Batches issued so far.
  uint64_t batches() const;

private:
  using Clock = std::chrono::steady_clock;
  struct StepState {
    Member Who = nullptr;
    wire::Step Plan;
    Stage At = Stage::In; ///< the latest stage it asked for
    unsigned RunsIssued = 0;
    bool OutIssued = false;
    bool Ended = false;    ///< issued all it will
    bool Measured = false; ///< ended by a Mark, whose work is awaited
    bool Ran = false;
    Clock::time_point RanAt;
  };
  struct Batch {
    uint64_t Number = 0;
    std::vector<StepState> Steps; ///< in arrival order
    Clock::time_point Opened, Issued;
    /// When the batches before it had all been issued: a barrier's wait
    /// for its last client counts from then (a batch that forms while a
    /// long one issues would otherwise close short, and its clients stay
    /// split from the others).
    Clock::time_point Front;
    bool Closed = false;
    Stage Phase = Stage::In; ///< PS-1: the stage issued now
    size_t Turn = 0;         ///< PS-2: the step issued now
    Clock::time_point Since; ///< when Phase or Turn last moved
    bool IssuedAll = false;
    bool Reported = false;
    uint64_t GroupsPerRun = 0;
    /// Its report as it fills, its order among it (set at close).
    StepBatchReport R;
  };

  /// Whether \p M's step \p St of \p B may issue a request of stage \p S.
  bool mayIssue(const Batch &B, const StepState &St, Stage S) const;
  /// Closes the forming batch, moves phases and turns on, retires issued
  /// batches: whatever their steps and the time allow. Under Lock.
  /// Whether anything moved.
  bool advance(Clock::time_point Now);
  void close(Batch &B, Clock::time_point Now);
  /// The batch and step \p M is in, if any. Under Lock.
  std::pair<Batch *, StepState *> stepOf(Member M);
  void endStep(Batch &B, StepState &St, bool Measured);
  /// Reports \p B if every step ended and ran. Under Lock; \p Out gets it.
  void reportIfRan(Batch &B, std::vector<StepBatchReport> &Out);
  void deliver(std::vector<StepBatchReport> &Out, std::unique_lock<std::mutex> &G);
  /// The earliest time a wait may end to move things on.
  Clock::time_point nextDeadline() const;
  /// The steps a barrier waits for: one of each client that joined or
  /// announced one in the last second.
  unsigned awaited(Clock::time_point Now) const;

  const GatherOptions Options;
  const unsigned ComputeUnits;
  std::function<void(const StepBatchReport &)> Report;
  mutable std::mutex Lock;
  std::condition_variable Changed;
  /// Front: the batch issuing (or the next to); the last may be forming.
  std::deque<std::shared_ptr<Batch>> Issuing;
  /// Issued batches whose steps have not all run.
  std::deque<std::shared_ptr<Batch>> Running;
  std::map<Member, std::shared_ptr<Batch>> Current;
  /// When each client last announced a step or joined.
  std::map<Member, Clock::time_point> LastSeen;
  std::map<uint64_t, std::pair<std::shared_ptr<Batch>, size_t>> EndTokens;
  /// What batches of one shape measured against the model, per order.
  struct ShapeKey {
    unsigned Steps = 0;
    uint64_t GroupsPerRun = 0;
    SharingOrder Order = SharingOrder::PS1;
    bool operator<(const ShapeKey &O) const {
      return std::tie(Steps, GroupsPerRun, Order) < std::tie(O.Steps, O.GroupsPerRun, O.Order);
    }
  };
  struct Learned {
    double Ratio = 1;
    unsigned Batches = 0;
  };
  std::map<ShapeKey, Learned> Ratios;
  ShapeKey shapeOf(const Batch &B, SharingOrder O) const;
  uint64_t Tokens = 0, Numbered = 0;
};

} // namespace skmd

#endif // SKMD_TOOLS_SKMD_SERVER_STEPBATCHER_H
