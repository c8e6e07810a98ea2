//===- Timing.cpp - Timed runs, medians -----------------------------------===//
#include "Timing.h"

#include <algorithm>
#include <chrono>

namespace skmd::bench {

std::string timeRuns(unsigned Warmups, unsigned Runs, const Step &Reset, const Step &Run,
                     std::vector<double> &Ms, double LimitSeconds, bool LongWarmupCounts) {
  auto Since = [](std::chrono::steady_clock::time_point T) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
  };
  std::chrono::steady_clock::time_point Start;
  const double LimitMs = LimitSeconds * 1e3;
  for (unsigned I = 0; I < Warmups + Runs; ++I) {
    if (std::string E = Reset(); !E.empty())
      return E;
    // The limit counts from the first timed run: a warm-up may include
    // one-time work (a JIT, SKMD's profiling) that says nothing of a run.
    if (I == Warmups)
      Start = std::chrono::steady_clock::now();
    auto T0 = std::chrono::steady_clock::now();
    if (std::string E = Run(); !E.empty())
      return E;
    double T = Since(T0);
    if (I < Warmups) {
      if (LongWarmupCounts && LimitMs > 0 && T > LimitMs) {
        Ms.push_back(T);
        return "";
      }
      continue;
    }
    Ms.push_back(T);
    if (LimitMs > 0 && Since(Start) > LimitMs)
      return "";
  }
  return "";
}

double best(const std::vector<double> &V) {
  return V.empty() ? 0 : *std::min_element(V.begin(), V.end());
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (V[M - 1] + V[M]) / 2;
}

} // namespace skmd::bench
