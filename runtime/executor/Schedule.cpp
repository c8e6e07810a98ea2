//===- Schedule.cpp - A launch as a graph of copies, kernels and merges ---===//
#include "executor/Schedule.h"

#include <algorithm>
#include <set>

namespace skmd {

namespace {

double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

unsigned Schedule::add(ScheduleNode::Kind What, unsigned Lane, int Piece,
                       std::vector<unsigned> After, std::function<Status()> Run) {
  ScheduleNode N;
  N.What = What;
  N.Lane = Lane;
  N.Piece = Piece;
  N.After = std::move(After);
  N.Run = std::move(Run);
  Nodes.push_back(std::move(N));
  return unsigned(Nodes.size() - 1);
}

WorkQueue *Schedule::queueOf(unsigned Lane) const {
  if (Lane == HostLane)
    return nullptr;
  auto It = Queues.find(Lane / StreamsPerDevice);
  return It == Queues.end() ? nullptr : It->second;
}

bool Schedule::passed(unsigned A, unsigned Lane) const {
  const ScheduleNode &N = Nodes[A];
  if (N.Outcome != ScheduleNode::Waiting)
    return true;
  return N.Queued && queueOf(Lane) && N.Lane != HostLane &&
         N.Lane / StreamsPerDevice == Lane / StreamsPerDevice;
}

void Schedule::runLane(unsigned Lane, std::chrono::steady_clock::time_point Start) {
  WorkQueue *Queue = queueOf(Lane);
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    ScheduleNode &N = Nodes[I];
    if (N.Lane != Lane)
      continue;
    bool Ready = true;
    // Marks of the device's other lanes that this node's work waits for
    // on the device.
    std::vector<uint64_t> WaitFor;
    {
      std::unique_lock<std::mutex> Hold(Lock);
      Finished.wait(Hold, [&] {
        for (const auto *List : {&N.After, &N.Behind})
          for (unsigned A : *List)
            if (!passed(A, Lane))
              return false;
        return true;
      });
      for (unsigned A : N.After)
        Ready = Ready && (Nodes[A].Outcome == ScheduleNode::Done ||
                          (Nodes[A].Outcome == ScheduleNode::Waiting && Nodes[A].Queued));
      for (const auto *List : {&N.After, &N.Behind})
        for (unsigned A : *List)
          if (Nodes[A].Outcome == ScheduleNode::Waiting && Nodes[A].Queued &&
              Nodes[A].Lane != Lane)
            WaitFor.push_back(Nodes[A].Mark);
    }
    ScheduleNode::State Outcome = ScheduleNode::Skipped;
    Status Error;
    double StartMs = msSince(Start), EndMs = StartMs;
    uint64_t Mark = 0;
    bool Queued = false;
    if (Ready) {
      for (uint64_t M : WaitFor)
        if (Error)
          Error = Queue->waitFor(Lane % StreamsPerDevice, M);
      if (Error)
        Error = N.Run();
      if (Queue) {
        auto Marked = Queue->mark(Lane % StreamsPerDevice);
        if (Marked && Error) {
          Mark = *Marked;
          Queued = true;
        } else if (Marked) {
          // Failed with part of its work queued: none of it may still run
          // once the node is reported failed (the CPU re-runs its groups).
          Queue->finish(*Marked);
          Queue->release(*Marked);
        } else if (Error) {
          Error = Marked.error();
        }
      }
      EndMs = msSince(Start);
      Outcome = Error ? ScheduleNode::Done : ScheduleNode::Failed;
    }
    {
      std::lock_guard<std::mutex> Hold(Lock);
      N.StartMs = StartMs;
      if (Queued) {
        // Done once the completion lane has waited for it.
        N.Queued = true;
        N.Mark = Mark;
        InFlight[Lane / StreamsPerDevice].push_back(I);
      } else {
        N.Outcome = Outcome;
        N.Error = std::move(Error);
        N.EndMs = EndMs;
        if (Queue)
          --Unfinished[Lane / StreamsPerDevice];
      }
    }
    Finished.notify_all();
  }
}

void Schedule::runCompletions(unsigned Device, std::chrono::steady_clock::time_point Start) {
  WorkQueue &Queue = *Queues.at(Device);
  std::deque<unsigned> *Pending;
  unsigned *Left;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Pending = &InFlight[Device];
    Left = &Unfinished[Device];
  }
  for (;;) {
    unsigned I;
    {
      std::unique_lock<std::mutex> Hold(Lock);
      Finished.wait(Hold, [&] { return !Pending->empty() || *Left == 0; });
      if (Pending->empty())
        return;
      I = Pending->front();
      Pending->pop_front();
    }
    ScheduleNode &N = Nodes[I];
    Status Error = Queue.finish(N.Mark);
    double EndMs = msSince(Start);
    {
      std::lock_guard<std::mutex> Hold(Lock);
      // Work queued behind a failed node's ran on what it left: skipped
      // too (the nodes it depends on were waited for before it).
      bool After = true;
      for (unsigned A : N.After)
        After = After && Nodes[A].Outcome == ScheduleNode::Done;
      N.Outcome = !Error ? ScheduleNode::Failed
                  : After ? ScheduleNode::Done
                          : ScheduleNode::Skipped;
      N.Error = std::move(Error);
      N.EndMs = EndMs;
      N.Queued = false;
      --*Left;
    }
    Finished.notify_all();
  }
}

void Schedule::run(DeviceWorkers &Workers, std::chrono::steady_clock::time_point Start) {
  std::set<unsigned> Lanes;
  for (const ScheduleNode &N : Nodes)
    if (N.Lane != HostLane)
      Lanes.insert(N.Lane);
  std::set<unsigned> Queued;
  for (unsigned L : Lanes)
    if (queueOf(L))
      Queued.insert(L / StreamsPerDevice);
  for (const ScheduleNode &N : Nodes)
    if (queueOf(N.Lane))
      ++Unfinished[N.Lane / StreamsPerDevice];
  bool HostNodes = std::any_of(Nodes.begin(), Nodes.end(),
                               [](const ScheduleNode &N) { return N.Lane == HostLane; });
  if (!HostNodes && Lanes.size() == 1) {
    // One lane of one device and nothing for the host (a launch on one
    // device whose buffers are there): this thread runs it and then waits
    // for what it queued, with no hand-off to the device's threads.
    unsigned L = *Lanes.begin();
    runLane(L, Start);
    if (!Queued.empty())
      runCompletions(L / StreamsPerDevice, Start);
  } else {
    for (unsigned L : Lanes)
      Workers.post(L, [this, L, Start] { runLane(L, Start); });
    for (unsigned D : Queued)
      Workers.post(lane(D, Completions), [this, D, Start] { runCompletions(D, Start); });
    runLane(HostLane, Start);
    Workers.wait();
  }
  for (const ScheduleNode &N : Nodes)
    if (WorkQueue *Q = queueOf(N.Lane); Q && N.Mark)
      Q->release(N.Mark);
}

} // namespace skmd
