//===- ScheduleTest.cpp - The executor of a launch's graph ----------------===//
#include "launch/Schedule.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace skmd;

namespace {

using Ms = std::chrono::milliseconds;

// A node starts only after the nodes it depends on, on any lane, have
// finished; each lane runs its nodes in the order added; lanes run at once.
TEST(Schedule, DependenciesAreHonouredAcrossLanes) {
  DeviceWorkers Workers(2);
  Schedule S;
  std::mutex Lock;
  std::vector<std::string> Order;
  auto Note = [&](const char *What, unsigned SleepMs) {
    return [&, What, SleepMs] {
      std::this_thread::sleep_for(Ms(SleepMs));
      std::lock_guard<std::mutex> Hold(Lock);
      Order.push_back(What);
      return Status::success();
    };
  };
  unsigned In0 = S.add(ScheduleNode::CopyIn, 0, 0, {}, Note("in0", 30));
  unsigned In1 = S.add(ScheduleNode::CopyIn, 1, 1, {}, Note("in1", 0));
  // Lane 1's kernel waits for lane 0's copy, though its own is done.
  unsigned K1 = S.add(ScheduleNode::Kernel, 1, 1, {In1, In0}, Note("k1", 0));
  unsigned K0 = S.add(ScheduleNode::Kernel, 0, 0, {In0}, Note("k0", 0));
  S.add(ScheduleNode::Merge, Schedule::HostLane, -1, {K0, K1}, Note("merge", 0));
  S.run(Workers, std::chrono::steady_clock::now());
  ASSERT_EQ(Order.size(), 5u);
  EXPECT_EQ(Order.front(), "in1");
  EXPECT_EQ(Order.back(), "merge");
  auto Pos = [&](const char *W) { return std::find(Order.begin(), Order.end(), W) - Order.begin(); };
  EXPECT_LT(Pos("in0"), Pos("k1"));
  EXPECT_LT(Pos("in0"), Pos("k0"));
  for (const ScheduleNode &N : S.nodes())
    EXPECT_EQ(N.Outcome, ScheduleNode::Done);
  EXPECT_GE(S.nodes()[K1].StartMs, S.nodes()[In0].EndMs);
  // The two copies overlapped: lane 1's ended before lane 0's.
  EXPECT_LT(S.nodes()[In1].EndMs, S.nodes()[In0].EndMs);
}

// A failed node skips what depends on it, directly or not, but not a node
// that only starts behind it; the other lanes run on.
TEST(Schedule, AFailureSkipsItsDependentsOnly) {
  DeviceWorkers Workers(2);
  Schedule S;
  std::atomic<int> Ran{0};
  auto Ok = [&] {
    ++Ran;
    return Status::success();
  };
  unsigned Bad = S.add(ScheduleNode::CopyIn, 0, 0, {}, [] {
    return Status(Failure(ErrorCode::DeviceFailed, "no"));
  });
  unsigned K = S.add(ScheduleNode::Kernel, 0, 0, {Bad}, Ok);
  unsigned Out = S.add(ScheduleNode::CopyOut, 0, 0, {K}, Ok);
  unsigned Other = S.add(ScheduleNode::Kernel, 1, 1, {}, Ok);
  unsigned Cpu = S.add(ScheduleNode::Kernel, Schedule::HostLane, 2, {}, Ok);
  S.startBehind(Cpu, Bad);
  S.run(Workers, std::chrono::steady_clock::now());
  EXPECT_EQ(S.nodes()[Bad].Outcome, ScheduleNode::Failed);
  EXPECT_EQ(S.nodes()[Bad].Error.error().message(), "no");
  EXPECT_EQ(S.nodes()[K].Outcome, ScheduleNode::Skipped);
  EXPECT_EQ(S.nodes()[Out].Outcome, ScheduleNode::Skipped);
  EXPECT_EQ(S.nodes()[Other].Outcome, ScheduleNode::Done);
  EXPECT_EQ(S.nodes()[Cpu].Outcome, ScheduleNode::Done);
  EXPECT_EQ(Ran, 2);
}

} // namespace
