//===- ScheduleTest.cpp - The executor of a launch's graph ----------------===//
#include "executor/Schedule.h"

#include "devices/HostStreams.h"
#include "devices/discrete/HostDiscreteDevice.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
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

// A copy to a device and a copy from it, on the device's two copy lanes,
// are in flight at once: with a link slowed to 0.25 GB/s, 8 MB each way
// take about as long together as one alone.
TEST(Schedule, BothCopyDirectionsRunAtOnce) {
  setenv("SKMD_DISCRETE_GBPS", "0.25", 1);
  auto D = HostDiscreteDevice::create(0);
  unsetenv("SKMD_DISCRETE_GBPS");
  const uint64_t Bytes = 8 << 20;
  auto In = D->allocate(Bytes), Out = D->allocate(Bytes);
  ASSERT_TRUE(In.ok() && Out.ok());
  std::vector<char> Host(Bytes, 1), Back(Bytes, 0);
  DeviceWorkers Workers(Schedule::StreamsPerDevice);
  {
    // The lanes' threads started, and the memory touched, beforehand.
    Schedule Warm;
    Warm.add(ScheduleNode::CopyIn, Schedule::lane(0, Schedule::ToDevice), 0, {},
             [&] { return D->copyIn(*In, 0, Host.data(), 1); });
    Warm.add(ScheduleNode::CopyOut, Schedule::lane(0, Schedule::ToHost), 0, {},
             [&] { return D->copyOut(Back.data(), *Out, 0, 1); });
    Warm.run(Workers, std::chrono::steady_clock::now());
    std::memset(reinterpret_cast<void *>(In->Address), 0, Bytes);
    std::memset(reinterpret_cast<void *>(Out->Address), 0, Bytes);
  }
  Schedule S;
  unsigned ToDevice = S.add(ScheduleNode::CopyIn, Schedule::lane(0, Schedule::ToDevice), 0, {},
                            [&] { return D->copyIn(*In, 0, Host.data(), Bytes); });
  unsigned ToHost = S.add(ScheduleNode::CopyOut, Schedule::lane(0, Schedule::ToHost), 1, {},
                          [&] { return D->copyOut(Back.data(), *Out, 0, Bytes); });
  S.run(Workers, std::chrono::steady_clock::now());
  const ScheduleNode &A = S.nodes()[ToDevice], &B = S.nodes()[ToHost];
  ASSERT_EQ(A.Outcome, ScheduleNode::Done);
  ASSERT_EQ(B.Outcome, ScheduleNode::Done);
  double One = double(Bytes) / 0.25e9 * 1e3; // ms at 0.25 GB/s
  EXPECT_GE(A.EndMs - A.StartMs, One * 0.95);
  EXPECT_LT(A.StartMs, B.EndMs);
  EXPECT_LT(B.StartMs, A.EndMs);
  EXPECT_LT(std::max(A.EndMs, B.EndMs) - std::min(A.StartMs, B.StartMs), 1.5 * One);
  D->release(*In);
  D->release(*Out);
}

// A device's streams (made of host threads) as a schedule's queue.
class Streams : public WorkQueue {
public:
  void queue(unsigned S, std::function<Status()> Work) {
    H.queue(DeviceStream(S), std::move(Work));
  }
  Result<uint64_t> mark(unsigned S) override { return H.mark(DeviceStream(S)); }
  Status waitFor(unsigned S, uint64_t M) override {
    H.waitFor(DeviceStream(S), M);
    return Status::success();
  }
  Status finish(uint64_t M) override { return H.finish(M); }
  void release(uint64_t M) override {
    ++Released;
    H.release(M);
  }
  std::atomic<int> Released{0};

private:
  HostStreams H;
};

// A device that queues its work: each lane only queues a node's work and
// goes on, so the copies in of every chunk are queued at once and follow
// each other on the device; each chunk's kernel and copy out run on the
// device after the work they depend on, and a host node after the device
// has run what it depends on.
TEST(Schedule, QueuedLanesOrderWorkOnTheDevice) {
  Streams Device;
  DeviceWorkers Workers(Schedule::StreamsPerDevice);
  Schedule S;
  S.queueOn(0, Device);
  std::mutex Lock;
  std::vector<std::string> Ran;
  auto Work = [&](unsigned Stream, std::string What, unsigned SleepMs) {
    return [&, Stream, What, SleepMs] {
      Device.queue(Stream, [&, What, SleepMs] {
        std::this_thread::sleep_for(Ms(SleepMs));
        std::lock_guard<std::mutex> Hold(Lock);
        Ran.push_back(What);
        return Status::success();
      });
      return Status::success();
    };
  };
  const unsigned Chunks = 4;
  std::vector<unsigned> In, Kernel, Out;
  for (unsigned C = 0; C < Chunks; ++C) {
    std::string N = std::to_string(C);
    In.push_back(S.add(ScheduleNode::CopyIn, Schedule::lane(0, Schedule::ToDevice), int(C),
                       C ? std::vector<unsigned>{In.back()} : std::vector<unsigned>{},
                       Work(Schedule::ToDevice, "in" + N, 20)));
    Kernel.push_back(S.add(ScheduleNode::Kernel, Schedule::lane(0, Schedule::Compute), int(C),
                           {In.back()}, Work(Schedule::Compute, "k" + N, 2)));
    Out.push_back(S.add(ScheduleNode::CopyOut, Schedule::lane(0, Schedule::ToHost), int(C),
                        {Kernel.back()}, Work(Schedule::ToHost, "out" + N, 5)));
  }
  std::vector<std::string> AtMerge;
  unsigned Merge = S.add(ScheduleNode::Merge, Schedule::HostLane, -1, Out, [&] {
    std::lock_guard<std::mutex> Hold(Lock);
    AtMerge = Ran;
    return Status::success();
  });
  S.run(Workers, std::chrono::steady_clock::now());

  for (const ScheduleNode &N : S.nodes())
    EXPECT_EQ(N.Outcome, ScheduleNode::Done);
  ASSERT_EQ(Ran.size(), 3 * Chunks);
  EXPECT_EQ(AtMerge.size(), 3 * Chunks);
  auto Pos = [&](const std::string &W) {
    return std::find(Ran.begin(), Ran.end(), W) - Ran.begin();
  };
  for (unsigned C = 0; C < Chunks; ++C) {
    std::string N = std::to_string(C);
    EXPECT_LT(Pos("in" + N), Pos("k" + N));
    EXPECT_LT(Pos("k" + N), Pos("out" + N));
    // Done only once the device ran it: after the copy in it queued.
    EXPECT_GE(S.nodes()[Kernel[C]].EndMs, S.nodes()[In[C]].EndMs);
  }
  // The last copy in was queued long before the first one ran (20 ms):
  // the lane did not wait for the device.
  EXPECT_LT(S.nodes()[In.back()].StartMs, S.nodes()[In.front()].EndMs);
  // Chunk 0's copy out ran while later chunks were copied in.
  EXPECT_LT(Pos("out0"), Pos("in" + std::to_string(Chunks - 1)));
  EXPECT_GE(S.nodes()[Merge].StartMs, S.nodes()[Out.back()].EndMs);
  EXPECT_EQ(Device.Released, int(3 * Chunks));
}

// One device lane and nothing for the host: the launching thread runs it
// (no hand-off to the device's thread), queued work included, in order.
TEST(Schedule, OneLaneRunsOnTheLaunchingThread) {
  for (bool Queue : {false, true}) {
    Streams Device;
    DeviceWorkers Workers(Schedule::StreamsPerDevice);
    Schedule S;
    if (Queue)
      S.queueOn(0, Device);
    std::thread::id Caller = std::this_thread::get_id();
    std::vector<std::thread::id> Threads;
    std::vector<std::string> Ran;
    std::mutex Lock;
    auto Step = [&](std::string What) {
      return [&, What] {
        Threads.push_back(std::this_thread::get_id());
        auto Work = [&, What] {
          std::lock_guard<std::mutex> Hold(Lock);
          Ran.push_back(What);
          return Status::success();
        };
        if (Queue)
          Device.queue(Schedule::Compute, Work);
        else
          Work();
        return Status::success();
      };
    };
    unsigned L = Schedule::lane(0, Schedule::Compute);
    unsigned In = S.add(ScheduleNode::CopyIn, L, 0, {}, Step("in"));
    unsigned K = S.add(ScheduleNode::Kernel, L, 0, {In}, Step("k"));
    S.add(ScheduleNode::CopyOut, L, 0, {K}, Step("out"));
    S.run(Workers, std::chrono::steady_clock::now());
    for (const ScheduleNode &N : S.nodes())
      EXPECT_EQ(N.Outcome, ScheduleNode::Done) << Queue;
    EXPECT_EQ(Ran, (std::vector<std::string>{"in", "k", "out"})) << Queue;
    for (std::thread::id T : Threads)
      EXPECT_EQ(T, Caller) << Queue;
  }
}

// Queued work that fails is reported when the device has run it: that node
// failed, the queued work behind it on the device is skipped, and host
// nodes that depend on either are skipped; the other chunk's nodes are done.
TEST(Schedule, QueuedWorkFailsWhenTheDeviceRunsIt) {
  Streams Device;
  DeviceWorkers Workers(Schedule::StreamsPerDevice);
  Schedule S;
  S.queueOn(0, Device);
  auto Work = [&](unsigned Stream, bool Fails) {
    return [&, Stream, Fails] {
      Device.queue(Stream, [Fails] {
        return Fails ? Status(Failure(ErrorCode::DeviceFailed, "fault")) : Status::success();
      });
      return Status::success();
    };
  };
  unsigned In0 = S.add(ScheduleNode::CopyIn, Schedule::lane(0, Schedule::ToDevice), 0, {},
                       Work(Schedule::ToDevice, false));
  unsigned K0 = S.add(ScheduleNode::Kernel, Schedule::lane(0, Schedule::Compute), 0, {In0},
                      Work(Schedule::Compute, false));
  unsigned Out0 = S.add(ScheduleNode::CopyOut, Schedule::lane(0, Schedule::ToHost), 0, {K0},
                        Work(Schedule::ToHost, false));
  unsigned In1 = S.add(ScheduleNode::CopyIn, Schedule::lane(0, Schedule::ToDevice), 1, {In0},
                       Work(Schedule::ToDevice, false));
  unsigned K1 = S.add(ScheduleNode::Kernel, Schedule::lane(0, Schedule::Compute), 1, {In1},
                      Work(Schedule::Compute, true));
  unsigned Out1 = S.add(ScheduleNode::CopyOut, Schedule::lane(0, Schedule::ToHost), 1, {K1},
                        Work(Schedule::ToHost, false));
  unsigned M0 = S.add(ScheduleNode::Merge, Schedule::HostLane, 0, {Out0},
                      [] { return Status::success(); });
  unsigned M1 = S.add(ScheduleNode::Merge, Schedule::HostLane, 1, {Out1},
                      [] { return Status::success(); });
  S.run(Workers, std::chrono::steady_clock::now());
  for (unsigned N : {In0, K0, Out0, In1, M0})
    EXPECT_EQ(S.nodes()[N].Outcome, ScheduleNode::Done) << N;
  EXPECT_EQ(S.nodes()[K1].Outcome, ScheduleNode::Failed);
  EXPECT_NE(S.nodes()[K1].Error.error().message().find("fault"), std::string::npos);
  EXPECT_EQ(S.nodes()[Out1].Outcome, ScheduleNode::Skipped);
  EXPECT_EQ(S.nodes()[M1].Outcome, ScheduleNode::Skipped);
}

} // namespace
