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
// Reports come from the nodes' timings (launch/Launcher.h sums them into
// the four phases of a piece).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_LAUNCH_SCHEDULE_H
#define SKMD_LAUNCH_SCHEDULE_H

#include "launch/DeviceWorkers.h"
#include "support/Result.h"

#include <chrono>
#include <cstdint>
#include <functional>
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
  Status Error;
  /// From the schedule's start.
  double StartMs = 0, EndMs = 0;
};

class Schedule {
public:
  static constexpr unsigned HostLane = ~0u;
  /// A device's lanes, one per stream: copies to it, its kernels, copies
  /// from it. Both copy directions and the kernels run at once where the
  /// device allows (a GPU's copy engines).
  enum Stream : unsigned { ToDevice, Compute, ToHost, StreamsPerDevice };
  static unsigned lane(unsigned Device, Stream S) { return Device * StreamsPerDevice + S; }

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

  std::vector<ScheduleNode> Nodes;
  std::mutex Lock;
  std::condition_variable Finished;
};

} // namespace skmd

#endif // SKMD_LAUNCH_SCHEDULE_H
