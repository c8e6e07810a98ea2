//===- UserBatch.h - A batch of copies and kernel pieces the user lays out -*- C++ -*-===//
//
// What skmd_batch_* builds (docs/batch.md): copies of a buffer's byte range
// between host memory and a device or between two devices, and kernel
// pieces (a range of a launch's groups on one device, with the arguments
// as they were set), each after the operations it names. The planner
// predicts it from the route table and the kernels' profiles
// (PlanChooser::batchModel); the launcher runs it by the batch engine
// (Launcher::runBatch), in the session's turn, after every launch before it.
//
// A batch moves only what it says: a kernel piece runs on bytes the
// batch (or an earlier launch) made current on its device, and fails,
// naming the bytes, where they are not; its results stay on the device
// until a copy brings them back. A buffer over the user's own memory
// (skmd_wrap_buffer) has every byte back in it when the batch ends, as
// after a launch.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_LAUNCH_USERBATCH_H
#define SKMD_LAUNCH_USERBATCH_H

#include "executor/BatchEngine.h"
#include "buffers/BufferObject.h"
#include "buffers/Transfers.h"
#include "launch/LaunchTypes.h"

#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace skmd {

struct BatchCopyOp {
  BufferObject *Buffer = nullptr;
  uint64_t Offset = 0, Bytes = 0;
  /// A device index, or HostSide.
  int From = HostSide, To = HostSide;
};

struct BatchKernelOp {
  LoadedKernel *Kernel = nullptr;
  std::vector<HostArg> Args;
  NDRange Range;
  unsigned Device = 0;
  uint64_t First = 0, Count = 0;
};

struct UserBatch {
  struct Op {
    std::variant<BatchCopyOp, BatchKernelOp> What;
    std::vector<unsigned> After;
  };
  std::vector<Op> Ops;
  /// After a run: both timelines per operation.
  BatchReport Report;
  bool Ran = false;
};

/// Whether \p B is well formed on \p Devices: every operation after ones
/// before it, copies between real sides, kernel pieces within their launch
/// on the context's buffers (not views: \p IsView).
Status checkUserBatch(const UserBatch &B, const std::vector<Device *> &Devices,
                      const std::function<bool(const BufferObject *)> &IsView);

} // namespace skmd

#endif // SKMD_LAUNCH_USERBATCH_H
