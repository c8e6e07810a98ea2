//===- Partitioner.h - How many groups each device runs ----------*- C++ -*-===//
//
// The SKMD paper's transfer- and variation-aware partitioning (section 3.4,
// Algorithm 1), and the linear partitioning it is compared with.
//
// Input: per device, predicted kernel time and transfer times as functions
// of the number of groups it gets, which link its copies use, and the
// merge cost of a discontiguous kernel. The algorithm starts with every
// group on the fastest device (transfers included) and walks a decision
// tree: each step tries moving a granule of groups (TotalGroups / 2048,
// rounded up) from that base device to each other device, keeps the move
// that lowers the estimated launch time with the largest balancing factor
// (the base device's time minus the receiving device's), and when no move
// helps, retries with doubled granules up to 10 times, so that a device
// which is slow on a few groups (a GPU's fixed costs) can still be given a
// large share. Beyond the paper: the tree is walked at a 16x coarser
// granule first and the fine walk goes on from a step before that one's
// end (a tenth of the steps; CoarseLevels); when the fastest device waits
// for the staged inputs the tree also runs from the fastest one that does
// not, and the proportional split is estimated too; the best estimate
// wins.
//
// Estimated launch time (EstAllDevsTime): per device, its input copies
// after those of the devices before it on the same link (copies over one
// PCIe link serialize; a device marked SharesCoresWithStaging, the CPU,
// computes on the cores left by the copies the host's cores make until
// every device's such inputs are in, or, lending none, starts after them),
// then its kernel, then its output copies; the launch takes the slowest device,
// plus, for a discontiguous kernel, the merge of every offloaded device's
// results on the host. Staged copies of several devices share the host's
// measured capacity (StagedInCapacity, StagedOutCapacity).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_PARTITIONER_H
#define SKMD_PLANNING_PARTITIONER_H

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace skmd {

/// What the partitioner knows of one device for one launch; times in ms
/// as functions of the number of groups the device gets (called with
/// counts > 0 only).
struct DeviceEstimate {
  std::string Name;
  std::function<double(uint64_t)> KernelMs;
  /// Copies to the device before its kernel, and back after it; null for
  /// a device on host memory.
  std::function<double(uint64_t)> InputMs, OutputMs;
  /// Devices with the same link id share one link: their inputs go one
  /// after another. -1: a link of its own.
  int Link = -1;
  /// How much slower its kernel runs when other devices take part too
  /// (the CPU leaves a core to the threads that drive the others).
  double SplitSlowdown = 1;
  /// Its copies are made by the host's cores (pageable memory staged for
  /// a GPU, a HostDiscrete device's memcpy): each device's on its own
  /// thread, at the same time as the others'.
  bool StagedByHost = false;
  /// Computes on the host's cores, which the StagedByHost devices' copies
  /// take too (the CPU): until their inputs are in, it runs on the
  /// LendingThreads of its own that their CopyCores leave (at least one),
  /// on all of them after; lending none, it starts only after those
  /// inputs. Their outputs, staged by the same cores while it computes,
  /// and its kernel slow each other: it takes longer by their time, each
  /// of them by its kernel's, each at most its own time (they cannot
  /// overlap by more than the shorter of the two).
  bool SharesCoresWithStaging = false;
  unsigned LendingThreads = 0;
  /// The host's cores that none of its threads use: copies take them
  /// first.
  unsigned IdleCores = 0;
  /// The host's cores a StagedByHost device's copies take while they run.
  unsigned CopyCores = 0;
  /// Its share may run in up to this many pipelined chunks (Piece::Chunks):
  /// a device with copy engines, whose copies in, kernels and copies out
  /// overlap. The estimate takes the chunk count that finishes soonest;
  /// not for a device whose copies the host's cores make while other
  /// devices take part (StagedByHost in a split), nor on a shared link.
  unsigned MaxChunks = 1;
  /// Nor chunks of fewer groups than this.
  uint64_t MinChunkGroups = 1;
  /// Its copies when other copies run at once: a pipelined share's copies
  /// in and out share the link (Overlapped), and in a split the CPU's
  /// kernel takes host memory and cores from them as well (Beside). Null:
  /// as InputMs and OutputMs.
  std::function<double(uint64_t)> InputMsOverlapped, OutputMsOverlapped, InputMsBeside,
      OutputMsBeside;
};

struct PartitionProblem {
  uint64_t TotalGroups = 0;
  std::vector<DeviceEstimate> Devices;
  /// The merge, on the host, of the results of a device that got this
  /// many groups; null for a contiguous kernel (results are copied back
  /// in place).
  std::function<double(uint64_t)> MergeMs;
  /// How many StagedByHost devices' copies the host sustains at once, at
  /// the speed each has alone (measured with all of them copying
  /// together; model/LinkModel.h): the staged inputs of a launch take
  /// together at least the sum of their times alone over this, and so do
  /// its staged outputs. Infinite: every device copies as fast as alone.
  double StagedInCapacity = INFINITY, StagedOutCapacity = INFINITY;
  /// A split replaces the fastest single device only when estimated at
  /// least this fraction faster. The model's launch estimates miss by 5-15%
  /// (median), and the cost of a miss is not bounded by a device's share:
  /// a device given 2 of n-body's 2048 groups (256 bodies each, a thread's
  /// work for 190 ms on the H100 host's CPU) finished 100 ms behind the GPU
  /// in some runs, for an estimated gain of 0.2 ms.
  double MinRelativeGain = 0.03;
  /// Above this many granules the tree is walked at a 16x coarser granule
  /// first and the fine walk goes on from a step before where that one
  /// ended (docs/partitioner.md); 0: one walk from the root at the fine
  /// granule, as the paper's listing has it.
  uint64_t CoarseLevels = 128;
};

struct PartitionResult {
  std::vector<uint64_t> Groups; ///< Per device.
  double EstimatedMs = 0;       ///< The launch, as estimated.
  std::vector<double> DeviceMs; ///< Per device (0 for an idle one).
  unsigned Steps = 0;           ///< Moves made (decision-tree depth).
  unsigned Trials = 0;          ///< Children estimated.
  /// The best split's estimate when it gained less than MinRelativeGain
  /// and the fastest device alone was kept instead; else 0.
  double RefusedSplitMs = 0;
  /// The best split Algorithm 1 found, taken or not (for a caller that
  /// weighs it with another estimate: planning/ModelPlanner.h).
  std::vector<uint64_t> BestSplit;
};

/// The paper's Algorithm 1, with the text's intent where the printed
/// listing differs (docs/partitioner.md).
PartitionResult partitionAlgorithm1(const PartitionProblem &P);

/// Shares proportional to each device's throughput on the whole launch
/// (TotalGroups / KernelMs(TotalGroups)), transfers ignored: the paper's
/// "linear partitioning".
PartitionResult partitionLinear(const PartitionProblem &P);

/// Every group on device \p Device.
PartitionResult partitionSingle(const PartitionProblem &P, unsigned Device);

/// The estimated launch time of a given split (EstAllDevsTime plus merge).
double estimateLaunchMs(const PartitionProblem &P, const std::vector<uint64_t> &Groups,
                        std::vector<double> *DeviceMs = nullptr);

/// Each device's times in the split \p Groups as the estimate has them
/// (0 for an idle device): copies at its own speed or its share of the
/// host's staging capacity if that is slower; kernels slowed by the split;
/// a kernel on cores lent to staged inputs longer by what it could not
/// compute meanwhile, staged outputs and the kernels beside them each
/// longer for the other (SharesCoresWithStaging); when each is
/// done, and the launch (estimateLaunchMs).
struct SplitTimes {
  /// A pipelined device's steps summed over its chunks (they overlap:
  /// DoneMs is less than their sum).
  std::vector<double> InMs, KernelMs, OutMs, DoneMs;
  std::vector<unsigned> Chunks;
  double LaunchMs = 0;
};
/// \p Chunks: per device, the chunk count its share runs in (0: the one
/// that finishes soonest, as without it).
SplitTimes timesInSplit(const PartitionProblem &P, const std::vector<uint64_t> &Groups,
                        const std::vector<unsigned> *Chunks = nullptr);

} // namespace skmd

#endif // SKMD_PLANNING_PARTITIONER_H
