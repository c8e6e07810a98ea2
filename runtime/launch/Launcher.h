//===- Launcher.h - One kernel on several devices at once --------*- C++ -*-===//
//
// Runs a launch given as pieces (a device and its range of groups):
//
//   1. checks the arguments, buffer sizes and pieces against the kernel;
//   2. plans the bytes each piece reads and writes (buffers/Transfers.h)
//      and, from each buffer's residency (buffers/BufferObject.h), the
//      bytes that move: only those whose newest copy is elsewhere;
//   3. builds the launch as a batch (executor/BatchEngine.h) and runs it: per
//      device piece, copy in, kernel, copy out (of what must come back),
//      merge on the host; per CPU piece, the kernel on the user's memory,
//      beside the copies that need the host's cores (pageable memory
//      staged for a GPU, a HostDiscrete device's copies) on the cores they
//      leave (devices/HostCores.h; run against them on the same cores,
//      both slowed down several times on an H100 host); and first, the
//      copies to the host of bytes that pieces read but only another
//      device holds;
//      Where several devices each need the same input bytes and reach
//      each other faster than the host (batch/PeerExchange.h), each gets
//      a part from the host and the parts go between them first;
//   4. records where each byte now is.
//
// Device failures: a device that fails (in a copy or the kernel) has
// written nothing to the user's buffers (its results go through staging,
// which only a successful device's are copied from). Its copies of the
// launch's buffers are released, what only it held brought back where it
// can be, and its groups run again on the CPU from the newest valid copy
// of their inputs; so when launch() returns, every output is complete and
// correct, and the launch still reports ErrorCode::DeviceFailed, naming
// the device, the step and the groups re-run.
//
// SKMD_INJECT_FAULT=<device>:<step> (step: copy-in, kernel, copy-out)
// makes that device fail at that step, to test this path.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_LAUNCH_LAUNCHER_H
#define SKMD_LAUNCH_LAUNCHER_H

#include "batch/Prediction.h"
#include "buffers/BufferObject.h"
#include "buffers/Transfers.h"
#include "devices/Device.h"
#include "devices/cpu/CpuDevice.h"
#include "executor/DeviceWorkers.h"
#include "launch/LaunchGraph.h"
#include "launch/LaunchTypes.h"
#include "launch/UserBatch.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

class Launcher : public GroupProfiler {
public:
  /// \p Devices: every device of the context, the CPU among them (it
  /// merges, and re-runs the groups of a device that fails).
  Launcher(std::vector<Device *> Devices, CpuDevice &Cpu);

  /// Runs \p Pieces; fills \p Report even when it fails. A failure before
  /// any device ran (bad arguments, a plan the kernel cannot take) leaves
  /// every buffer untouched. \p Predicted, per device where given: the
  /// times the plan predicts of its work (InMs, KernelMs, OutMs), told to
  /// each device with its own memory as its step begins
  /// (Device::beginStep) with the step's runs, groups and copies out.
  Status run(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
             const NDRange &Range, const std::vector<Piece> &Pieces,
             LaunchReport &Report, const std::vector<StepForecast> *Predicted = nullptr);

  /// A dry run for the profiler: groups [0, \p Count) alone on \p Device,
  /// with the same transfers a launch would make; the other groups do not
  /// run (their outputs are left as they were).
  Status profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                 const NDRange &Range, unsigned Device, uint64_t Count,
                 PieceReport &Report) override;

  /// Runs the user's batch \p B (launch/UserBatch.h, checked) on the
  /// machine \p M, its operations modelled as \p Model: in the order the
  /// prediction finds soonest where \p Predicted, else as added.
  Status runBatch(UserBatch &B, const BatchMachine &M, const std::vector<BatchOp> &Model,
                  bool Predicted);

  const std::vector<Device *> &devices() const { return Devices; }
  /// Every buffer object of this launcher's devices.
  Residency &residency() { return Buffers; }
  /// Loads \p Kernel on device \p Device (its program's module, loaded
  /// once), where it is not yet.
  Status load(LoadedKernel &Kernel, unsigned Device);
  /// The threads of the devices' lanes (batches run their schedules on
  /// them between launches).
  DeviceWorkers &workers() { return Workers; }
  /// The machine's routes where they are known (null: not measured yet),
  /// for inputs exchanged between devices (batch/PeerExchange.h); its
  /// devices are this launcher's, in its order. Asked by a launch whose
  /// devices share enough input bytes to exchange; never measured by it.
  void setMachine(std::function<const BatchMachine *()> Known) {
    KnownMachine = std::move(Known);
  }

private:
  struct LaunchState;
  Status runPieces(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                   const NDRange &Range, const std::vector<Piece> &Pieces,
                   bool CoverAll, LaunchReport &Report,
                   const std::vector<StepForecast> *Predicted = nullptr);
  /// Tells each device with pieces of its own memory that its step begins.
  void announceSteps(const LaunchState &L, const std::vector<StepForecast> *Predicted);
  Status checkPieces(const KernelInfo &K, const NDRange &Range,
                     const std::vector<Piece> &Pieces, bool CoverAll) const;
  void prepareResidency(LaunchState &L);
  /// The launch's graph (launch/LaunchGraph.h) with each operation's
  /// work.
  void buildBatch(LaunchState &L);
  /// The inputs the launch's devices exchange, where it pays; the
  /// machine's routes where they do.
  const BatchMachine *planExchange(LaunchState &L);
  GraphPiece describePiece(const LaunchState &L, size_t P) const;
  void attachExchange(LaunchState &L, const std::vector<unsigned> &Ops);
  void attachDevicePiece(LaunchState &L, size_t P);
  Status mergePiece(LaunchState &L, size_t P);
  Status recover(LaunchState &L, std::string &Failed);
  void commitResidency(LaunchState &L);
  void fillReport(LaunchState &L, const std::vector<Piece> &Pieces, LaunchReport &Report);

  std::vector<Device *> Devices;
  CpuDevice &Cpu;
  unsigned CpuIndex = 0;
  MovesCache Moves;
  /// The devices as the batch engine sees them (no routes: a launch's
  /// batch runs unpredicted).
  BatchMachine Engines;
  std::function<const BatchMachine *()> KnownMachine;
  /// Declared before the workers: objects outlive no launch.
  Residency Buffers;
  /// Declared last: destroyed first, its threads idle, before the rest.
  DeviceWorkers Workers;
};

/// The device arguments for a device on the user's own memory.
std::vector<DeviceArg> hostDeviceArgs(const std::vector<HostArg> &Args);

} // namespace skmd

#endif // SKMD_LAUNCH_LAUNCHER_H
