//===- ThreadPool.cpp - Persistent workers for the CPU device -------------===//
#include "devices/cpu/ThreadPool.h"

#include <algorithm>
#include <cstdlib>

namespace skmd {

namespace {

/// SKMD_CPU_THREADS, or 0 when unset or not a positive number.
unsigned threadsFromEnvironment() {
  if (const char *Env = std::getenv("SKMD_CPU_THREADS")) {
    long N = std::strtol(Env, nullptr, 10);
    if (N >= 1)
      return static_cast<unsigned>(N);
  }
  return 0;
}

} // namespace

unsigned ThreadPool::defaultThreads() {
  if (unsigned N = threadsFromEnvironment())
    return N;
  return std::max(1u, std::thread::hardware_concurrency());
}

unsigned ThreadPool::idleCores(unsigned Threads) {
  unsigned Hardware = std::thread::hardware_concurrency();
  return Hardware > Threads ? Hardware - Threads : 0;
}

unsigned ThreadPool::computeThreads(unsigned Hardware, bool GpusInPlan) {
  if (unsigned N = threadsFromEnvironment())
    return N;
  Hardware = std::max(1u, Hardware);
  unsigned Spare = 1;
  if (const char *Env = std::getenv("SKMD_SPLIT_SPARE_CORES")) {
    long N = std::strtol(Env, nullptr, 10);
    if (N >= 0)
      Spare = unsigned(N);
  }
  return GpusInPlan ? std::max(1u, Hardware - std::min(Hardware - 1, Spare)) : Hardware;
}

ThreadPool::ThreadPool(unsigned Threads, bool LendsCores, unsigned IdleCores)
    : Wake(std::max(1u, Threads)), LendsCores(LendsCores), IdleCores(IdleCores) {
  for (unsigned I = 1; I < std::max(1u, Threads); ++I)
    Workers.emplace_back([this, I] { workerLoop(I); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
  }
  for (std::condition_variable &W : Wake)
    W.notify_one();
  for (std::thread &T : Workers)
    T.join();
}

void ThreadPool::runChunks(unsigned Worker) {
  if (Worker >= Active)
    return;
  HostCores &Cores = HostCores::instance();
  for (;;) {
    if (LendsCores && !mayRun(Worker, Cores.lent())) {
      // Until a copy gives its cores back or the job has no chunks left.
      // Sequentially consistent with the counter: a worker that takes
      // the last chunk sees this one parked, or this one sees no chunks.
      Parked.fetch_add(1);
      Cores.waitUntil([&](unsigned Lent) { return mayRun(Worker, Lent) || Next.load() >= Count; });
      Parked.fetch_sub(1);
      if (Next.load() >= Count)
        return;
      continue;
    }
    uint64_t Begin = Next.fetch_add(Chunk);
    if (Begin >= Count) {
      if (Parked.load())
        Cores.wake();
      return;
    }
    (*Body)(Worker, Begin, std::min(Count, Begin + Chunk));
  }
}

void ThreadPool::workerLoop(unsigned Id) {
  uint64_t Seen = 0;
  for (;;) {
    {
      // Only the job's first Active workers are woken and counted in Busy.
      std::unique_lock<std::mutex> G(Lock);
      Wake[Id].wait(G, [&] { return Stopping || (Generation != Seen && Id < Active); });
      if (Stopping)
        return;
      Seen = Generation;
    }
    runChunks(Id);
    std::lock_guard<std::mutex> G(Lock);
    if (--Busy == 0)
      Finished.notify_one();
  }
}

void ThreadPool::parallelFor(
    uint64_t N, uint64_t ChunkSize,
    const std::function<void(unsigned, uint64_t, uint64_t)> &Fn,
    unsigned MaxThreads) {
  if (N == 0)
    return;
  ChunkSize = std::max<uint64_t>(1, ChunkSize);
  // No more workers than chunks: a launch of one group wakes nobody.
  uint64_t Chunks = (N + ChunkSize - 1) / ChunkSize;
  unsigned Threads = unsigned(
      std::min<uint64_t>(MaxThreads ? std::min(MaxThreads, size()) : size(), Chunks));
  if (Threads == 1) {
    for (uint64_t Begin = 0; Begin < N; Begin += ChunkSize)
      Fn(0, Begin, std::min(N, Begin + ChunkSize));
    return;
  }
  {
    std::lock_guard<std::mutex> G(Lock);
    Body = &Fn;
    Active = Threads;
    Count = N;
    Chunk = ChunkSize;
    Next.store(0, std::memory_order_relaxed);
    Busy = Threads - 1;
    ++Generation;
  }
  for (unsigned I = 1; I < Threads; ++I)
    Wake[I].notify_one();
  runChunks(0);
  std::unique_lock<std::mutex> G(Lock);
  Finished.wait(G, [&] { return Busy == 0; });
  Body = nullptr;
}

} // namespace skmd
