//===- OpenCL.h - A Problem on an OpenCL driver's device --------*- C++ -*-===//
//
// The vendors' OpenCL drivers (PoCL for the CPU, NVIDIA's for its GPUs),
// reached through the ICD loader, running an application's original kernel
// from its OpenCL C source. Two ways to place the buffers:
//   - InPlace: the driver computes on the host arrays themselves
//     (CL_MEM_USE_HOST_PTR); a run is the launches alone (cpu-vs-pocl);
//   - Copied: buffers in the device's memory; a run writes the inputs from
//     the (pageable) host arrays, runs the launches, and reads the outputs
//     back: end to end, as a user's program does (skmd-bench).
// Built without OpenCL, list() finds nothing and says why.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BENCH_SUITE_OPENCL_H
#define SKMD_BENCH_SUITE_OPENCL_H

#include "Problem.h"

#include <memory>
#include <string>
#include <vector>

namespace skmd::bench {

/// One device of one OpenCL platform.
struct ClDeviceInfo {
  std::string Platform; ///< CL_PLATFORM_NAME, e.g. "Portable Computing Language".
  std::string Name;     ///< CL_DEVICE_NAME.
  std::string Version;  ///< CL_PLATFORM_VERSION.
  bool IsCpu = false, IsGpu = false;
  unsigned ComputeUnits = 0;
  void *PlatformId = nullptr, *DeviceId = nullptr;

  /// "pocl-cpu", "nvidia-gpu0" ...: short, for tables and --opencl.
  std::string Label;
};

/// Every device of every OpenCL platform; empty with the reason in \p Why.
std::vector<ClDeviceInfo> listOpenClDevices(std::string &Why);

/// A Problem prepared on one device: program built, kernels made with their
/// arguments, buffers allocated.
class ClProblemRun {
public:
  enum class Placement { InPlace, Copied };

  ~ClProblemRun();
  /// Builds \p Source (OpenCL C 1.2) for \p D and prepares \p P with
  /// outputs in \p Out (allocated there unless an earlier run left them
  /// the right size); null with the error in \p Why.
  static std::unique_ptr<ClProblemRun> prepare(const ClDeviceInfo &D, const std::string &Source,
                                               const Problem &P, Placement Where, Outputs &Out,
                                               std::string &Why);

  /// Sets the outputs to their initial contents (untimed part of a run).
  std::string reset();
  /// One run: with Copied placement, inputs in, launches, outputs out;
  /// with InPlace, the launches. Returns an error or "".
  std::string run();
  /// Makes \p Out hold the results of the last run (InPlace: maps them).
  std::string collect();

private:
  struct State;
  explicit ClProblemRun(std::unique_ptr<State> S);
  std::unique_ptr<State> S;
};

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_OPENCL_H
