//===- ModelPlanner.h - Plans from the performance model ---------*- C++ -*-===//
//
// Turns a launch into the partitioner's problem and solves it:
//
//   kernel time   per device, the regression model fitted to that device's
//                 profiles of this kernel (model/RegressionModel.h);
//   copies        the bytes a piece of n groups moves (from the footprints,
//                 planned for pieces of a few sizes and interpolated), at
//                 the device's link costs for the host memory each buffer
//                 is in (model/LinkModel.h);
//   merge         the bytes the host copies or merges after an offloaded
//                 piece, at the host's memcpy cost;
//   links         each device has a link of its own; the copies the
//                 host's cores make for several devices (pageable memory
//                 staged for GPUs, HostDiscrete devices' memcpy) share
//                 the host's measured staging capacity;
//   cores         devices that compute on the host's cores (the CPU,
//                 HostDiscrete) slow down together when a split launch
//                 has more of their threads than the host has
//                 (hostCoreShare).
//
// The launch's time: the plan's batch (launch/Launcher.h runs every
// launch as one), each piece's copies, kernel and merge at the times
// above, simulated on the machine's route table (batch/Prediction.h), which
// says how copies, the CPU's kernel and merges slow each other down;
// without a route table, Algorithm 1's own estimate (EstAllDevsTime).
//
// A device whose profiles are too few for the launch (fewer than 4 rows at
// this launch's shape, and no 3 shapes around it) makes planning fail with
// NotFound, unless automatic profiling (SKMD_PROFILE=auto) is on: then the
// kernel is profiled on that device first, on copies of the buffers it
// writes, with a line of progress per step.
//
// Problems and their solved plans are cached per kernel, launch shape and
// host memory kinds (a launch of the same shape replans in microseconds);
// new profiles clear the cache.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_MODELPLANNER_H
#define SKMD_PLANNING_MODELPLANNER_H

#include "batch/Prediction.h"
#include "launch/LaunchGraph.h"
#include "launch/LaunchTypes.h"
#include "model/LinkModel.h"
#include "model/ProfileDatabase.h"
#include "model/Profiler.h"
#include "model/RegressionModel.h"
#include "planning/Partitioner.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// How much slower each device that computes on the host's cores runs
/// in a split launch: the CPU device's \p CpuThreads (those it computes
/// with when it shares a launch) and \p DeviceThreads of each other such
/// device, over \p HardwareThreads; at least 1. Their profiles were taken
/// one device at a time, each with the cores to itself.
/// The profiled copy times one way (\p In) of the launch shape \p Shape:
/// per group count profiled, in order, the median of its samples, each
/// sample taken as the median of every sample that moved as many bytes
/// (they copied the same: a buffer whole whatever the count, a result of
/// fixed size), so that one slow sample does not become the copy's time.
/// (Histogram on the H100 host: 2 MB out, sampled at 0.23-3.3 ms, 3.3 at
/// the launch's own count; the plan took the CPU where the GPU, whose copy
/// took 0.3 ms in the runs, was 20% faster.) Empty below three counts.
std::vector<std::pair<uint64_t, double>>
profiledCopyTimes(const std::vector<ProfileRow> &Rows, const std::string &Shape, bool In);

double hostCoreShare(unsigned CpuThreads, const std::vector<unsigned> &DeviceThreads,
                     unsigned HardwareThreads);

/// What the model predicts for one device's piece.
struct DevicePrediction {
  std::string Device;
  /// Each step over all of the piece's chunks (they overlap).
  double InputMs = 0, KernelMs = 0, OutputMs = 0, MergeMs = 0;
  /// When the device is done: after the inputs of devices before it on
  /// its link, its inputs, kernel and outputs (pipelined in Chunks).
  double DoneMs = 0;
  unsigned Chunks = 1;
};

/// A plan, with what the model expects of it.
struct ModelPlan {
  std::string Method; ///< "auto", "linear", or the plan it predicts
  std::vector<Piece> Pieces;
  std::vector<uint64_t> Groups;            ///< Per device.
  std::vector<DevicePrediction> Predicted; ///< Per device; zeros if idle.
  /// The launch: its batch's simulated time where the planner has the
  /// machine's routes, else EstimatedMs.
  double PredictedMs = 0;
  /// Algorithm 1's own estimate of the launch (EstAllDevsTime).
  double EstimatedMs = 0;
  /// The launch's batch as predicted (labels as the launcher's:
  /// LaunchReport::Operations); empty without the machine's routes.
  struct PlannedOperation {
    std::string Label;
    double StartMs = 0, EndMs = 0;
  };
  std::vector<PlannedOperation> Batch;
  std::vector<double> AloneMs; ///< Each device with every group.
  unsigned Steps = 0;          ///< Algorithm 1's moves.
  /// Algorithm 1's best split, when it gained too little to be taken
  /// (PartitionResult::RefusedSplitMs); else 0.
  double RefusedSplitMs = 0;
  double PartitionUs = 0;      ///< Solving, model built.
  double BuildMs = 0;          ///< Building the problem (models, bytes).
  /// How many devices' staged copies the host sustains at once (infinite
  /// when fewer than two devices stage).
  double StagedInCapacity = INFINITY, StagedOutCapacity = INFINITY;
  /// The least time any split could take (planning/Bound.h), and what
  /// holds it there.
  double BoundMs = 0;
  std::string BoundLimit;
  /// The kernel, its launch shape, the host memory kinds and the shared
  /// devices' loads: what the plan was made for (plan() only). Launches
  /// of one key get the same plan.
  std::string ShapeKey;
};

class ModelPlanner {
public:
  /// Single: the fastest device alone (for a launch whose split the
  /// launch-time test refused).
  enum class Method { Auto, Linear, Single };

  /// \p Devices: the launcher's, \p CpuIndex the CPU among them.
  ModelPlanner(std::vector<Device *> Devices, unsigned CpuIndex, GroupProfiler &Run);
  ~ModelPlanner();

  /// The database, at the path set or the default place; opened at the
  /// first use. Until something is recorded a missing file is not
  /// created (\p Create false): planning alone leaves no file behind.
  Result<ProfileDatabase *> database(bool Create = true);
  void setDatabasePath(std::string Path) { DbPath = std::move(Path); }
  /// Where the machine's route table comes from (PlanChooser: the routes
  /// the profile database holds; null while it holds none); without one,
  /// launches are predicted by Algorithm 1's estimate alone.
  void setMachine(std::function<Result<const BatchMachine *>()> F) { MachineOf = std::move(F); }
  /// Profile devices with too few profiles before planning.
  void setAutoProfile(bool On) { AutoProfile = On; }
  /// Where profiling reports its progress (default: nowhere).
  void setProgress(std::function<void(const std::string &)> F) { Progress = std::move(F); }

  /// A plan by \p How for the launch.
  Result<ModelPlan> plan(Method How, LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                         const NDRange &Range);
  /// What the model expects of \p Pieces, a plan made some other way, in
  /// their chunk counts (or, \p ChooseChunks, in those the model finds
  /// soonest: the prediction's pieces then carry them); fails like plan()
  /// without profiling.
  Result<ModelPlan> predict(const std::vector<Piece> &Pieces, const std::string &Name,
                            LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                            const NDRange &Range, bool ChooseChunks = false);

  /// Profiles the launch on \p Which devices (indices), on copies of the
  /// buffers the kernel writes, so the caller's data is untouched.
  Status profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                 const NDRange &Range, const std::vector<unsigned> &Which,
                 unsigned Runs = 2);

  /// The model's accuracy: groups [0, n) alone on device \p Device for
  /// each n of \p Counts, timed as the profiler does (passes over the
  /// counts in order, each count's best of \p Runs, on scratch copies of
  /// written buffers), and what the device's model predicts for each.
  /// Records nothing.
  struct ModelCheck {
    double MeasuredMs = 0, PredictedMs = 0;
  };
  Result<std::vector<ModelCheck>> checkModel(LoadedKernel &Kernel,
                                             const std::vector<HostArg> &Args,
                                             const NDRange &Range, unsigned Device,
                                             const std::vector<uint64_t> &Counts,
                                             unsigned Runs = 3);

private:
  struct Problem;
  /// The bytes a device's piece of some groups moves, the CPU taking the
  /// rest.
  struct MovedBytes {
    std::vector<uint64_t> InBytes, InRects, OutBytes, OutRects; ///< Per argument.
    uint64_t HostBytes = 0; ///< Copied or merged on the host afterwards.
    /// Rows of every copy's rectangles (a contiguous range is one), to
    /// tell their mean length.
    uint64_t Rows = 0;
  };
  /// MovedBytes for a device's piece of each of \p Counts groups.
  Result<std::vector<MovedBytes>> bytesMovedAt(const KernelInfo &K,
                                               const std::vector<HostArg> &Args,
                                               const NDRange &Range,
                                               const std::vector<uint64_t> &Counts) const;
  /// The input bytes pieces copy in whatever their groups
  /// (Problem::SharedInBytes); 0 where the halves cannot be planned.
  uint64_t sharedInBytes(const KernelInfo &K, const std::vector<HostArg> &Args,
                                 const NDRange &Range) const;
  /// The model's problem for a launch (models, copy and merge curves),
  /// built once per kernel, launch shape and host memory kinds.
  Result<std::shared_ptr<Problem>> problem(LoadedKernel &Kernel,
                                           const std::vector<HostArg> &Args,
                                           const NDRange &Range, bool MayProfile);
  /// Each device's kernel model into \p Pr, profiling the devices that
  /// lack profiles first where allowed; \p Profiles gets the rows used.
  Status fitModels(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                   const NDRange &Range, const LaunchShape &Shape, const std::string &Key,
                   bool MayProfile, Problem &Pr,
                   std::vector<std::vector<ProfileRow>> &Profiles);
  /// Each device's estimate: its kernel model, slowdowns where it shares
  /// the host's cores, copy curves from the bytes moved at \p Counts.
  Status addDeviceEstimates(Problem &Pr, const std::vector<HostArg> &Args,
                            const LaunchShape &Shape,
                            const std::vector<std::vector<ProfileRow>> &Profiles,
                            const std::vector<uint64_t> &Counts,
                            const std::vector<MovedBytes> &AtCount,
                            ProfileDatabase &Db);
  /// What devices share: the host's staging capacity and the merge curve.
  Status addHostCosts(Problem &Pr, const std::vector<uint64_t> &Counts,
                      const std::vector<MovedBytes> &AtCount, bool Offloads,
                      ProfileDatabase &Db);
  /// The model of \p Kernel on \p Device; \p Enough tells whether the
  /// profiles cover \p Shape, and without them it is an error unless not
  /// \p Required.
  Result<RegressionModel> kernelModel(const std::string &Kernel, unsigned Device,
                                      const LaunchShape &Shape, bool &Enough,
                                      bool Required = true,
                                      std::vector<ProfileRow> *Used = nullptr);
  /// The host's memcpy cost (merges), measured once per machine.
  Result<LinkCost> hostCopy(Measuring Policy = Measuring::Allowed);
  /// The host memory's rate on every core (the bound), under \p Policy.
  Result<LinkCost> hostMemory(ProfileDatabase &Db, Measuring Policy);
  /// Where the host's own costs are kept in the profile database.
  std::string hostKey() const;
  /// Every copy cost plans read, measured where \p Db lacks it.
  Status measureHostCosts(ProfileDatabase &Db);
  /// The launch's bound (planning/Bound.h) into \p Pr: the devices'
  /// kernel models, their copies at the DMA rate, the host memory's rate.
  Status addBound(Problem &Pr, const std::vector<HostArg> &Args,
                  const std::vector<uint64_t> &Counts, const std::vector<MovedBytes> &AtCount,
                  ProfileDatabase &Db);
  /// \p Chunks: per device, the chunks its share runs in (null: those
  /// that finish soonest).
  /// \p Machine: the routes the plan's batch is simulated on (null: none).
  ModelPlan describe(const Problem &P, const std::vector<uint64_t> &Groups,
                     std::string Method, const BatchMachine *Machine,
                     const std::vector<unsigned> *Chunks = nullptr) const;
  /// The machine for launches' batches: the routes from MachineOf, each
  /// device's kernels where the launcher runs them.
  Result<const BatchMachine *> launchMachine();
  /// The batch the launcher runs for \p Groups in \p Chunks (per device),
  /// each operation at the time \p P gives it alone, simulated on
  /// \p Machine in the launcher's order; with the operations, for
  /// per-device sums.
  Result<Timeline> simulateLaunch(const Problem &P, const std::vector<uint64_t> &Groups,
                                  const std::vector<unsigned> &Chunks,
                                  const BatchMachine &Machine,
                                  std::vector<BatchOp> &Ops) const;

  std::vector<Device *> Devices;
  unsigned CpuIndex;
  GroupProfiler &Run;
  std::string DbPath;
  std::unique_ptr<ProfileDatabase> Db;
  bool AutoProfile = false;
  std::function<void(const std::string &)> Progress;
  std::function<Result<const BatchMachine *>()> MachineOf;
  std::optional<BatchMachine> Machine;
  std::map<std::string, std::shared_ptr<Problem>> Problems;
  /// Per kernel and device, its model over all its rows, and how many rows
  /// it was fitted to (kernelModel).
  std::map<std::pair<std::string, unsigned>, std::pair<size_t, RegressionModel>> KernelModels;
  /// Launches found without enough profiles, and why.
  std::map<std::string, Failure> Unprofiled;
  std::map<std::string, LinkModel> Links;
  std::map<std::string, OverlappedLink> Overlapped;
};

} // namespace skmd

#endif // SKMD_PLANNING_MODELPLANNER_H
