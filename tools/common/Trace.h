//===- Trace.h - Operations on their engines as a Chrome trace ---*- C++ -*-===//
//
// What skmd-run --trace and batch-latency --trace write: a batch's
// operations (a launch's, or a user batch's), a row per engine (a device's
// copies in, its kernels, its copies out; the host), each as it ran
// (process 1, "measured") and as predicted (process 2), in the Chrome trace
// format that Perfetto and chrome://tracing open.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TOOLS_TRACE_H
#define SKMD_TOOLS_TRACE_H

#include <string>
#include <vector>

namespace skmd::tools {

struct TracedOperation {
  std::string Label, Engine;
  /// From the batch's start; not shown where it did not run.
  double StartMs = 0, EndMs = 0;
  bool Ran = true;
  /// Not shown where negative (no prediction).
  double PredictedStartMs = -1, PredictedEndMs = -1;
};

/// Writes \p Ops to \p Path (through a temporary file renamed into place:
/// a failed write leaves no partial trace), their category \p Category;
/// dies with a message when it cannot.
void writeTrace(const std::string &Path, const std::string &Category,
                const std::vector<TracedOperation> &Ops);

} // namespace skmd::tools

#endif // SKMD_TOOLS_TRACE_H
