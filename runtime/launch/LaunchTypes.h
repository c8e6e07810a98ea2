//===- LaunchTypes.h - A loaded kernel and what its launch reports -*- C++ -*-===//
//
// The launch's types that the layers above the launcher read (the model,
// the planner, --explain, the session): a kernel loaded on the devices and
// the report of one launch, piece by piece and operation by operation.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_LAUNCH_LAUNCHTYPES_H
#define SKMD_LAUNCH_LAUNCHTYPES_H

#include "buffers/Transfers.h"
#include "devices/Device.h"
#include "devices/NDRange.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skmd {

/// What one piece took.
struct PieceReport {
  std::string Device;
  uint64_t First = 0, Count = 0;
  double InputMs = 0, KernelMs = 0, OutputMs = 0, MergeMs = 0;
  /// When each step began, in ms from the launch's start (for traces).
  double InputAt = 0, KernelAt = 0, OutputAt = 0, MergeAt = 0;
  uint64_t BytesIn = 0, BytesOut = 0;
  /// Set when the device failed and the CPU re-ran its groups.
  std::string Failure;
  /// The chunks it ran in (Piece::Chunks); each step's time spans them
  /// all, from the first chunk's start to the last one's end.
  unsigned Chunks = 1;
};

/// One operation of a launch's batch as it ran.
struct OperationReport {
  std::string Label;  ///< "copy in gpu0 [0, 512)"
  std::string Engine; ///< "gpu0 copies in", "gpu0 kernels", "host" (engineName)
  double StartMs = 0, EndMs = 0;
  bool Ran = false; ///< Done or failed; false where skipped.
};

struct LaunchReport {
  std::vector<PieceReport> Pieces;
  /// The launch's batch, in the order built (the plan's prediction has
  /// the same operations: planning/ModelPlanner.h).
  std::vector<OperationReport> Operations;
  /// Checking the arguments, loading the kernel where it is not loaded yet
  /// (a GPU's JIT on its first launch) and planning the bytes moved.
  double PlanMs = 0;
  double TotalMs = 0;
  /// Bytes brought to the host before the pieces ran, because a piece
  /// read them and only a device held them (resident buffers).
  uint64_t BytesToHost = 0;
  double ToHostMs = 0;
};

/// A bundle loaded on the devices: per device (the launcher's order) its
/// module, loaded with the first kernel that runs there, shared by every
/// kernel of the bundle.
struct LoadedProgram {
  const Bundle *Source = nullptr;
  std::vector<std::shared_ptr<DeviceModule>> OnDevice;
};

/// A kernel loaded on the devices a launch may use.
struct LoadedKernel {
  const Bundle *Source = nullptr;
  const KernelInfo *Info = nullptr;
  /// Its program, whose modules it takes; null: a module of its own.
  LoadedProgram *Program = nullptr;
  /// Per device (same order as the launcher's devices); null where the
  /// kernel is not loaded yet. Launcher::run loads what a plan needs.
  std::vector<std::unique_ptr<DeviceKernel>> OnDevice;
};

/// What the model measures a kernel through: groups [0, Count) of a launch
/// alone on device \p Device (an index into the launcher's devices), with
/// the transfers a launch of them would make; the other groups do not run.
class GroupProfiler {
public:
  virtual ~GroupProfiler() = default;
  virtual Status profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                         const NDRange &Range, unsigned Device, uint64_t Count,
                         PieceReport &Report) = 0;
};

} // namespace skmd

#endif // SKMD_LAUNCH_LAUNCHTYPES_H
