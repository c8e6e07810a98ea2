//===- Schedule.h - A launch as a graph of copies, kernels and merges -*- C++ -*-===//
//
// A launch is a graph of nodes (a copy, a kernel range, a merge, a host
// copy), each on a lane: a device's, whose nodes run in turn on that
// device's thread, or the host's, which runs on the launching thread (the
// CPU's kernel ranges, merges, and copies between host buffers). A node
// starts when the nodes it depends on are done, and is skipped when one of
// them failed or was skipped: a device that fails in its copies leaves its
// kernel unrun, and the launcher re-runs those groups elsewhere.
//
// Nodes are added after the nodes they depend on (or start behind), and each lane runs its
// nodes in the order added; so the lowest unfinished node can always run,
// and a schedule cannot deadlock.
//
// A device that queues its work (a GPU's streams) can take a lane's nodes
// without the lane waiting for each: a node's Run then only queues its
// work, the lane marks the stream and goes on, and a node of another of
// the device's lanes that depends on it waits for the mark on the device,
// not on the host. A chunked share's copies in, kernels and copies out so
// follow each other on the GPU with no host thread between them. The
// device's completion lane waits for the marks in the order they were
// made and says which nodes are done.
//
// Reports come from the nodes' timings (executor/BatchEngine.h reports them per
// operation; launch/Launcher.h sums a launch's into the four phases of a piece).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_EXECUTOR_SCHEDULE_H
#define SKMD_EXECUTOR_SCHEDULE_H

#include "executor/DeviceWorkers.h"
#include "support/Result.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace skmd {

struct ScheduleNode {
  enum Kind { CopyIn, Kernel, CopyOut, Merge, HostCopy };
  enum State { Waiting, Done, Failed, Skipped };
  Kind What = Kernel;
  /// The device whose thread runs it, or Schedule::HostLane.
  unsigned Lane = 0;
  /// The launch's piece it is part of; -1 for none (a host copy that
  /// serves several).
  int Piece = -1;
  /// Nodes whose results it uses: it is skipped unless they are done.
  std::vector<unsigned> After;
  /// Nodes it only starts after (they compete for what it needs, such as
  /// the host's cores), whatever became of them.
  std::vector<unsigned> Behind;
  std::function<Status()> Run;

  State Outcome = Waiting;
  /// Its work is queued on its device, which has not finished it yet (a
  /// queued lane's node between its Run and its completion).
  bool Queued = false;
  /// The device's mark after its work.
  uint64_t Mark = 0;
  Status Error;
  /// From the schedule's start.
  double StartMs = 0, EndMs = 0;
};

/// Where the lanes of one device queue their nodes' work (WorkQueue
/// streams are Schedule::ToDevice, Compute and ToHost).
class WorkQueue {
public:
  virtual ~WorkQueue() = default;
  /// Marks the work queued on \p Stream so far.
  virtual Result<uint64_t> mark(unsigned Stream) = 0;
  /// Work queued on \p Stream from now on starts after \p Mark's.
  virtual Status waitFor(unsigned Stream, uint64_t Mark) = 0;
  /// Returns when \p Mark's work has run: its error, if it failed.
  virtual Status finish(uint64_t Mark) = 0;
  /// \p Mark is not used again.
  virtual void release(uint64_t Mark) = 0;
};

class Schedule {
public:
  static constexpr unsigned HostLane = ~0u;
  /// A device's lanes, one per stream: copies to it, its kernels, copies
  /// from it. Both copy directions and the kernels run at once where the
  /// device allows (a GPU's copy engines). Completions, for a device
  /// whose lanes queue (queueOn), waits for the queued work.
  enum Stream : unsigned { ToDevice, Compute, ToHost, Completions, StreamsPerDevice };
  static unsigned lane(unsigned Device, Stream S) { return Device * StreamsPerDevice + S; }

  /// Device \p Device's lanes queue their nodes' work on \p Queue, which
  /// outlives the run.
  void queueOn(unsigned Device, WorkQueue &Queue) { Queues[Device] = &Queue; }

  /// Adds a node after \p After (nodes added before it) and returns its
  /// index.
  unsigned add(ScheduleNode::Kind What, unsigned Lane, int Piece,
               std::vector<unsigned> After, std::function<Status()> Run);
  /// Makes node \p Node start after \p Behind (an earlier node) has
  /// finished, done or not.
  void startBehind(unsigned Node, unsigned Behind) { Nodes[Node].Behind.push_back(Behind); }

  /// Runs every node: device lanes on \p Workers (one job per lane), the
  /// host lane on this thread. Returns when every node has run or been
  /// skipped. Times count from \p Start.
  void run(DeviceWorkers &Workers, std::chrono::steady_clock::time_point Start);

  const std::vector<ScheduleNode> &nodes() const { return Nodes; }

private:
  void runLane(unsigned Lane, std::chrono::steady_clock::time_point Start);
  /// Waits for device \p Device's queued nodes, in the order queued.
  void runCompletions(unsigned Device, std::chrono::steady_clock::time_point Start);
  /// The queue of \p Lane's device, or null where its nodes run at once.
  WorkQueue *queueOf(unsigned Lane) const;
  /// Whether node \p A no longer holds up a node of \p Lane: finished, or
  /// queued on the same device.
  bool passed(unsigned A, unsigned Lane) const;

  std::vector<ScheduleNode> Nodes;
  std::map<unsigned, WorkQueue *> Queues;
  /// Per device, its queued nodes not yet waited for, in the order queued.
  std::map<unsigned, std::deque<unsigned>> InFlight;
  /// Per device that queues, its nodes not yet done, failed or skipped.
  std::map<unsigned, unsigned> Unfinished;
  std::mutex Lock;
  std::condition_variable Finished;
};

} // namespace skmd

#endif // SKMD_EXECUTOR_SCHEDULE_H
