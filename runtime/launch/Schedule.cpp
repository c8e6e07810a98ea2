//===- Schedule.cpp - A launch as a graph of copies, kernels and merges ---===//
#include "launch/Schedule.h"

#include <set>

namespace skmd {

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

void Schedule::runLane(unsigned Lane, std::chrono::steady_clock::time_point Start) {
  auto Ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
        .count();
  };
  for (ScheduleNode &N : Nodes) {
    if (N.Lane != Lane)
      continue;
    bool Ready = true;
    {
      std::unique_lock<std::mutex> Hold(Lock);
      Finished.wait(Hold, [&] {
        for (const auto *List : {&N.After, &N.Behind})
          for (unsigned A : *List)
            if (Nodes[A].Outcome == ScheduleNode::Waiting)
              return false;
        return true;
      });
      for (unsigned A : N.After)
        Ready = Ready && Nodes[A].Outcome == ScheduleNode::Done;
    }
    ScheduleNode::State Outcome = ScheduleNode::Skipped;
    Status Error;
    double StartMs = Ms(), EndMs = StartMs;
    if (Ready) {
      Error = N.Run();
      EndMs = Ms();
      Outcome = Error ? ScheduleNode::Done : ScheduleNode::Failed;
    }
    {
      std::lock_guard<std::mutex> Hold(Lock);
      N.Outcome = Outcome;
      N.Error = std::move(Error);
      N.StartMs = StartMs;
      N.EndMs = EndMs;
    }
    Finished.notify_all();
  }
}

void Schedule::run(DeviceWorkers &Workers, std::chrono::steady_clock::time_point Start) {
  std::set<unsigned> Lanes;
  for (const ScheduleNode &N : Nodes)
    if (N.Lane != HostLane)
      Lanes.insert(N.Lane);
  for (unsigned L : Lanes)
    Workers.post(L, [this, L, Start] { runLane(L, Start); });
  runLane(HostLane, Start);
  Workers.wait();
}

} // namespace skmd
