//===- Streams.h - Each command queue its own stream of commands -*- C++ -*-===//
//
// The session runs jobs one after another in the order it is given them. A
// command whose wait list holds an event that has not been handed to the
// session yet (a user event the program has not set, or a command behind
// one) is not given to it: it waits in its queue's stream, so that it
// holds back only the commands that must come after it, never the
// session's one worker (which every other queue, and calls such as
// clCreateBuffer, also need). Once everything a command waits for is in
// the session or settled, the command follows it there; the session's
// order then keeps it after what it waits for.
//
// An in-order queue's command comes after the queue's previous command;
// an out-of-order queue's waits for its wait list and the last barrier
// only. Only the events of a command's own wait list pass their failure
// on (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST): what the queue's order
// adds orders, so one failed launch does not fail every later command. A
// failure is reported by the queue's next clFinish.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_STREAMS_H
#define SKMD_OPENCL_STREAMS_H

#include "Objects.h"

#include <atomic>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace skmd::opencl {

/// An event a command waits for: its outcome, and its state (whose Handed
/// flag says whether the session has it). One the queue's order adds
/// (OrderOnly) does not pass its failure on.
struct Dependency {
  std::shared_future<Status> Done;
  std::shared_ptr<CommandState> State;
  bool OrderOnly = false;
};
using WaitList = std::vector<Dependency>;

/// The commands of one queue the session has not been given yet, and what
/// the queue's next command comes after.
class CommandStream : public std::enable_shared_from_this<CommandStream> {
public:
  explicit CommandStream(bool InOrder) : InOrder(InOrder) {}

  /// How a command is ordered against the queue's others (out of order:
  /// a marker comes after every command before it, a barrier also before
  /// every command after it; in order, every command is both).
  enum class Ordering { Command, Marker, Barrier };

  /// What gives a command's job to the session; the job must wait for
  /// the dependencies it is given.
  using Handover = std::function<void(const WaitList &)>;
  /// Adds the command \p Self, which waits for \p Deps and for what the
  /// queue's order adds to them.
  void add(WaitList Deps, Ordering O, Dependency Self, Handover Hand);
  /// What a command that waits for everything enqueued so far waits for.
  WaitList everything();
  /// Notes that a command of the queue failed.
  void failed() { Failures = true; }
  /// Whether a command failed since the last call.
  bool takeFailures() { return Failures.exchange(false); }

private:
  friend void pumpStreams();
  struct Pending {
    WaitList Deps;
    std::shared_ptr<CommandState> State;
    Handover Hand;
  };
  /// Hands over every command that is ready; true when one was.
  bool handReady();

  const bool InOrder;
  std::deque<Pending> Waiting;
  /// In order: the last command. Out of order: the last barrier, and the
  /// commands since it.
  std::optional<Dependency> Last;
  WaitList SinceBarrier;
  std::atomic<bool> Failures{false};
};

/// Hands every stream's ready commands to the session, until none is left
/// ready: after a command was added, or an event's status was set.
void pumpStreams();

} // namespace skmd::opencl

#endif // SKMD_OPENCL_STREAMS_H
