//===- ModelPlanner.cpp - Plans from the performance model ----------------===//
#include "planning/ModelPlanner.h"

#include "batch/PeerExchange.h"
#include "devices/HostCores.h"
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/ThreadPool.h"
#include "planning/Bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

/// Whether the CPU can merge pieces' overlapping writes (the x86 variant
/// has the kernel's merge kernel), as planMoves asks.
bool hasMerge(const KernelInfo &K) {
  auto X86 = K.Symbols.find(TargetKind::X86);
  return X86 != K.Symbols.end() && !X86->second.Merge.empty();
}

/// The shortest rows, on average, a pipelined chunk's copies may have.
constexpr uint64_t MinChunkRowBytes = 16 << 10;

/// \p Cost where the profile database holds it, else \p Cautious: a plan
/// reads copy costs with Measuring::RecordedOnly, and one not recorded yet
/// (NotFound) takes the cautious value; any other error stays one.
template <typename T> Result<T> recordedOr(Result<T> Cost, T Cautious) {
  if (!Cost && Cost.error().code() == ErrorCode::NotFound)
    return Cautious;
  return Cost;
}

/// Rows a model needs at the launch's own shape.
constexpr size_t RowsAtShape = 4;
/// Shapes a model may interpolate between.
constexpr size_t ShapesAround = 3;

/// A function of the group count known at a few counts, linear between
/// them (and beyond the last two).
struct Curve {
  std::vector<double> X, Y;
  double operator()(double At) const {
    if (X.empty())
      return 0;
    if (X.size() == 1)
      return Y[0];
    size_t Hi = size_t(std::upper_bound(X.begin(), X.end(), At) - X.begin());
    Hi = std::clamp<size_t>(Hi, 1, X.size() - 1);
    size_t Lo = Hi - 1;
    double T = (At - X[Lo]) / (X[Hi] - X[Lo]);
    return std::max(0.0, Y[Lo] + T * (Y[Hi] - Y[Lo]));
  }
};

/// \p C as a function of the group count (\p C outlives it).
std::function<double(uint64_t)> ofGroups(const Curve &C) {
  return [&C](uint64_t N) { return C(double(N)); };
}

/// The time, at each of \p Counts, of the bytes every buffer argument
/// moves one way (\p In) at the cost \p CostOf(argument) gives, times
/// \p Scale. \p AtCount: the MovedBytes at each count.
template <typename MovedAt, typename CostFn>
Curve copyCurve(const std::vector<uint64_t> &Counts, const std::vector<MovedAt> &AtCount,
                const std::vector<HostArg> &Args, bool In, CostFn &&CostOf, double Scale = 1) {
  Curve C;
  for (size_t I = 0; I < Counts.size(); ++I) {
    double Ms = 0;
    for (size_t A = 0; A < Args.size(); ++A)
      if (Args[A].K == HostArg::Buffer) {
        const LinkCost &L = CostOf(A);
        Ms += In ? L.ms(AtCount[I].InBytes[A], AtCount[I].InRects[A])
                 : L.ms(AtCount[I].OutBytes[A], AtCount[I].OutRects[A]);
      }
    C.X.push_back(double(Counts[I]));
    C.Y.push_back(Ms * Scale);
  }
  return C;
}

/// The counts the copies are planned at: every granule of small pieces
/// matters (halos, latency), then the curve is nearly straight.
std::vector<uint64_t> sampleCounts(uint64_t Total) {
  std::set<uint64_t> C;
  for (double F : {0.0, 1.0 / 2048, 1.0 / 64, 1.0 / 16, 1.0 / 4, 1.0 / 2, 3.0 / 4, 1.0})
    C.insert(std::clamp<uint64_t>(uint64_t(double(Total) * F), 1, Total));
  return {C.begin(), C.end()};
}

/// Dry runs write outputs: \p Args with the buffers the kernel writes
/// replaced by copies in \p Copies, so that neither the caller's outputs
/// nor in-place inputs change.
std::vector<HostArg> scratchArgs(const KernelInfo &K, const std::vector<HostArg> &Args,
                                 std::vector<std::vector<uint8_t>> &Copies) {
  Copies.assign(Args.size(), {});
  std::vector<HostArg> Scratch = Args;
  for (size_t A = 0; A < Args.size(); ++A)
    if (Args[A].K == HostArg::Buffer && A < K.Args.size() && K.Args[A].Written) {
      auto *From = static_cast<const uint8_t *>(Args[A].Data);
      Copies[A].assign(From, From + Args[A].Bytes);
      Scratch[A].Data = Copies[A].data();
    }
  return Scratch;
}

/// How much longer the profiled copies of the kernel took than \p Link
/// says for their bytes: the median ratio over profiles that moved at
/// least 1 MiB, kept within [0.5, 4]; 1 without such profiles. The link is
/// measured on plain buffers; a kernel's copies (rows of boxes, several
/// buffers, the allocation) can take longer.
double copyScale(const std::vector<ProfileRow> &Rows, const LinkCost &Link, bool In) {
  std::vector<double> Ratio;
  for (const ProfileRow &R : Rows) {
    uint64_t Bytes = In ? R.BytesIn : R.BytesOut;
    double Ms = In ? R.InputMs : R.OutputMs;
    if (Bytes >= (1u << 20) && Link.ms(Bytes) > 0 && std::isfinite(Ms))
      Ratio.push_back(Ms / Link.ms(Bytes));
  }
  if (Ratio.empty())
    return 1;
  std::nth_element(Ratio.begin(), Ratio.begin() + Ratio.size() / 2, Ratio.end());
  return std::clamp(Ratio[Ratio.size() / 2], 0.5, 4.0);
}

/// The kernel's own profiled copy times at this launch's shape, per group
/// count (the median where a count was profiled more than once), or an
/// empty curve with fewer than 3 counts. A staged copy's cost is not a
/// line: on the 2xH200 host Box-Muller's 2-67 MB copies went at 6-27
/// GB/s and its 134-805 MB ones at 39-49, where the link model's line
/// (64 MiB copies at most) said 42.
Curve profiledCopies(const std::vector<ProfileRow> &Rows, const std::string &Shape, bool In) {
  Curve C;
  for (auto [Groups, Ms] : profiledCopyTimes(Rows, Shape, In)) {
    C.X.push_back(double(Groups));
    C.Y.push_back(Ms);
  }
  return C;
}

} // namespace

std::vector<std::pair<uint64_t, double>>
profiledCopyTimes(const std::vector<ProfileRow> &Rows, const std::string &Shape, bool In) {
  auto Median = [](std::vector<double> &V) {
    std::nth_element(V.begin(), V.begin() + V.size() / 2, V.end());
    return V[V.size() / 2];
  };
  std::map<uint64_t, std::vector<double>> ByBytes;
  std::vector<const ProfileRow *> Used;
  for (const ProfileRow &R : Rows) {
    double Ms = In ? R.InputMs : R.OutputMs;
    if (R.Shape == Shape && R.Groups > 0 && std::isfinite(Ms) && Ms >= 0) {
      ByBytes[In ? R.BytesIn : R.BytesOut].push_back(Ms);
      Used.push_back(&R);
    }
  }
  std::map<uint64_t, double> OfBytes;
  for (auto &[Bytes, Ms] : ByBytes)
    OfBytes[Bytes] = Median(Ms);
  std::map<uint64_t, std::vector<double>> AtCount;
  for (const ProfileRow *R : Used)
    AtCount[R->Groups].push_back(OfBytes[In ? R->BytesIn : R->BytesOut]);
  std::vector<std::pair<uint64_t, double>> Times;
  if (AtCount.size() < 3)
    return Times;
  for (auto &[Groups, Ms] : AtCount)
    Times.push_back({Groups, Median(Ms)});
  return Times;
}

double hostCoreShare(unsigned CpuThreads, const std::vector<unsigned> &DeviceThreads,
                     unsigned HardwareThreads) {
  unsigned Threads = CpuThreads;
  for (unsigned T : DeviceThreads)
    Threads += T;
  return std::max(1.0, double(Threads) / double(std::max(1u, HardwareThreads)));
}

/// A launch as the partitioner sees it, with the data its functions use.
struct ModelPlanner::Problem {
  std::string Key; ///< ModelPlan::ShapeKey
  PartitionProblem P;
  std::vector<RegressionModel> Models; ///< Per device.
  std::vector<double> Vars;
  std::vector<Curve> In, Out; ///< Per device; empty for one on host memory.
  /// Per device with copy engines: its copies when in and out overlap,
  /// and beside the CPU's kernel (DeviceEstimate::InputMsOverlapped...).
  std::vector<Curve> InOverlapped, OutOverlapped, InBeside, OutBeside;
  Curve Merge;
  /// The bytes a device's piece copies in and out (every buffer); a piece
  /// on host memory reads and writes as many there.
  Curve InBytes, OutBytes;
  /// The input bytes pieces copy in whatever their groups (those both
  /// halves of the groups read: matmul's second matrix), which devices may
  /// exchange (batch/PeerExchange.h).
  uint64_t SharedInBytes = 0;
  /// Each device with every group: its batch simulated where the
  /// machine's routes are known, else Algorithm 1's estimate.
  std::vector<double> AloneMs;
  /// The bound's copies at the DMA rate and host memory bytes, per device.
  std::vector<Curve> DmaIn, DmaOut, HostBytes;
  BoundResult Bound;
  double BuildMs = 0;
  /// Solved plans by method: a launch's plan is the same every time.
  std::map<int, ModelPlan> Plans;
};

ModelPlanner::ModelPlanner(std::vector<Device *> Devices, unsigned CpuIndex, GroupProfiler &Run)
    : Devices(std::move(Devices)), CpuIndex(CpuIndex), Run(Run) {}

ModelPlanner::~ModelPlanner() = default;

Result<ProfileDatabase *> ModelPlanner::database(bool Create) {
  if (!Db) {
    auto Opened = ProfileDatabase::open(DbPath, Create);
    if (!Opened)
      return Opened.error();
    Db = std::move(*Opened);
  }
  return Db.get();
}

Result<RegressionModel> ModelPlanner::kernelModel(const std::string &Kernel, unsigned Device,
                                                  const LaunchShape &Shape, bool &Enough,
                                                  bool Required,
                                                  std::vector<ProfileRow> *Used) {
  Enough = false;
  auto Db = database(/*Create=*/false);
  if (!Db)
    return Failure(Db.error().code(),
                   "no profiles of this kernel: " + Db.error().message() +
                       "; run skmd-prof, or set SKMD_PROFILE=auto");
  auto Rows = (*Db)->rows(Kernel, deviceKey(Devices[Device]->info()));
  if (!Rows)
    return Rows.error();
  // Enough: rows at this very shape, or shapes on both sides of it in
  // every variable, so that the model interpolates.
  size_t AtShape = 0;
  std::set<std::string> Shapes;
  std::vector<double> Lo(Shape.Vars.size(), INFINITY), Hi(Shape.Vars.size(), -INFINITY);
  for (const ProfileRow &R : *Rows) {
    AtShape += R.Shape == Shape.Text;
    Shapes.insert(R.Shape);
    if (R.Vars.size() == Shape.Vars.size())
      for (size_t V = 0; V < R.Vars.size(); ++V) {
        Lo[V] = std::min(Lo[V], R.Vars[V]);
        Hi[V] = std::max(Hi[V], R.Vars[V]);
      }
  }
  bool Around = Shapes.size() >= ShapesAround;
  for (size_t V = 0; V < Shape.Vars.size() && Around; ++V)
    Around = Lo[V] <= Shape.Vars[V] && Shape.Vars[V] <= Hi[V];
  // A launch of few groups has fewer counts to profile.
  const size_t Needed = std::min(RowsAtShape, profileCounts(Shape.TotalGroups).size());
  Enough = AtShape >= Needed || Around;
  if (!Enough && (Required || Rows->empty()))
    return Failure(ErrorCode::NotFound,
                   "the profile database (" + (*Db)->path() + ") has " +
                       std::to_string(AtShape) + " profiles of this launch on " +
                       Devices[Device]->info().Name + " and " +
                       std::to_string(Shapes.size()) +
                       " launch shapes in all; run skmd-prof, or set SKMD_PROFILE=auto");
  // Profiles of this very launch, when there are enough, make its model
  // alone: one model across sizes must compromise between them (a kernel
  // whose data fits in a cache at one size and not at another costs more
  // per group at the larger one, which no h(v) says), and predicts the
  // sizes it has seen worse than their own profiles do.
  if (AtShape >= Needed) {
    std::vector<ProfileRow> Own;
    for (ProfileRow &R : *Rows)
      if (R.Shape == Shape.Text)
        Own.push_back(std::move(R));
    *Rows = std::move(Own);
  }
  if (Used)
    *Used = *Rows;
  // Otherwise the model is the kernel's, fitted to all its rows on the
  // device: once, not at every new shape (a solver's range that shrinks at
  // every launch), until rows are added.
  const bool KernelWide = AtShape < Needed;
  auto Kept = KernelModels.find({Kernel, Device});
  if (KernelWide && Kept != KernelModels.end() && Kept->second.first == Rows->size())
    return Kept->second.second;
  auto Model = fitKernelModel(*Rows);
  if (Model && KernelWide)
    KernelModels[{Kernel, Device}] = {Rows->size(), *Model};
  if (!Model) // Profiles there, but not enough good ones: still "no model".
    return Failure(ErrorCode::NotFound,
                   "the profiles of this launch on " + Devices[Device]->info().Name +
                       " make no model (" + Model.error().message() +
                       "); profile it again with skmd-prof");
  return Model;
}

Result<std::vector<ModelPlanner::MovedBytes>>
ModelPlanner::bytesMovedAt(const KernelInfo &K, const std::vector<HostArg> &Args,
                           const NDRange &Range, const std::vector<uint64_t> &Counts) const {
  const uint64_t Total = Range.totalGroups();
  std::vector<MovedBytes> AtCount;
  for (uint64_t C : Counts) {
    std::vector<Piece> Pieces{{0, 0, C}};
    std::vector<bool> Shares{false};
    if (C < Total) {
      Pieces.push_back({CpuIndex, C, Total - C});
      Shares.push_back(true);
    }
    auto Moves = planMoves(K, Args, Range, Pieces, Shares, hasMerge(K));
    if (!Moves)
      return Moves.error();
    MovedBytes M;
    M.InBytes.assign(Args.size(), 0);
    M.InRects = M.OutBytes = M.OutRects = M.InBytes;
    for (const BufferMove &B : (*Moves)[0]) {
      for (const Rect &R : toRects(B.In, B.Lo)) {
        M.InBytes[B.Arg] += R.RowBytes * R.Rows;
        ++M.InRects[B.Arg];
        M.Rows += R.Rows;
      }
      bool Staged = B.Merge || K.Args[B.Arg].Read;
      if (B.Merge) {
        M.OutBytes[B.Arg] += uint64_t(B.Hi - B.Lo);
        ++M.OutRects[B.Arg];
      } else {
        for (const Rect &R : toRects(B.Out, B.Lo)) {
          M.OutBytes[B.Arg] += R.RowBytes * R.Rows;
          ++M.OutRects[B.Arg];
          M.Rows += R.Rows;
        }
      }
      if (Staged)
        M.HostBytes += B.Merge ? uint64_t(B.Hi - B.Lo) : uint64_t(B.Out.bytes());
    }
    AtCount.push_back(std::move(M));
  }
  return AtCount;
}

uint64_t ModelPlanner::sharedInBytes(const KernelInfo &K, const std::vector<HostArg> &Args,
                                     const NDRange &Range) const {
  const uint64_t Total = Range.totalGroups();
  // The first half of the groups and the second, each a device's piece
  // (a group alone may read a part of what a row of groups reads all of:
  // matmul's tile of B's columns).
  std::vector<Piece> Pieces{{0, 0, Total / 2}, {0, Total / 2, Total - Total / 2}};
  std::vector<bool> Shares{false, false};
  auto Moves = planMoves(K, Args, Range, Pieces, Shares, hasMerge(K));
  if (!Moves)
    return 0; // halves the kernel cannot run as: nothing to exchange
  uint64_t Shared = 0;
  for (const BufferMove &First : Moves->front())
    for (const BufferMove &Second : Moves->back())
      if (First.Arg == Second.Arg && !First.Combine && !Second.Combine)
        Shared += uint64_t(IntervalSet::intersect(First.In, Second.In).bytes());
  return Shared;
}

Result<std::shared_ptr<ModelPlanner::Problem>>
ModelPlanner::problem(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                      const NDRange &Range, bool MayProfile) {
  const KernelInfo &K = *Kernel.Info;
  if (Status S = checkArgs(K, Args); !S)
    return S.error();
  LaunchShape Shape = launchShape(K, Args, Range);
  std::string KernelId = kernelKey(Kernel.Source->metadata(), K);
  // The host memory kinds change the copies' costs, not the shape.
  std::string Key = KernelId + "|" + Shape.Text + "|";
  for (Device *D : Devices)
    for (const HostArg &A : Args)
      if (A.K == HostArg::Buffer)
        Key += D->isPinnedHost(A.Data, A.Bytes) ? 'p' : '-';
  // So do other users of a shared device (its kernels' times).
  for (Device *D : Devices)
    if (D->info().OtherUsers)
      Key += "|" + D->info().Name + "+" + std::to_string(D->info().OtherUsers);
  if (auto It = Problems.find(Key); It != Problems.end())
    return It->second;
  if (auto It = Unprofiled.find(Key); It != Unprofiled.end() && !(MayProfile && AutoProfile))
    return It->second;

  auto Start = Clock::now();
  auto Pr = std::make_shared<Problem>();
  Pr->Key = Key;
  Pr->Vars = Shape.Vars;
  const uint64_t Total = Range.totalGroups();
  Pr->P.TotalGroups = Total;
  // For comparisons on a real machine (the same profiles, both walks):
  // SKMD_TREE_COARSE_LEVELS=0 walks the tree at the fine granule only, as
  // the paper's listing does (docs/partitioner.md, Algorithm 1 item 8).
  if (const char *Env = std::getenv("SKMD_TREE_COARSE_LEVELS"); Env && *Env) {
    char *End = nullptr;
    unsigned long long Levels = std::strtoull(Env, &End, 10);
    if (*End || *Env == '-')
      return Failure(ErrorCode::InvalidArgument,
                     std::string("SKMD_TREE_COARSE_LEVELS is '") + Env +
                         "'; it takes a number of levels (0: one walk at the fine granule)");
    Pr->P.CoarseLevels = Levels;
  }
  std::vector<std::vector<ProfileRow>> Profiles(Devices.size());
  if (Status S = fitModels(Kernel, Args, Range, Shape, Key, MayProfile, *Pr, Profiles); !S)
    return S.error();

  // Bytes a piece of n groups moves, planned at a few n. A kernel that
  // cannot be split runs whole on one device.
  std::vector<uint64_t> Counts =
      K.Partitionable ? sampleCounts(Total) : std::vector<uint64_t>{Total};
  bool Offloads = std::any_of(Devices.begin(), Devices.end(),
                              [](Device *D) { return !D->info().SharesHostMemory; });
  std::vector<MovedBytes> AtCount;
  if (Offloads) {
    auto Moved = bytesMovedAt(K, Args, Range, Counts);
    if (!Moved)
      return Moved.error();
    AtCount = std::move(*Moved);
  }
  auto Db = database();
  if (!Db)
    return Db.error();
  if (Status S = addDeviceEstimates(*Pr, Args, Shape, Profiles, Counts, AtCount, **Db); !S)
    return S.error();
  for (size_t I = 0; I < AtCount.size(); ++I) {
    uint64_t In = 0, Out = 0;
    for (size_t A = 0; A < Args.size(); ++A) {
      In += AtCount[I].InBytes[A];
      Out += AtCount[I].OutBytes[A];
    }
    Pr->InBytes.X.push_back(double(Counts[I]));
    Pr->InBytes.Y.push_back(double(In));
    Pr->OutBytes.X.push_back(double(Counts[I]));
    Pr->OutBytes.Y.push_back(double(Out));
  }
  if (Offloads && K.Partitionable && Total >= 2)
    Pr->SharedInBytes = sharedInBytes(K, Args, Range);
  if (Status S = addHostCosts(*Pr, Counts, AtCount, Offloads, **Db); !S)
    return S.error();
  if (Status S = addBound(*Pr, Args, Counts, AtCount, **Db); !S)
    return S.error();
  auto Machine = launchMachine();
  if (!Machine)
    return Machine.error();
  for (unsigned D = 0; D < Devices.size(); ++D) {
    std::vector<uint64_t> Alone(Devices.size(), 0);
    Alone[D] = Total;
    SplitTimes One = timesInSplit(Pr->P, Alone);
    double Ms = One.LaunchMs;
    std::vector<BatchOp> Ops;
    if (*Machine)
      if (auto T = simulateLaunch(*Pr, Alone, One.Chunks, **Machine, Ops))
        Ms = T->Ms;
    Pr->AloneMs.push_back(Ms);
  }
  Pr->BuildMs = msSince(Start);
  Problems[Key] = Pr;
  return Pr;
}

Status ModelPlanner::fitModels(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                               const NDRange &Range, const LaunchShape &Shape,
                               const std::string &Key, bool MayProfile, Problem &Pr,
                               std::vector<std::vector<ProfileRow>> &Profiles) {
  std::string KernelId = kernelKey(Kernel.Source->metadata(), *Kernel.Info);
  std::vector<std::optional<RegressionModel>> Models(Devices.size());
  std::vector<unsigned> Missing;
  for (unsigned D = 0; D < Devices.size(); ++D) {
    bool Enough;
    auto M = kernelModel(KernelId, D, Shape, Enough, /*Required=*/true, &Profiles[D]);
    // A device the list left out gets no groups (its estimate never ends):
    // its model is not needed, nor profiled.
    if (!Devices[D]->info().InPlans && (!M || !Enough))
      continue;
    if (!Enough && MayProfile && AutoProfile) {
      Missing.push_back(D);
      continue;
    }
    if (!M) {
      if (M.error().code() == ErrorCode::NotFound)
        Unprofiled.emplace(Key, M.error());
      return M.error();
    }
    Models[D] = std::move(*M);
  }
  if (!Missing.empty()) {
    if (Status S = profile(Kernel, Args, Range, Missing); !S)
      return S;
    for (unsigned D : Missing) {
      bool Enough;
      auto M = kernelModel(KernelId, D, Shape, Enough, /*Required=*/true, &Profiles[D]);
      if (!M)
        return M.error();
      Models[D] = std::move(*M);
    }
  }
  // Left-out devices without one take another's in its place, never used.
  auto Any = std::find_if(Models.begin(), Models.end(),
                          [](const std::optional<RegressionModel> &M) { return M.has_value(); });
  if (Any == Models.end())
    return Failure(ErrorCode::NoDevice, "no device of the list can run the kernel");
  const RegressionModel Stand = **Any;
  for (std::optional<RegressionModel> &M : Models)
    Pr.Models.push_back(M ? std::move(*M) : Stand);
  return Status::success();
}

Status ModelPlanner::addDeviceEstimates(Problem &Pr, const std::vector<HostArg> &Args,
                                        const LaunchShape &Shape,
                                        const std::vector<std::vector<ProfileRow>> &Profiles,
                                        const std::vector<uint64_t> &Counts,
                                        const std::vector<MovedBytes> &AtCount,
                                        ProfileDatabase &Db) {
  const unsigned CpuThreads = Devices[CpuIndex]->info().ComputeUnits;
  // Devices that compute on the host's own cores (HostDiscrete) share them
  // with the CPU device: their profiles, taken alone, each had cores to
  // themselves. When the threads of a split launch outnumber the hardware
  // threads, every one of those devices runs that much slower. (On this
  // 2-core VM the CPU and two HostDiscrete devices were planned as three
  // devices' worth of throughput, and the splits ran 9-73% slower than the
  // CPU alone.) Counted for every such device of the context, used or
  // not: a split over some of them is estimated pessimistically.
  std::vector<unsigned> HostDeviceThreads;
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (D != CpuIndex && Devices[D]->info().UsesHostCores)
      HostDeviceThreads.push_back(Devices[D]->info().ComputeUnits);
  const double HostShare =
      hostCoreShare(ThreadPool::computeThreads(CpuThreads, true), HostDeviceThreads,
                    std::thread::hardware_concurrency());
  // The estimates point into these: no reallocation once they are taken.
  Pr.In.resize(Devices.size());
  Pr.Out.resize(Devices.size());
  for (auto *C : {&Pr.InOverlapped, &Pr.OutOverlapped, &Pr.InBeside, &Pr.OutBeside})
    C->resize(Devices.size());
  std::vector<const DeviceInfo *> Infos;
  for (Device *Dev : Devices)
    Infos.push_back(&Dev->info());
  const unsigned HostOthers = othersOnThisHost(Infos);
  for (unsigned D = 0; D < Devices.size(); ++D) {
    Device &Dev = *Devices[D];
    DeviceEstimate E;
    E.Name = Dev.info().Name;
    // A device busy with others' work (a shared GPU) computes as if that
    // many times slower: its kernels take turns with theirs. So does the
    // CPU where those others are processes on this node: they compute on
    // its cores as this one does (16 processes that each moved work to
    // their cores ran 1.6x longer on the H100 host).
    unsigned Others = D == CpuIndex ? HostOthers : Dev.info().OtherUsers;
    // A device the list left out never finishes sooner: no plan gives it
    // groups.
    E.KernelMs = [Model = Pr.Models[D].ofGroups(Pr.Vars), Busy = 1.0 + Others,
                  Out = !Dev.info().InPlans](uint64_t N) {
      return Out ? INFINITY : Model(double(N)) * Busy;
    };
    if (Dev.info().UsesHostCores)
      E.SplitSlowdown = HostShare;
    if (D == CpuIndex) {
      E.SplitSlowdown = HostShare * double(CpuThreads) /
                        double(ThreadPool::computeThreads(CpuThreads, true));
      // It computes beside the copies its cores make, on the cores they
      // leave, or after them (devices/HostCores.h).
      E.SharesCoresWithStaging = true;
      if (HostCores::lending()) {
        E.LendingThreads = ThreadPool::computeThreads(CpuThreads, true);
        E.IdleCores = ThreadPool::idleCores(CpuThreads);
      }
    }
    if (!Dev.info().SharesHostMemory) {
      auto Link = Links.find(deviceKey(Dev.info()));
      if (Link == Links.end()) {
        auto L = linkModel(Dev, Db, Measuring::RecordedOnly);
        if (!L)
          return L.error();
        Link = Links.emplace(deviceKey(Dev.info()), *L).first;
      }
      // Staged copies as the profiles of this kernel saw them (the
      // profiles copy pageable memory; DMA from pinned is taken as
      // measured).
      bool Staged = copiesUseHostCores(Dev, Args);
      // When every buffer is pageable (as the profiles' copies were) and
      // this shape was profiled: the profiled times; else the link
      // model's, scaled by how the profiled copies compared with it.
      bool AllPageable = std::none_of(Args.begin(), Args.end(), [&](const HostArg &A) {
        return A.K == HostArg::Buffer && Dev.isPinnedHost(A.Data, A.Bytes);
      });
      Curve ProfiledIn, ProfiledOut;
      if (Staged && AllPageable) {
        ProfiledIn = profiledCopies(Profiles[D], Shape.Text, true);
        ProfiledOut = profiledCopies(Profiles[D], Shape.Text, false);
      }
      double InScale = Staged && ProfiledIn.X.empty()
                           ? copyScale(Profiles[D], Link->second.InPageable, true)
                           : 1;
      double OutScale = Staged && ProfiledOut.X.empty()
                            ? copyScale(Profiles[D], Link->second.OutPageable, false)
                            : 1;
      auto IsPinned = [&](size_t A) { return Dev.isPinnedHost(Args[A].Data, Args[A].Bytes); };
      // Each buffer at its link's cost for the memory it is in; where this
      // shape's copies were profiled, their times instead.
      auto AtItsLink = [&](bool In, double Scale, const Curve &Profiled) {
        Curve C = copyCurve(Counts, AtCount, Args, In, [&](size_t A) -> const LinkCost & {
          return In ? Link->second.in(IsPinned(A)) : Link->second.out(IsPinned(A));
        }, Scale);
        if (!Profiled.X.empty())
          for (size_t I = 0; I < C.X.size(); ++I)
            C.Y[I] = Profiled(C.X[I]);
        return C;
      };
      Pr.In[D] = AtItsLink(true, InScale, ProfiledIn);
      Pr.Out[D] = AtItsLink(false, OutScale, ProfiledOut);
      E.InputMs = ofGroups(Pr.In[D]);
      E.OutputMs = ofGroups(Pr.Out[D]);
      // Each device's copies run on a thread of its own, DMA from pinned
      // memory and copies made by the host's cores (staging pageable
      // memory, a HostDiscrete device's) alike; the CPU computes after
      // the latter.
      E.StagedByHost = Staged;
      E.CopyCores = Staged ? Dev.info().HostCopyCores : 0;
      // Copy engines run a share's copies beside its kernels: pipelined
      // chunks where they finish sooner (a chunk's copies and launch have
      // fixed costs, which the curves and the kernel model carry).
      // Pinned buffers' copies when other copies run at once.
      if (Dev.info().CopyEngines > 0 && !AllPageable) {
        auto Both = Overlapped.find(deviceKey(Dev.info()));
        if (Both == Overlapped.end()) {
          // Not measured yet: each direction as alone.
          const LinkModel &A = Link->second;
          auto L = recordedOr(overlappedLink(Dev, A, ThreadPool::computeThreads(CpuThreads, true),
                                             Db, Measuring::RecordedOnly),
                              OverlappedLink{A.InPinned, A.OutPinned, A.InPinned, A.OutPinned});
          if (!L)
            return L.error();
          Both = Overlapped.emplace(deviceKey(Dev.info()), *L).first;
        }
        // Pinned buffers at \p Pinned's cost, pageable ones as alone.
        auto Overlapping = [&](bool In, const LinkCost &Pinned) {
          return copyCurve(Counts, AtCount, Args, In, [&](size_t A) -> const LinkCost & {
            return IsPinned(A) ? Pinned : In ? Link->second.in(false) : Link->second.out(false);
          }, In ? InScale : OutScale);
        };
        Pr.InOverlapped[D] = Overlapping(true, Both->second.In);
        Pr.OutOverlapped[D] = Overlapping(false, Both->second.Out);
        Pr.InBeside[D] = Overlapping(true, Both->second.InBeside);
        Pr.OutBeside[D] = Overlapping(false, Both->second.OutBeside);
        E.InputMsOverlapped = ofGroups(Pr.InOverlapped[D]);
        E.OutputMsOverlapped = ofGroups(Pr.OutOverlapped[D]);
        E.InputMsBeside = ofGroups(Pr.InBeside[D]);
        E.OutputMsBeside = ofGroups(Pr.OutBeside[D]);
      }
      if (Dev.info().CopyEngines > 0 && Counts.size() > 1) {
        E.MaxChunks = 32;
        // Chunks no smaller than a piece whose copies' rows are long: a
        // column strip cut into chunks copies ever shorter rows, which the
        // link's cost per byte and per rectangle does not see (on the H100
        // host transpose's 8192^2 input in 24 chunks, rows of 1.4 KB, took
        // twice the time the model gave it, and the split lost to the GPU
        // alone by a third).
        E.MinChunkGroups = Counts.back();
        for (size_t I = Counts.size(); I-- > 0;) {
          uint64_t Bytes = 0;
          for (size_t A = 0; A < Args.size(); ++A)
            Bytes += AtCount[I].InBytes[A] + AtCount[I].OutBytes[A];
          if (AtCount[I].Rows && Bytes / AtCount[I].Rows < MinChunkRowBytes)
            break;
          E.MinChunkGroups = Counts[I];
        }
      }
    }
    Pr.P.Devices.push_back(std::move(E));
  }
  return Status::success();
}

Status ModelPlanner::addHostCosts(Problem &Pr, const std::vector<uint64_t> &Counts,
                                  const std::vector<MovedBytes> &AtCount, bool Offloads,
                                  ProfileDatabase &Db) {
  // Staged copies of several devices share the host's cores and memory:
  // each device's were profiled alone (on the 4xH200 host, four GPUs'
  // staged copies took 1.6-1.8x their predicted times, and splits that
  // looked twice as fast as the CPU ran slower than it).
  std::vector<Device *> Staged;
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (Pr.P.Devices[D].StagedByHost)
      Staged.push_back(Devices[D]);
  if (Staged.size() > 1) {
    // Not measured yet for these devices: no faster together than one
    // after another.
    auto Capacity = recordedOr(
        stagingCapacity(Staged, Db, Progress, Measuring::RecordedOnly), StagingCapacity{});
    if (!Capacity)
      return Capacity.error();
    Pr.P.StagedInCapacity = Capacity->In;
    Pr.P.StagedOutCapacity = Capacity->Out;
  }
  if (Offloads) {
    auto HostCopy = hostCopy(Measuring::RecordedOnly);
    if (!HostCopy)
      return HostCopy.error();
    bool AnyHostWork = false;
    for (size_t I = 0; I < Counts.size(); ++I) {
      Pr.Merge.X.push_back(double(Counts[I]));
      Pr.Merge.Y.push_back(HostCopy->ms(AtCount[I].HostBytes));
      AnyHostWork |= AtCount[I].HostBytes > 0;
    }
    if (AnyHostWork)
      Pr.P.MergeMs = ofGroups(Pr.Merge);
  }
  return Status::success();
}

Status ModelPlanner::addBound(Problem &Pr, const std::vector<HostArg> &Args,
                              const std::vector<uint64_t> &Counts,
                              const std::vector<MovedBytes> &AtCount, ProfileDatabase &Db) {
  BoundProblem B;
  B.TotalGroups = Pr.P.TotalGroups;
  Pr.DmaIn.assign(Devices.size(), {});
  Pr.DmaOut.assign(Devices.size(), {});
  Pr.HostBytes.assign(Devices.size(), {});
  bool Offloads = !AtCount.empty();
  if (Offloads) {
    // Not measured yet: no bound from host memory.
    auto Memory = recordedOr(hostMemory(Db, Measuring::RecordedOnly), LinkCost{});
    if (!Memory)
      return Memory.error();
    // A copy of n bytes reads n and writes n.
    if (Memory->GBps > 0)
      B.HostBytesPerMs = 2 * Memory->GBps * 1e6;
  }
  for (unsigned D = 0; D < Devices.size(); ++D) {
    const Device &Dev = *Devices[D];
    BoundDevice BD;
    BD.Name = Dev.info().Name;
    BD.KernelMs = Pr.P.Devices[D].KernelMs;
    if (Offloads) {
      Curve &Host = Pr.HostBytes[D];
      for (size_t I = 0; I < Counts.size(); ++I) {
        double Bytes = 0;
        for (size_t A = 0; A < Args.size(); ++A) {
          if (Args[A].K != HostArg::Buffer)
            continue;
          uint64_t Moved = AtCount[I].InBytes[A] + AtCount[I].OutBytes[A];
          if (Dev.info().SharesHostMemory) {
            Bytes += double(Moved);
            continue;
          }
          // A pageable byte is staged: the host's cores read it from the
          // user's memory and write it to a staging chunk, which the DMA
          // reads (and the reverse). The chunks (2 MiB) stay in the last
          // level cache, so host memory sees the user's side of the copy
          // and the chunk's write-back: two. Counted three (chunk read
          // too), Box-Muller's staged GPU alone ran below the bound on the
          // H100 host (0.92x it); at two, its 1.6 GB in 25.5 ms is 126 GB/s
          // against the host's 132 (memcpy on every core, both ways).
          bool Pinned = Dev.isPinnedHost(Args[A].Data, Args[A].Bytes);
          Bytes += double(Moved) * (Pinned ? 1 : 2);
        }
        Host.X.push_back(double(Counts[I]));
        Host.Y.push_back(Bytes);
      }
      BD.HostBytes = ofGroups(Host);
      // Every byte at the DMA rate (addDeviceEstimates measured the link).
      if (auto Link = Links.find(deviceKey(Dev.info())); Link != Links.end()) {
        Pr.DmaIn[D] = copyCurve(Counts, AtCount, Args, true,
                                [&](size_t) -> const LinkCost & { return Link->second.InPinned; });
        Pr.DmaOut[D] = copyCurve(Counts, AtCount, Args, false, [&](size_t) -> const LinkCost & {
          return Link->second.OutPinned;
        });
        BD.InputMs = ofGroups(Pr.DmaIn[D]);
        BD.OutputMs = ofGroups(Pr.DmaOut[D]);
      }
    }
    B.Devices.push_back(std::move(BD));
  }
  Pr.Bound = launchBound(B);
  return Status::success();
}

Result<LinkCost> ModelPlanner::hostCopy(Measuring Policy) {
  auto Db = database();
  if (!Db)
    return Db.error();
  return hostCopyModel(**Db, hostKey(), Policy);
}

Result<LinkCost> ModelPlanner::hostMemory(ProfileDatabase &Db, Measuring Policy) {
  auto &Cpu = static_cast<CpuDevice &>(*Devices[CpuIndex]);
  return hostMemoryModel(
      Db, hostKey(),
      [&Cpu](void *To, const void *From, uint64_t Bytes) { Cpu.copyHost(To, From, Bytes); },
      Policy);
}

std::string ModelPlanner::hostKey() const {
  return "host:" + Devices[CpuIndex]->info().Description + "@" + hostName();
}

Status ModelPlanner::measureHostCosts(ProfileDatabase &Db) {
  // Once per machine (each is kept in the database): what plans read with
  // Measuring::RecordedOnly, so that a launch never measures.
  std::vector<Device *> Staged;
  for (Device *D : Devices) {
    if (D->info().SharesHostMemory)
      continue;
    Staged.push_back(D);
    auto L = linkModel(*D, Db);
    if (!L)
      return L.error();
    Links.emplace(deviceKey(D->info()), *L);
    if (D->info().CopyEngines > 0) {
      const unsigned CpuThreads = Devices[CpuIndex]->info().ComputeUnits;
      auto Both =
          overlappedLink(*D, *L, ThreadPool::computeThreads(CpuThreads, true), Db);
      if (!Both)
        return Both.error();
    }
  }
  if (Staged.empty())
    return Status::success();
  if (Staged.size() > 1)
    if (auto Capacity = stagingCapacity(Staged, Db, Progress); !Capacity)
      return Capacity.error();
  if (auto HostCopy = hostCopy(); !HostCopy)
    return HostCopy.error();
  auto Memory = hostMemory(Db, Measuring::Allowed);
  return Memory ? Status::success() : Status(Memory.error());
}

Result<const BatchMachine *> ModelPlanner::launchMachine() {
  if (Machine)
    return &*Machine;
  if (!MachineOf)
    return nullptr;
  auto Known = MachineOf();
  if (!Known)
    return Known.error();
  // Not known yet (no routes recorded): asked again at the next plan.
  if (!*Known)
    return nullptr;
  Machine = **Known;
  // Pieces on host memory run on the launching thread (launch/Launcher.h).
  for (size_t D = 0; D < Devices.size() && D < Machine->Devices.size(); ++D)
    Machine->Devices[D].KernelsOnHostThread = Devices[D]->info().SharesHostMemory;
  return &*Machine;
}

Result<Timeline> ModelPlanner::simulateLaunch(const Problem &Pr,
                                              const std::vector<uint64_t> &Groups,
                                              const std::vector<unsigned> &Chunks,
                                              const BatchMachine &M,
                                              std::vector<BatchOp> &Ops) const {
  Ops.clear();
  const unsigned Used = unsigned(std::count_if(Groups.begin(), Groups.end(),
                                               [](uint64_t G) { return G > 0; }));
  std::vector<Piece> Pieces;
  std::vector<bool> Shares;
  uint64_t First = 0;
  for (unsigned D = 0; D < Groups.size(); ++D)
    if (Groups[D]) {
      Pieces.push_back({D, First, Groups[D], Chunks[D]});
      Shares.push_back(Devices[D]->info().SharesHostMemory);
      First += Groups[D];
    }
  std::vector<size_t> Of;
  const std::vector<Piece> Run = splitChunks(Pieces, Shares, Of);
  // The inputs the devices would exchange, as the launcher chooses it.
  std::vector<ExchangeDevice> Candidates;
  for (unsigned D = 0; D < Groups.size(); ++D)
    if (Groups[D] && !Devices[D]->info().SharesHostMemory)
      Candidates.push_back({int(D), Pr.P.Devices[D].StagedByHost});
  GraphExchange Exchange;
  Exchange.Devices = choosePeerExchange(M, Candidates, Pr.SharedInBytes);
  if (!Exchange.Devices.empty())
    Exchange.PartBytes = splitShared(Pr.SharedInBytes, Exchange.Devices.size(), 256);
  // Each chunk's bytes and its copies' times; the first chunk of a device
  // in the exchange copies in the rest.
  std::vector<GraphPiece> Described;
  std::vector<double> InMs(Run.size(), 0);
  std::set<unsigned> Started;
  for (size_t P = 0; P < Run.size(); ++P) {
    const Piece &Pc = Run[P];
    const unsigned D = Pc.Device;
    GraphPiece G;
    G.Groups = Pc;
    G.DeviceName = Pr.P.Devices[D].Name;
    G.OnHostMemory = Devices[D]->info().SharesHostMemory;
    if (!G.OnHostMemory) {
      G.Pageable = Pr.P.Devices[D].StagedByHost;
      double Bytes = Pr.InBytes(double(Pc.Count));
      InMs[P] = Pr.In[D](double(Pc.Count));
      if (Exchange.takesPart(D) && Started.insert(D).second && Bytes > 0) {
        double Rest = std::max(0.0, Bytes - double(Pr.SharedInBytes));
        InMs[P] *= Rest / Bytes;
        Bytes = Rest;
      }
      G.InBytes = uint64_t(std::max(0.0, Bytes));
      G.OutBytes = uint64_t(std::max(0.0, Pr.OutBytes(double(Pc.Count))));
      G.Back = G.OutBytes > 0 || (Used > 1 && Pr.P.MergeMs);
    }
    Described.push_back(std::move(G));
  }
  LaunchGraph G;
  buildLaunchGraph(Described, Exchange, &M, {}, G);

  // The model's times on the graph's operations. A copy runs at the rate
  // the problem gives the piece's bytes alone (the kernel's own profiled
  // copies, rows and rectangles, not the route's plain buffers), so that
  // the route table adds only what copies and kernels at once do to each
  // other.
  auto Rate = [&](unsigned I, double Ms) -> Status {
    BatchOp &Op = G.Ops[I];
    const LinkCost *Cost = M.Routes.alone(Op.Path);
    if (!Cost)
      return Failure(ErrorCode::NotFound,
                     "no measured route " + routeName(Op.Path, M.deviceNames()));
    if (Op.Bytes > 0 && Ms > Cost->LatencyMs)
      Op.GBps = double(Op.Bytes) / ((Ms - Cost->LatencyMs) * 1e6);
    return Status::success();
  };
  auto KernelMs = [&](unsigned D, uint64_t N) {
    const DeviceEstimate &E = Pr.P.Devices[D];
    return std::max(0.0, E.KernelMs(N) * (Used > 1 ? E.SplitSlowdown : 1));
  };
  for (size_t P = 0; P < Run.size(); ++P) {
    const Piece &Pc = Run[P];
    const PieceOps &R = G.Pieces[P];
    BatchOp &Kernel = G.Ops[unsigned(R.Kernel)];
    Kernel.KernelMs = KernelMs(Pc.Device, Pc.Count);
    if (Described[P].OnHostMemory) {
      // What it reads and writes in host memory, beside the copies there.
      Kernel.HostWrittenBytes = uint64_t(Pr.OutBytes(double(Pc.Count)));
      Kernel.HostBytes = uint64_t(Pr.InBytes(double(Pc.Count))) + Kernel.HostWrittenBytes;
      continue;
    }
    if (Status S = Rate(unsigned(R.CopyIn), InMs[P]); !S)
      return S.error();
    if (Status S = Rate(unsigned(R.CopyOut), Pr.Out[Pc.Device](double(Pc.Count))); !S)
      return S.error();
    // The host's step that puts the results in the user's buffers: the
    // merge of a discontiguous kernel's, else (next to nothing) copies out
    // of staging.
    if (R.Merge >= 0)
      G.Ops[unsigned(R.Merge)].KernelMs =
          Used > 1 && Pr.P.MergeMs ? Pr.P.MergeMs(Pc.Count) : 0;
  }
  G.Order.Name = "as the launcher adds them";
  Ops = std::move(G.Ops);
  return simulateBatch(M, Ops, G.Order);
}

ModelPlan ModelPlanner::describe(const Problem &Pr, const std::vector<uint64_t> &Groups,
                                 std::string Method, const BatchMachine *Machine,
                                 const std::vector<unsigned> *Chunks) const {
  ModelPlan M;
  M.Method = std::move(Method);
  M.Groups = Groups;
  M.BuildMs = Pr.BuildMs;
  M.StagedInCapacity = Pr.P.StagedInCapacity;
  M.StagedOutCapacity = Pr.P.StagedOutCapacity;
  SplitTimes Times = timesInSplit(Pr.P, Groups, Chunks);
  M.EstimatedMs = M.PredictedMs = Times.LaunchMs;
  M.BoundMs = Pr.Bound.Ms;
  M.BoundLimit = Pr.Bound.Limit;
  unsigned Used = 0;
  for (uint64_t G : Groups)
    Used += G > 0;
  uint64_t First = 0;
  for (size_t D = 0; D < Groups.size(); ++D) {
    DevicePrediction P;
    const DeviceEstimate &E = Pr.P.Devices[D];
    P.Device = E.Name;
    if (uint64_t N = Groups[D]) {
      M.Pieces.push_back({unsigned(D), First, N, Times.Chunks[D]});
      First += N;
      P.Chunks = Times.Chunks[D];
      P.InputMs = Times.InMs[D];
      P.KernelMs = Times.KernelMs[D];
      P.OutputMs = Times.OutMs[D];
      P.MergeMs = Used > 1 && Pr.P.MergeMs && E.InputMs ? Pr.P.MergeMs(N) : 0;
      P.DoneMs = Times.DoneMs[D];
    }
    M.Predicted.push_back(P);
  }
  M.AloneMs = Pr.AloneMs;
  if (!Machine)
    return M;
  // The launch as its batch runs: each device's steps summed over its
  // operations (its chunks' overlap), when its last one ends.
  std::vector<BatchOp> Ops;
  auto T = simulateLaunch(Pr, Groups, Times.Chunks, *Machine, Ops);
  if (!T)
    return M; // a route not measured: Algorithm 1's estimate stands
  M.PredictedMs = T->Ms;
  for (size_t I = 0; I < Ops.size(); ++I)
    M.Batch.push_back({Ops[I].Label, T->StartMs[I], T->EndMs[I]});
  for (auto &P : M.Predicted)
    P.InputMs = P.KernelMs = P.OutputMs = P.MergeMs = P.DoneMs = 0;
  std::vector<int> MergeOf(Ops.size(), -1);
  for (size_t I = 0; I < Ops.size(); ++I) {
    const BatchOp &Op = Ops[I];
    double Ms = T->EndMs[I] - T->StartMs[I];
    int D = Op.What == BatchOp::Kernel ? Op.Device
            : Op.Path.To == HostSide   ? Op.Path.From
                                       : Op.Path.To;
    if (D == HostSide) { // a merge: its device's copy out is the one before it waited for
      D = MergeOf[Op.After.front()];
      M.Predicted[size_t(D)].MergeMs += Ms;
      continue;
    }
    DevicePrediction &P = M.Predicted[size_t(D)];
    MergeOf[I] = D;
    (Op.What == BatchOp::Kernel ? P.KernelMs
     : Op.Path.To == HostSide   ? P.OutputMs
                                : P.InputMs) += Ms;
    P.DoneMs = std::max(P.DoneMs, T->EndMs[I]);
  }
  return M;
}

Result<ModelPlan> ModelPlanner::plan(Method How, LoadedKernel &Kernel,
                                     const std::vector<HostArg> &Args, const NDRange &Range) {
  auto Pr = problem(Kernel, Args, Range, /*MayProfile=*/true);
  if (!Pr)
    return Pr.error();
  const PartitionProblem &P = (*Pr)->P;
  if (auto It = (*Pr)->Plans.find(int(How)); It != (*Pr)->Plans.end())
    return It->second;
  auto Start = Clock::now();
  PartitionResult R;
  std::string Name;
  if (!Kernel.Info->Partitionable || How == Method::Single) {
    // One device: the fastest alone.
    R.EstimatedMs = INFINITY;
    for (unsigned D = 0; D < P.Devices.size(); ++D)
      if (PartitionResult One = partitionSingle(P, D); One.EstimatedMs < R.EstimatedMs)
        R = One;
    Name = Kernel.Info->Partitionable ? "fastest single device"
                                      : "fastest single device (the kernel cannot be split)";
  } else if (How == Method::Linear) {
    R = partitionLinear(P);
    Name = "linear";
  } else {
    R = partitionAlgorithm1(P);
    Name = "auto";
  }
  double Us = std::chrono::duration<double, std::micro>(Clock::now() - Start).count();
  auto Machine = launchMachine();
  if (!Machine)
    return Machine.error();
  ModelPlan M = describe(**Pr, R.Groups, Name, *Machine);
  M.RefusedSplitMs = R.RefusedSplitMs;
  if (*Machine && How != Method::Linear) {
    // The choice between Algorithm 1's best split and the fastest device
    // alone, made again on the batches' predictions: the split where it
    // gains MinRelativeGain over each device alone.
    auto Split = [](const std::vector<uint64_t> &G) {
      return std::count_if(G.begin(), G.end(), [](uint64_t N) { return N > 0; }) > 1;
    };
    const std::vector<double> &Alone = (*Pr)->AloneMs;
    unsigned Fastest = unsigned(std::min_element(Alone.begin(), Alone.end()) - Alone.begin());
    auto Refused = [&](const ModelPlan &Plan) {
      return !Split(Plan.Groups) || Plan.PredictedMs > Alone[Fastest] * (1 - P.MinRelativeGain);
    };
    M.RefusedSplitMs = 0;
    // Algorithm 1 kept one device: its split, weighed again.
    if (How == Method::Auto && Split(R.BestSplit) && R.BestSplit != R.Groups) {
      ModelPlan S = describe(**Pr, R.BestSplit, Name, *Machine);
      if (Refused(S))
        M.RefusedSplitMs = S.PredictedMs;
      else
        M = std::move(S);
    }
    if (Refused(M)) {
      double RefusedMs = Split(M.Groups) ? M.PredictedMs : M.RefusedSplitMs;
      std::vector<uint64_t> One(P.Devices.size(), 0);
      One[Fastest] = P.TotalGroups;
      if (One != M.Groups)
        M = describe(**Pr, One, Name, *Machine);
      M.RefusedSplitMs = RefusedMs;
    }
  }
  M.Steps = R.Steps;
  M.PartitionUs = Us;
  M.ShapeKey = (*Pr)->Key;
  (*Pr)->Plans.emplace(int(How), M);
  return M;
}

Result<ModelPlan> ModelPlanner::predict(const std::vector<Piece> &Pieces,
                                        const std::string &Name, LoadedKernel &Kernel,
                                        const std::vector<HostArg> &Args,
                                        const NDRange &Range, bool ChooseChunks) {
  auto Pr = problem(Kernel, Args, Range, /*MayProfile=*/false);
  if (!Pr)
    return Pr.error();
  std::vector<uint64_t> Groups(Devices.size(), 0);
  std::vector<unsigned> Chunks(Devices.size(), 1);
  for (const Piece &P : Pieces)
    if (P.Device < Groups.size()) {
      Groups[P.Device] += P.Count;
      Chunks[P.Device] = ChooseChunks ? 0 : P.Chunks;
    }
  auto Machine = launchMachine();
  if (!Machine)
    return Machine.error();
  ModelPlan M = describe(**Pr, Groups, Name, *Machine, &Chunks);
  M.Pieces = Pieces;
  for (Piece &P : M.Pieces)
    if (P.Device < Groups.size())
      P.Chunks = M.Predicted[P.Device].Chunks;
  return M;
}

Status ModelPlanner::profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                             const NDRange &Range, const std::vector<unsigned> &Which,
                             unsigned Runs) {
  auto Db = database();
  if (!Db)
    return Db.error();
  std::vector<std::vector<uint8_t>> Copies;
  std::vector<HostArg> Scratch = scratchArgs(*Kernel.Info, Args, Copies);
  ProfileOptions Options;
  Options.Runs = Runs;
  Options.Progress = Progress;
  for (unsigned D : Which) {
    if (D >= Devices.size())
      return Failure(ErrorCode::InvalidArgument, "no device " + std::to_string(D));
    if (Progress)
      Progress("profiling " + Kernel.Info->Name + " on " + Devices[D]->info().Name + " (" +
               std::to_string(profileCounts(Range.totalGroups()).size()) + " group counts)");
    if (Status S = profileDevice(Run, Kernel, Scratch, Range, D, Devices[D]->info(), **Db,
                                 Options);
        !S)
      return S;
  }
  // Copy costs are measured with the profiles, not when the first plan
  // needs them.
  if (Status S = measureHostCosts(**Db); !S)
    return S;
  Problems.clear();
  KernelModels.clear();
  Unprofiled.clear();
  return Status::success();
}

Result<std::vector<ModelPlanner::ModelCheck>>
ModelPlanner::checkModel(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                         const NDRange &Range, unsigned Device,
                         const std::vector<uint64_t> &Counts, unsigned Runs) {
  if (Device >= Devices.size())
    return Failure(ErrorCode::InvalidArgument, "no device " + std::to_string(Device));
  if (Status S = checkArgs(*Kernel.Info, Args); !S)
    return S.error();
  LaunchShape Shape = launchShape(*Kernel.Info, Args, Range);
  bool Enough;
  auto Model = kernelModel(kernelKey(Kernel.Source->metadata(), *Kernel.Info), Device, Shape,
                           Enough, /*Required=*/false);
  if (!Model)
    return Model.error();
  std::vector<std::vector<uint8_t>> Copies;
  std::vector<HostArg> Scratch = scratchArgs(*Kernel.Info, Args, Copies);
  std::vector<ModelCheck> Out(Counts.size());
  PieceReport Warm;
  if (Status S = Run.profile(Kernel, Scratch, Range, Device, 1, Warm); !S)
    return S.error();
  for (unsigned Pass = 0; Pass < std::max(1u, Runs); ++Pass)
    for (size_t I = 0; I < Counts.size(); ++I) {
      PieceReport P;
      evictCaches();
      if (Status S = Run.profile(Kernel, Scratch, Range, Device, Counts[I], P); !S)
        return S.error();
      if (Pass == 0 || P.KernelMs < Out[I].MeasuredMs)
        Out[I].MeasuredMs = P.KernelMs;
      Out[I].PredictedMs = Model->predict(double(Counts[I]), Shape.Vars);
    }
  return Out;
}

} // namespace skmd
