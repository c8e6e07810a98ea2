//===- Timing.h - Timed runs, medians ---------------------------*- C++ -*-===//
#ifndef SKMD_BENCH_SUITE_TIMING_H
#define SKMD_BENCH_SUITE_TIMING_H

#include <functional>
#include <string>
#include <vector>

namespace skmd::bench {

using Step = std::function<std::string()>; ///< Returns an error, or "".

/// Runs Reset (untimed) and Run \p Warmups times untimed and then \p Runs
/// times timed, appending Run's times (ms) to \p Ms. Returns the first
/// error. With a \p LimitSeconds, the timed runs stop once they have taken
/// that long, after one at least; and with \p LongWarmupCounts, a warm-up
/// that alone took that long is the timed run (whatever one-time work it
/// did is small beside it: PoCL's matmul at the paper's size takes 69 s a
/// run, which four times made cpu-vs-pocl outlast a 10-minute call).
std::string timeRuns(unsigned Warmups, unsigned Runs, const Step &Reset, const Step &Run,
                     std::vector<double> &Ms, double LimitSeconds = 0,
                     bool LongWarmupCounts = false);

double best(const std::vector<double> &V);
double median(std::vector<double> V);

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_TIMING_H
