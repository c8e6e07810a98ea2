//===- DeviceWorkersTest.cpp - The launcher's thread per device -----------===//
#include "executor/DeviceWorkers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace skmd;

TEST(DeviceWorkers, EachDeviceRunsItsJobOnOneThreadThatStaysForTheNextLaunch) {
  DeviceWorkers Workers(3);
  std::thread::id Seen[3][2];
  for (int Launch = 0; Launch < 2; ++Launch) {
    std::atomic<int> Ran{0};
    for (size_t D : {0u, 2u})
      Workers.post(D, [&, D, Launch] {
        // Slow enough that wait() really waits.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        Seen[D][Launch] = std::this_thread::get_id();
        ++Ran;
      });
    Workers.wait();
    EXPECT_EQ(Ran.load(), 2) << "launch " << Launch;
  }
  // The same thread for a device in every launch, another for each device,
  // never the caller's.
  EXPECT_EQ(Seen[0][0], Seen[0][1]);
  EXPECT_EQ(Seen[2][0], Seen[2][1]);
  EXPECT_NE(Seen[0][0], Seen[2][0]);
  EXPECT_NE(Seen[0][0], std::this_thread::get_id());
  // Device 1 got no job and ran nothing.
  EXPECT_EQ(Seen[1][0], std::thread::id());
}

TEST(DeviceWorkers, TheDevicesRunAtOnce) {
  DeviceWorkers Workers(4);
  std::atomic<int> Inside{0}, Most{0};
  for (size_t D = 0; D < 4; ++D)
    Workers.post(D, [&] {
      int Now = ++Inside;
      for (int Seen = Most.load(); Now > Seen && !Most.compare_exchange_weak(Seen, Now);)
        ;
      // Every job waits for the others to come in (or gives up after 5 s).
      for (int I = 0; I < 5000 && Most.load() < 4; ++I)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --Inside;
    });
  Workers.wait();
  EXPECT_EQ(Most.load(), 4);
}

TEST(DeviceWorkers, WaitWithNothingPostedReturnsAndIdleWorkersStop) {
  auto Workers = std::make_unique<DeviceWorkers>(2);
  Workers->wait();
  Workers->post(1, [] {});
  Workers->wait();
  Workers.reset(); // Joins the idle thread; a hang here fails by timeout.
  SUCCEED();
}
