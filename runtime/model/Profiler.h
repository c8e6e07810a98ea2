//===- Profiler.h - Dry runs that feed the performance model -----*- C++ -*-===//
//
// The paper's profiling mode (section 4): a kernel runs on one device over
// growing numbers of its groups, in steps of 4 up to 16 (where a device's
// time stops being flat is what the model must see), then doubling, up to
// the whole launch. Each count's best time of a few runs becomes a row of
// the profile database, keyed by kernel, device and launch shape; the
// regression model is fitted from those rows.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_MODEL_PROFILER_H
#define SKMD_MODEL_PROFILER_H

#include "launch/LaunchTypes.h"
#include "model/ProfileDatabase.h"
#include "model/RegressionModel.h"

#include <functional>
#include <string>
#include <vector>

namespace skmd {

/// A kernel's key in the database: source hash, compile options, name.
std::string kernelKey(const BundleMetadata &Meta, const KernelInfo &Kernel);
/// This host's name (gethostname, read once), "localhost" where it has none.
const std::string &hostName();
/// A device's key: its name, what it is, and the host it is on.
std::string deviceKey(const DeviceInfo &Device);

/// A launch's shape, as text for people and as the model's variables:
/// the buffers' total size (MB), each integer scalar's value, the
/// work-items of the launch.
struct LaunchShape {
  std::string Text;
  std::vector<double> Vars;
  uint64_t TotalGroups = 0;
};
LaunchShape launchShape(const KernelInfo &K, const std::vector<HostArg> &Args,
                        const NDRange &Range);

/// Writes over a host buffer twice the size of the last-level cache, so
/// that the next dry run finds its data in memory, as a launch's data
/// usually is: back-to-back dry runs over the same buffers otherwise run
/// from the caches, twice as fast as launches for memory-bound kernels on
/// the GPU hosts' CPUs.
void evictCaches();

/// 4, 8, 12, 16, then doubling, and \p Total last (only counts below it).
std::vector<uint64_t> profileCounts(uint64_t Total);

struct ProfileOptions {
  unsigned Runs = 2; ///< Passes over the counts; each count's best is kept.
  /// Called with a line per count, in the last pass.
  std::function<void(const std::string &)> Progress;
};

/// Profiles \p Kernel on device \p Device of \p Run with the launch given
/// by \p Args and \p Range (whose buffers it overwrites), writing a row per
/// count to \p Db.
Status profileDevice(GroupProfiler &Run, LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                     const NDRange &Range, unsigned Device, const DeviceInfo &Info,
                     ProfileDatabase &Db, const ProfileOptions &Options = {});

/// The kernel-time model of one kernel on one device, from its rows.
Result<RegressionModel> fitKernelModel(const std::vector<ProfileRow> &Rows);

} // namespace skmd

#endif // SKMD_MODEL_PROFILER_H
