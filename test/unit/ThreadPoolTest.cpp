//===- ThreadPoolTest.cpp - The CPU device's persistent workers ------------===//
#include "devices/cpu/ThreadPool.h"
#include "devices/HostCores.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <mutex>
#include <set>

using namespace skmd;

namespace {

/// Which workers ran, and how often each index was visited.
struct Visits {
  std::mutex Lock;
  std::set<unsigned> Workers;
  std::vector<int> Count;

  explicit Visits(size_t N) : Count(N, 0) {}
  void operator()(unsigned Worker, uint64_t Begin, uint64_t End) {
    std::lock_guard<std::mutex> G(Lock);
    Workers.insert(Worker);
    for (uint64_t I = Begin; I < End; ++I)
      ++Count[I];
  }
};

TEST(ThreadPool, EveryIndexOnceInChunks) {
  ThreadPool Pool(4);
  Visits V(1003);
  Pool.parallelFor(1003, 7, [&](unsigned W, uint64_t B, uint64_t E) { V(W, B, E); });
  for (int C : V.Count)
    ASSERT_EQ(C, 1);
  for (unsigned W : V.Workers)
    EXPECT_LT(W, 4u);
}

TEST(ThreadPool, ThreadLimitKeepsTheOtherWorkersIdle) {
  ThreadPool Pool(4);
  for (int Round = 0; Round < 20; ++Round) {
    Visits V(500);
    Pool.parallelFor(
        500, 1, [&](unsigned W, uint64_t B, uint64_t E) { V(W, B, E); }, 2);
    for (int C : V.Count)
      ASSERT_EQ(C, 1);
    for (unsigned W : V.Workers)
      ASSERT_LT(W, 2u) << "worker " << W << " ran under a limit of 2";
  }
  // The limit is per call: the next call may use every worker again.
  Visits All(100);
  Pool.parallelFor(100, 1, [&](unsigned W, uint64_t B, uint64_t E) { All(W, B, E); });
  for (int C : All.Count)
    ASSERT_EQ(C, 1);
}

// A job of fewer chunks than workers wakes only as many as it has chunks;
// a job of one chunk runs on the calling thread, waking none.
TEST(ThreadPool, NoMoreWorkersThanChunks) {
  ThreadPool Pool(4);
  for (int Round = 0; Round < 20; ++Round) {
    std::thread::id Caller = std::this_thread::get_id(), Ran;
    Pool.parallelFor(1, 1, [&](unsigned W, uint64_t, uint64_t) {
      EXPECT_EQ(W, 0u);
      Ran = std::this_thread::get_id();
    });
    EXPECT_EQ(Ran, Caller);
    Visits Two(2);
    Pool.parallelFor(2, 1, [&](unsigned W, uint64_t B, uint64_t E) { Two(W, B, E); });
    for (int C : Two.Count)
      ASSERT_EQ(C, 1);
    for (unsigned W : Two.Workers)
      ASSERT_LT(W, 2u) << "worker " << W << " ran a job of 2 chunks";
    Visits Chunked(10);
    Pool.parallelFor(10, 5, [&](unsigned W, uint64_t B, uint64_t E) { Chunked(W, B, E); });
    for (int C : Chunked.Count)
      ASSERT_EQ(C, 1);
  }
}

TEST(ThreadPool, OneCoreStaysFreeWhenGpusShareTheLaunch) {
  unsetenv("SKMD_CPU_THREADS");
  EXPECT_EQ(ThreadPool::computeThreads(16, false), 16u);
  EXPECT_EQ(ThreadPool::computeThreads(16, true), 15u);
  EXPECT_EQ(ThreadPool::computeThreads(1, true), 1u); // Never zero.
  EXPECT_EQ(ThreadPool::computeThreads(0, false), 1u);
  // The user's setting is final, GPUs or not.
  setenv("SKMD_CPU_THREADS", "3", 1);
  EXPECT_EQ(ThreadPool::computeThreads(16, true), 3u);
  EXPECT_EQ(ThreadPool::defaultThreads(), 3u);
  setenv("SKMD_CPU_THREADS", "zero", 1); // Not a number: ignored.
  EXPECT_EQ(ThreadPool::computeThreads(16, true), 15u);
  unsetenv("SKMD_CPU_THREADS");
}

/// How many bodies run at once, at most, while Phase is 0 and after.
struct Concurrency {
  std::atomic<int> Now{0}, Phase{0};
  std::atomic<int> Peak[2] = {0, 0};
  void operator()() {
    int N = ++Now, P = Phase.load();
    for (int Seen = Peak[P].load(); N > Seen && !Peak[P].compare_exchange_weak(Seen, N);)
      ;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --Now;
  }
};

// While copies hold cores lent by the CPU device's pool, as many of its
// workers park between chunks (one always runs); when the copies give
// them back, the parked workers take chunks again in the same job. A pool
// that does not lend (a copier pool, a HostDiscrete device's) ignores it.
TEST(ThreadPool, WorkersParkWhileCoresAreLentToCopies) {
  ASSERT_TRUE(HostCores::lending()) << "SKMD_STAGING_LEND=0 in the environment";
  HostCores &Cores = HostCores::instance();
  ThreadPool Pool(4, /*LendsCores=*/true);
  auto Loan = Cores.borrow(2);
  EXPECT_EQ(Cores.lent(), 2u);
  Concurrency Two;
  Pool.parallelFor(40, 1, [&](unsigned, uint64_t, uint64_t) { Two(); });
  EXPECT_LE(Two.Peak[0].load(), 2) << "2 of 4 workers with 2 cores lent";
  {
    // More than the pool has: its first worker still runs.
    auto More = Cores.borrow(10);
    std::atomic<unsigned> Others{0};
    Pool.parallelFor(20, 1, [&](unsigned W, uint64_t, uint64_t) { Others += W != 0; });
    EXPECT_EQ(Others.load(), 0u);
  }
  // Given back during a job: the parked workers join it.
  Concurrency Back;
  std::thread Copy([&, L = std::move(Loan)]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    Back.Phase = 1;
    L.end();
  });
  Pool.parallelFor(400, 1, [&](unsigned, uint64_t, uint64_t) { Back(); });
  Copy.join();
  EXPECT_EQ(Cores.lent(), 0u);
  EXPECT_LE(Back.Peak[0].load(), 2);
  EXPECT_GT(Back.Peak[1].load(), 2) << "the workers came back with the cores";

  // A pool on fewer threads than the host has: copies take the idle cores
  // first (2 here), then the pool's.
  ThreadPool Small(4, /*LendsCores=*/true, /*IdleCores=*/2);
  {
    auto Two = Cores.borrow(2);
    Concurrency All;
    Small.parallelFor(40, 1, [&](unsigned, uint64_t, uint64_t) { All(); });
    EXPECT_GT(All.Peak[0].load(), 2) << "2 lent, 2 idle: no worker parks";
    auto One = Cores.borrow(1);
    Concurrency Three;
    Small.parallelFor(40, 1, [&](unsigned, uint64_t, uint64_t) { Three(); });
    EXPECT_LE(Three.Peak[0].load(), 3) << "3 lent, 2 idle: one worker parks";
  }

  ThreadPool Copiers(4);
  Concurrency Free;
  auto Copying = Cores.borrow(3);
  Copiers.parallelFor(40, 1, [&](unsigned, uint64_t, uint64_t) { Free(); });
  EXPECT_GT(Free.Peak[0].load(), 1) << "a pool that does not lend";
}

} // namespace

#include "devices/cuda/StagingPool.h"

namespace {

TEST(StagingChunks, CoverTheCopyInOrderAndRampAtBothEnds) {
  const uint64_t Chunk = 4 << 20;
  for (uint64_t Bytes : {uint64_t(0), uint64_t(1), uint64_t(100), Chunk - 1, Chunk,
                         3 * Chunk + 5, uint64_t(256) << 20}) {
    auto Pieces = skmd::stagingChunks(Bytes, Chunk);
    uint64_t Next = 0;
    for (auto [Off, Size] : Pieces) {
      EXPECT_EQ(Off, Next);
      EXPECT_GT(Size, 0u);
      EXPECT_LE(Size, Chunk);
      Next += Size;
    }
    EXPECT_EQ(Next, Bytes);
  }
  auto Big = skmd::stagingChunks(uint64_t(256) << 20, Chunk);
  ASSERT_GE(Big.size(), 6u);
  EXPECT_EQ(Big.front().second, Chunk / 8);
  EXPECT_EQ(Big[1].second, Chunk / 4);
  EXPECT_EQ(Big[3].second, Chunk);
  EXPECT_EQ(Big.back().second, Chunk / 8);
}

} // namespace
