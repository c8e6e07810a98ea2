//===- StartedThreads.h - Timing work on threads started beforehand -*- C++ -*-===//
//
// Creating and joining a thread costs tens of microseconds (an empty
// std::thread: 0.49 ms for 16 on the development VM): timed with the work,
// it inflates short copies by a few percent and, with 32-64 threads, a
// 3 ms baseline by a third. Both the staging-capacity measurement and
// merge-bandwidth's memcpy baseline time this way instead.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_STARTEDTHREADS_H
#define SKMD_SUPPORT_STARTEDTHREADS_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace skmd {

/// Runs \p Body(I) for every I in [0, \p N), each on a thread of its own,
/// all let go at once after every thread is started; returns the ms from
/// that release to the end of the last one.
template <typename F> double msFromRelease(size_t N, F &&Body) {
  using Clock = std::chrono::steady_clock;
  std::atomic<bool> Go{false};
  std::vector<Clock::time_point> Done(N);
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < N; ++I)
    Threads.emplace_back([&, I] {
      while (!Go.load(std::memory_order_acquire))
        std::this_thread::yield();
      Body(I);
      Done[I] = Clock::now();
    });
  auto Start = Clock::now();
  Go.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  if (N == 0)
    return 0;
  return std::chrono::duration<double, std::milli>(*std::max_element(Done.begin(), Done.end()) -
                                                   Start)
      .count();
}

} // namespace skmd

#endif // SKMD_SUPPORT_STARTEDTHREADS_H
