//===- ThreadPool.h - Persistent workers for the CPU device ------*- C++ -*-===//
//
// Threads are started once and reused for every launch. parallelFor hands
// out chunks of an index range through one atomic counter (dynamic
// scheduling), so uneven groups balance themselves. The CPU device's pool
// lends cores to copies (devices/HostCores.h): while copies hold some, as
// many of its workers park between chunks.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CPU_THREADPOOL_H
#define SKMD_DEVICES_CPU_THREADPOOL_H

#include "devices/HostCores.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace skmd {

class ThreadPool {
public:
  /// \p Threads workers in all, the calling thread included; with
  /// \p LendsCores, only those the copies leave (HostCores) take chunks,
  /// the copies first taking the host's \p IdleCores that no worker uses.
  explicit ThreadPool(unsigned Threads, bool LendsCores = false, unsigned IdleCores = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned size() const { return static_cast<unsigned>(Workers.size()) + 1; }

  /// Runs Body(Worker, Begin, End) over [0, Count) in chunks of \p Chunk,
  /// on the caller (worker 0) and workers 1 to \p MaxThreads - 1 (every
  /// worker when 0); returns when all chunks are done.
  void parallelFor(uint64_t Count, uint64_t Chunk,
                   const std::function<void(unsigned, uint64_t, uint64_t)> &Body,
                   unsigned MaxThreads = 0);

  /// SKMD_CPU_THREADS if set (at least 1), else the hardware threads.
  static unsigned defaultThreads();
  /// The host's hardware threads that a pool of \p Threads leaves idle.
  static unsigned idleCores(unsigned Threads);

  /// The threads the CPU device computes on in a launch: SKMD_CPU_THREADS
  /// if set (the user's word is final), else \p Hardware, less
  /// SKMD_SPLIT_SPARE_CORES (default 1) when GPUs share the launch, so
  /// that the threads driving them (copies, launches, merging as each
  /// finishes) have cores.
  static unsigned computeThreads(unsigned Hardware, bool GpusInPlan);

private:
  void workerLoop(unsigned Id);
  void runChunks(unsigned Worker);
  /// Whether \p Worker may take a chunk with \p Lent cores lent: the
  /// first workers of the job's, at least one.
  bool mayRun(unsigned Worker, unsigned Lent) const {
    return Worker < HostCores::threadsLeft(Active, Lent, IdleCores);
  }

  std::vector<std::thread> Workers;
  std::mutex Lock;
  /// One per worker (0, the caller, unused): a job wakes only the workers
  /// it uses. Sized once, never moved.
  std::vector<std::condition_variable> Wake;
  std::condition_variable Finished;
  uint64_t Generation = 0;
  unsigned Busy = 0;
  bool Stopping = false;

  // The job being run.
  const std::function<void(unsigned, uint64_t, uint64_t)> *Body = nullptr;
  uint64_t Count = 0, Chunk = 1;
  unsigned Active = 0;
  std::atomic<uint64_t> Next{0};
  const bool LendsCores;
  const unsigned IdleCores;
  /// Workers of the job parked for lent cores.
  std::atomic<unsigned> Parked{0};
};

} // namespace skmd

#endif // SKMD_DEVICES_CPU_THREADPOOL_H
