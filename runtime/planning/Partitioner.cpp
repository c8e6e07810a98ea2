//===- Partitioner.cpp - How many groups each device runs -----------------===//
#include "planning/Partitioner.h"
#include "devices/HostCores.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace skmd {

namespace {

/// The paper limits the tree to 2048 induction steps.
constexpr uint64_t MaxSteps = 2048;
/// Doublings of the granule tried before giving up.
constexpr unsigned MaxTolerance = 10;

/// A device's times at one group count.
struct Parts {
  double In = 0, Rest = 0; ///< Inputs; kernel and outputs.
  double Out = 0;          ///< The outputs alone (part of Rest).
  double Merge = 0;        ///< Merging its results, if the launch is split.
  /// In pipelined chunks (chunksFor): In is the first chunk's inputs, Rest
  /// the pipeline after them, Out the last chunk's outputs; the three
  /// steps over every chunk, for reports, in InAll, KernelAll, OutAll.
  unsigned Chunks = 1;
  double InAll = 0, KernelAll = 0, OutAll = 0;
};

/// A prediction below zero (a regression outside its data) costs nothing,
/// not less than nothing; one that is not a number keeps the device out.
double clean(double Ms) {
  return std::isnan(Ms) ? std::numeric_limits<double>::infinity() : std::max(Ms, 0.0);
}

/// Whether \p D's share may run in pipelined chunks: a device with copy
/// engines and a link of its own, whose copies do not take the host's
/// cores while other devices compute on them (a pageable share staged
/// beside the CPU's kernel runs whole, the CPU starting after its inputs).
bool chunksAllowed(const DeviceEstimate &D, bool Split) {
  return D.MaxChunks > 1 && D.InputMs && D.Link < 0 && !(D.StagedByHost && Split);
}

/// Chunk counts a pipelined share is estimated at.
constexpr unsigned ChunkCounts[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};

/// \p Split: whether other devices take part too. \p Chunks: the chunk
/// count the share runs in, or 0 for the one that finishes soonest.
Parts partsAt(const PartitionProblem &P, size_t Device, uint64_t Groups, bool Split,
              unsigned Chunks = 0) {
  const DeviceEstimate &D = P.Devices[Device];
  Parts T;
  if (Groups == 0)
    return T;
  const double Slowdown = Split ? D.SplitSlowdown : 1;
  // In a split the copies run beside the CPU's kernel; a pipelined
  // share's in and out beside each other.
  const bool Beside = Split && D.InputMsBeside;
  const auto &InMs = Beside ? D.InputMsBeside : D.InputMs;
  const auto &OutMs = Beside && D.OutputMsBeside ? D.OutputMsBeside : D.OutputMs;
  const auto &InMsPiped = Beside || !D.InputMsOverlapped ? InMs : D.InputMsOverlapped;
  const auto &OutMsPiped = Beside || !D.OutputMsOverlapped ? OutMs : D.OutputMsOverlapped;
  T.In = clean(InMs ? InMs(Groups) : 0);
  T.Out = clean(OutMs ? OutMs(Groups) : 0);
  double Kernel = clean(D.KernelMs(Groups) * Slowdown);
  T.Rest = Kernel + T.Out;
  T.InAll = T.In;
  T.KernelAll = Kernel;
  T.OutAll = T.Out;
  // Results of a device with its own memory are merged on the host when
  // the kernel is discontiguous and the launch is split.
  if (P.MergeMs && D.InputMs)
    T.Merge = clean(P.MergeMs(Groups));
  if (D.InputMs && (Chunks > 1 || (Chunks == 0 && chunksAllowed(D, Split)))) {
    // k chunks of n / k groups (the first ones a group more): chunk 1's
    // inputs, then k - 1 steps at the pace of the slowest of the three
    // (copies in, kernels, copies out overlap), then the last chunk's
    // kernel and outputs.
    double Best = Chunks ? INFINITY : T.In + T.Rest;
    const unsigned Given[] = {Chunks};
    const unsigned *From = Chunks ? Given : ChunkCounts;
    const unsigned *To = Chunks ? Given + 1 : std::end(ChunkCounts);
    for (const unsigned *It = From; It != To; ++It) {
      // A count beyond the groups runs a group a chunk (the launcher's
      // clamp).
      const unsigned K = unsigned(std::min<uint64_t>(*It, Groups));
      uint64_t Each = (Groups + K - 1) / K;
      if (!Chunks && (K > D.MaxChunks || Each < D.MinChunkGroups))
        break;
      double In = clean(InMsPiped(Each)), Out = clean(OutMsPiped ? OutMsPiped(Each) : 0),
             Ker = clean(D.KernelMs(Each) * Slowdown);
      double Ms = In + Ker + Out + double(K - 1) * std::max({In, Ker, Out});
      if (Ms < Best) {
        Best = Ms;
        T.Chunks = K;
        T.In = In;
        T.Out = Out;
        T.Rest = Ms - In;
        T.InAll = In * double(K);
        T.KernelAll = Ker * double(K);
        T.OutAll = Out * double(K);
      }
      if (*It >= Groups) // The counts after it clamp to the same.
        break;
    }
  }
  return T;
}

/// For each device, the index of the first device on its link (its own
/// index when alone), so that the estimate needs no map per call.
std::vector<size_t> linkLeaders(const PartitionProblem &P) {
  std::vector<size_t> Leader(P.Devices.size());
  for (size_t I = 0; I < Leader.size(); ++I) {
    Leader[I] = I;
    if (P.Devices[I].Link >= 0)
      for (size_t J = 0; J < I; ++J)
        if (P.Devices[J].Link == P.Devices[I].Link) {
          Leader[I] = J;
          break;
        }
  }
  return Leader;
}

/// Whether staged copies share a finite capacity of the host.
bool stagingIsShared(const PartitionProblem &P) {
  return !std::isinf(P.StagedInCapacity) || !std::isinf(P.StagedOutCapacity);
}

/// Staged copies share the host's cores and memory, the inputs and the
/// outputs each; a device's kernel and outputs (Rest) grow with its
/// outputs. Its lists are kept between calls: the decision tree estimates
/// a child whole for each staged device it may give groups to, and with
/// lists allocated and sorted per child the tree took 2.6x as long
/// (partitioner-time's staged form: 1150 us, 436 without).
class StagingShare {
public:
  explicit StagingShare(const PartitionProblem &P) : P(P), OwnOut(P.Devices.size()) {
    for (size_t I = 0; I < P.Devices.size(); ++I)
      if (P.Devices[I].StagedByHost)
        Devices.push_back(I);
    In.resize(Devices.size());
    Out.resize(Devices.size());
  }

  /// \p T: each device's own parts in the split \p Groups.
  void apply(const std::vector<uint64_t> &Groups, std::vector<Parts> &T) {
    if (!stagingIsShared(P))
      return;
    size_t N = 0;
    for (size_t I : Devices)
      if (Groups[I]) {
        In[N] = {T[I].In, I};
        Out[N] = {T[I].Out, I};
        OwnOut[I] = T[I].Out;
        ++N;
      }
    if (N < 2)
      return;
    share(In.data(), N, P.StagedInCapacity, T, &Parts::In);
    share(Out.data(), N, P.StagedOutCapacity, T, &Parts::Out);
    for (size_t J = 0; J < N; ++J) {
      size_t I = Out[J].second;
      T[I].Rest += T[I].Out - OwnOut[I];
    }
  }

private:
  /// \p ByMs: \p N (copy time alone, device) pairs; each device's
  /// \p Field of \p T becomes its time when all of them copy at once and
  /// the host sustains \p Capacity devices' copies: the capacity is shared
  /// fairly, each device going at most as fast as alone; when one is done
  /// the others share what it leaves.
  /// Equal copies all end at n t / Capacity; a device given more bytes
  /// than another ends later (which a bound on the sum alone would not
  /// say, and the decision tree would split between equal GPUs at random).
  static void share(std::pair<double, size_t> *ByMs, size_t N, double Capacity,
                    std::vector<Parts> &T, double Parts::*Field) {
    // A handful of devices: insertion sort.
    for (size_t J = 1; J < N; ++J)
      for (size_t L = J; L > 0 && ByMs[L] < ByMs[L - 1]; --L)
        std::swap(ByMs[L], ByMs[L - 1]);
    double Done = 0, Now = 0; // Each one's own time done so far; the clock.
    for (size_t J = 0; J < N; ++J) {
      double Rate = std::min(1.0, Capacity / double(N - J));
      Now += (ByMs[J].first - Done) / Rate;
      Done = ByMs[J].first;
      T[ByMs[J].second].*Field = Now;
    }
  }

  const PartitionProblem &P;
  std::vector<size_t> Devices; ///< Those StagedByHost.
  std::vector<std::pair<double, size_t>> In, Out;
  std::vector<double> OwnOut;
};

/// A split's EstAllDevsTime, kept so that, as the parent node of the
/// decision tree, a child (groups moved from the base device to one other)
/// is estimated in a few operations per device: only those two devices'
/// parts change, the devices after them on their links start later or
/// earlier by the change in their inputs, and a device that waits for the
/// host-staged copies by the change in when the last of them ends and in
/// their outputs. When the host's staging capacity is finite, a child
/// that changes a staged device's copies changes every staged device's
/// times: it is estimated whole.
class ParentNode {
public:
  ParentNode(const PartitionProblem &P, const std::vector<size_t> &Leader)
      : Leader(Leader), K(P.Devices.size()),
        FiniteStaging(stagingIsShared(P)),
        Cur(K), Whole(K), Staging(P), Pos(K), Waits(K), Staged(K), SharesStaging(K),
        Lends(K), Idle(K), CopyCores(K) {
    // The order a link's inputs go in: by index, those that wait for the
    // staged copies last.
    for (bool W : {false, true})
      for (size_t I = 0; I < K; ++I)
        if (P.Devices[I].SharesCoresWithStaging == W)
          Order.push_back(I);
    for (size_t I = 0; I < K; ++I) {
      Pos[Order[I]] = I;
      Waits[I] = P.Devices[I].SharesCoresWithStaging;
      Lends[I] = Waits[I] ? P.Devices[I].LendingThreads : 0;
      Idle[I] = Waits[I] ? P.Devices[I].IdleCores : 0;
      Staged[I] = P.Devices[I].StagedByHost && !Waits[I];
      CopyCores[I] = Staged[I] ? P.Devices[I].CopyCores : 0;
      SharesStaging[I] = FiniteStaging && P.Devices[I].StagedByHost;
      if (Staged[I])
        StagedList.push_back(I);
      if (Waits[I])
        WaitingList.push_back(I);
      AnyWaiting |= bool(Waits[I]);
    }
  }

  /// \p Groups and \p T (each device's own parts) must outlive the node's
  /// use of them.
  void set(const std::vector<uint64_t> &Groups, const std::vector<Parts> &T) {
    this->Groups = &Groups;
    Raw = &T;
    Eff = &T;
    if (FiniteStaging) {
      Shared = T;
      Staging.apply(Groups, Shared);
      Eff = &Shared;
    }
    run(Groups, *Eff, Cur);
  }

  /// The launch: the slowest device, plus the merges if it is split.
  double total(std::vector<double> *DeviceMs) const { return Cur.total(DeviceMs); }

  /// Each device's times in the split set (timesInSplit).
  SplitTimes times() const {
    const std::vector<uint64_t> &G = *Groups;
    const std::vector<Parts> &T = *Eff;
    double StagedOut = 0;
    for (size_t J : StagedList)
      if (G[J])
        StagedOut += T[J].Out;
    SplitTimes S;
    S.LaunchMs = Cur.total(&S.DoneMs);
    S.InMs.assign(K, 0);
    S.KernelMs.assign(K, 0);
    S.OutMs.assign(K, 0);
    S.Chunks.assign(K, 1);
    for (size_t J = 0; J < K; ++J) {
      if (!G[J])
        continue;
      double Beside = besideEachOther(J, T[J], StagedOut, Cur.WaitingRest) +
                      besideStagedInputs(J, T[J].Rest, Cur.StagedEnd - Cur.Start[J], Cur.Lent) -
                      T[J].Rest;
      // One chunk: its parts as the launch has them (the staging shared);
      // several: each step summed over the chunks.
      bool One = T[J].Chunks == 1;
      S.InMs[J] = One ? T[J].In : T[J].InAll;
      S.KernelMs[J] = (One ? T[J].Rest - T[J].Out : T[J].KernelAll) + (Waits[J] ? Beside : 0);
      S.OutMs[J] = (One ? T[J].Out : T[J].OutAll) + (Waits[J] ? 0 : Beside);
      S.Chunks[J] = T[J].Chunks;
    }
    return S;
  }

  /// The launch with \p B's parts replaced by \p NewB and \p I's by
  /// \p NewI (I gets groups); the two devices' times in \p MsB, \p MsI.
  double child(size_t B, const Parts &NewB, size_t I, const Parts &NewI, double &MsB,
               double &MsI) const {
    // The flag first: tested on every child, the two loads alone made
    // clang 22 compile the tree 40% slower (partitioner-time built with
    // it: 175 us, 124 before the staging model); g++'s code was not.
    if (FiniteStaging && (SharesStaging[B] || SharesStaging[I]))
      return childWhole(B, NewB, I, NewI, MsB, MsI);
    const std::vector<uint64_t> &G = *Groups;
    const std::vector<Parts> &Old = *Eff;
    double DeltaB = NewB.In - Old[B].In, DeltaI = NewI.In - (G[I] ? Old[I].In : 0);
    // How much later a device starts for the changes in the inputs before
    // it on its link.
    auto Shift = [&](size_t J) {
      double D = 0;
      if (Leader[J] == Leader[B] && Pos[J] > Pos[B])
        D += DeltaB;
      if (Leader[J] == Leader[I] && Pos[J] > Pos[I])
        D += DeltaI;
      return D;
    };
    auto PartsOf = [&](size_t J) -> const Parts & {
      return J == B ? NewB : J == I ? NewI : Old[J];
    };
    // When the last staged input ends, the staged outputs and the cores
    // the staging takes, in the child (only waiting devices read them);
    // the waiting devices' time (only staged devices read it).
    double End = 0, Outs = 0, Computing = Cur.WaitingRest;
    unsigned Lent = 0;
    if (AnyWaiting) {
      for (size_t J : StagedList)
        if (G[J] || J == I) {
          End = std::max(End, Cur.Start[J] + Shift(J) + PartsOf(J).In);
          Outs += PartsOf(J).Out;
          Lent += CopyCores[J];
        }
      if (Waits[B] || Waits[I]) {
        Computing = 0;
        for (size_t J : WaitingList)
          if (G[J] || J == I)
            Computing = std::max(Computing, PartsOf(J).Rest);
      }
    }
    auto MsOf = [&](size_t J) {
      const Parts &Pj = PartsOf(J);
      double From = Waits[J] && !Lends[J] ? std::max(Cur.LinkStart[J] + Shift(J), End)
                                          : Cur.Start[J] + Shift(J);
      return From + Pj.In + besideStagedInputs(J, Pj.Rest, End - From, Lent) +
             besideEachOther(J, Pj, Outs, Computing);
    };
    MsB = MsOf(B);
    MsI = MsOf(I);
    double Slowest = std::max(MsB, MsI);
    const bool ComputingChanged = Computing != Cur.WaitingRest;
    // One expression: g++ compiles this loop 5% faster than the same with
    // an if for the staged devices' correction (partitioner-time).
    for (size_t J = 0; J < K; ++J)
      if (J != B && J != I && G[J])
        Slowest = std::max(Slowest, Waits[J] ? MsOf(J)
                                    : Staged[J] && ComputingChanged
                                        ? Cur.Ms[J] + Shift(J) +
                                              std::min(Old[J].Out, Computing) -
                                              std::min(Old[J].Out, Cur.WaitingRest)
                                        : Cur.Ms[J] + Shift(J));
    unsigned NewUsed = Cur.Used + (G[I] == 0);
    double Merge =
        Cur.MergeSum - Old[B].Merge - (G[I] ? Old[I].Merge : 0) + NewB.Merge + NewI.Merge;
    return Slowest + (NewUsed > 1 ? Merge : 0);
  }

private:
  /// The host's cores stage the outputs of StagedByHost devices while a
  /// device that waits for the staged inputs (the CPU) computes on them:
  /// each slows the other. A waiting device takes longer by the staged
  /// outputs' time, a staged device's outputs by the waiting devices'
  /// kernel time, either at most its own time (they cannot overlap by
  /// more than the shorter of the two). Measured on the H100 host (CPU
  /// 9-14% beside the GPU): the GPU's outputs took 1.5-1.8x their time
  /// alone (transpose 8.3 ms for 5.5, median filter 5.0 for 2.9), about
  /// what this adds.
  double besideEachOther(size_t J, const Parts &Pj, double StagedOuts,
                         double Computing) const {
    return Waits[J] ? std::min(StagedOuts, Pj.Rest)
           : Staged[J] ? std::min(Pj.Out, Computing)
                       : 0;
  }

  /// \p Rest of a device that lends cores to the staged copies, computed
  /// on what they leave for \p Staging ms (until their inputs are in) and
  /// on all its threads after; \p Lent: the cores they take.
  double besideStagedInputs(size_t J, double Rest, double Staging, unsigned Lent) const {
    if (!Lends[J] || Staging <= 0)
      return Rest;
    double Left = double(HostCores::threadsLeft(Lends[J], Lent, Idle[J])) / double(Lends[J]);
    if (Left >= 1)
      return Rest;
    double Meanwhile = Staging * Left;
    return Rest <= Meanwhile ? Rest / Left : Rest + Staging - Meanwhile;
  }

  /// When each device's inputs start, when its link is free for them, and
  /// when it is done.
  struct Chain {
    explicit Chain(size_t K) : Start(K), LinkStart(K), Ms(K), Busy(K) {}
    std::vector<double> Start, LinkStart, Ms, Busy;
    /// The longest kernel of a device that waits for the staged inputs.
    double WaitingRest = 0;
    /// When the last staged input ends; the cores the staging takes.
    double StagedEnd = 0;
    unsigned Lent = 0;
    double MergeSum = 0;
    unsigned Used = 0;
    double total(std::vector<double> *DeviceMs) const {
      if (DeviceMs)
        *DeviceMs = Ms;
      double Slowest = Ms.empty() ? 0 : *std::max_element(Ms.begin(), Ms.end());
      return Slowest + (Used > 1 ? MergeSum : 0);
    }
  };

  /// EstAllDevsTime of \p T (shared staging already applied) into \p C.
  void run(const std::vector<uint64_t> &Groups, const std::vector<Parts> &T, Chain &C) const {
    std::fill(C.Busy.begin(), C.Busy.end(), 0.0);
    C.Used = 0;
    C.MergeSum = 0;
    C.WaitingRest = 0;
    for (size_t I : WaitingList)
      if (Groups[I])
        C.WaitingRest = std::max(C.WaitingRest, T[I].Rest);
    // The waiting devices come last in Order: the staged ones are known.
    double StagedOut = 0;
    C.StagedEnd = 0;
    C.Lent = 0;
    for (size_t I : Order) {
      C.LinkStart[I] = C.Busy[Leader[I]];
      if (!Groups[I]) {
        C.Start[I] = C.LinkStart[I];
        C.Ms[I] = 0;
        continue;
      }
      C.Start[I] =
          Waits[I] && !Lends[I] ? std::max(C.LinkStart[I], C.StagedEnd) : C.LinkStart[I];
      C.Busy[Leader[I]] = C.Start[I] + T[I].In;
      C.Ms[I] = C.Start[I] + T[I].In +
                besideStagedInputs(I, T[I].Rest, C.StagedEnd - C.Start[I], C.Lent) +
                besideEachOther(I, T[I], StagedOut, C.WaitingRest);
      if (Staged[I]) {
        C.StagedEnd = std::max(C.StagedEnd, C.Start[I] + T[I].In);
        StagedOut += T[I].Out;
        C.Lent += CopyCores[I];
      }
      C.MergeSum += T[I].Merge;
      ++C.Used;
    }
  }

  double childWhole(size_t B, const Parts &NewB, size_t I, const Parts &NewI, double &MsB,
                    double &MsI) const {
    // Only whether a device has groups is read, not how many.
    WholeGroups = *Groups;
    WholeGroups[I] = std::max<uint64_t>(WholeGroups[I], 1);
    WholeParts = *Raw;
    WholeParts[B] = NewB;
    WholeParts[I] = NewI;
    Staging.apply(WholeGroups, WholeParts);
    run(WholeGroups, WholeParts, Whole);
    MsB = Whole.Ms[B];
    MsI = Whole.Ms[I];
    return Whole.total(nullptr);
  }

  const std::vector<size_t> &Leader;
  size_t K;
  const std::vector<uint64_t> *Groups = nullptr;
  /// Whether the host's staging capacity is finite.
  bool FiniteStaging;
  /// The parent's parts: each device's own (Raw), and as the launch has
  /// them (Eff: Raw, or Shared, with the staging shared); its chain.
  const std::vector<Parts> *Raw = nullptr, *Eff = nullptr;
  std::vector<Parts> Shared;
  Chain Cur;
  /// Scratch for children estimated whole.
  mutable Chain Whole;
  mutable std::vector<uint64_t> WholeGroups;
  mutable std::vector<Parts> WholeParts;
  mutable StagingShare Staging;
  /// Devices in input order, and each one's place in it.
  std::vector<size_t> Order, Pos;
  // Not vector<bool>: read in the inner loop.
  std::vector<char> Waits, Staged, SharesStaging;
  /// The waiting devices' threads where they lend cores to the staging
  /// (else 0) and the host's cores they leave idle; the cores each staged
  /// device's copies take.
  std::vector<unsigned> Lends, Idle, CopyCores;
  std::vector<size_t> StagedList, WaitingList;
  bool AnyWaiting = false;
};

PartitionResult finish(const PartitionProblem &P, std::vector<uint64_t> Groups) {
  PartitionResult R;
  R.DeviceMs.assign(Groups.size(), 0);
  R.EstimatedMs = estimateLaunchMs(P, Groups, &R.DeviceMs);
  R.Groups = std::move(Groups);
  return R;
}

} // namespace

namespace {

/// Each device's parts in the split \p Groups, before the staging is shared.
std::vector<Parts> partsInSplit(const PartitionProblem &P, const std::vector<uint64_t> &Groups,
                                const std::vector<unsigned> *Chunks = nullptr) {
  std::vector<Parts> T(Groups.size());
  bool Split = std::count_if(Groups.begin(), Groups.end(), [](uint64_t G) { return G; }) > 1;
  for (size_t I = 0; I < Groups.size(); ++I)
    T[I] = partsAt(P, I, Groups[I], Split, Chunks ? (*Chunks)[I] : 0);
  return T;
}

} // namespace

double estimateLaunchMs(const PartitionProblem &P, const std::vector<uint64_t> &Groups,
                        std::vector<double> *DeviceMs) {
  std::vector<Parts> T = partsInSplit(P, Groups);
  const std::vector<size_t> Leader = linkLeaders(P);
  ParentNode Split(P, Leader);
  Split.set(Groups, T);
  return Split.total(DeviceMs);
}

SplitTimes timesInSplit(const PartitionProblem &P, const std::vector<uint64_t> &Groups,
                        const std::vector<unsigned> *Chunks) {
  std::vector<Parts> T = partsInSplit(P, Groups, Chunks);
  const std::vector<size_t> Leader = linkLeaders(P);
  ParentNode Split(P, Leader);
  Split.set(Groups, T);
  return Split.times();
}

PartitionResult partitionSingle(const PartitionProblem &P, unsigned Device) {
  std::vector<uint64_t> Groups(P.Devices.size(), 0);
  if (Device < Groups.size())
    Groups[Device] = P.TotalGroups;
  return finish(P, std::move(Groups));
}

PartitionResult partitionLinear(const PartitionProblem &P) {
  size_t K = P.Devices.size();
  std::vector<double> Rate(K, 0);
  double Sum = 0;
  for (size_t I = 0; I < K; ++I) {
    // The kernel's speed when the launch is split, copies left out.
    double Ms = P.TotalGroups ? P.Devices[I].KernelMs(P.TotalGroups) *
                                    (K > 1 ? P.Devices[I].SplitSlowdown : 1)
                              : 0;
    Rate[I] = Ms > 0 && std::isfinite(Ms) ? double(P.TotalGroups) / Ms : 0;
    Sum += Rate[I];
  }
  std::vector<uint64_t> Groups(K, 0);
  if (Sum <= 0) {
    if (K)
      Groups[0] = P.TotalGroups;
    return finish(P, std::move(Groups));
  }
  uint64_t Given = 0;
  size_t Fastest = size_t(std::max_element(Rate.begin(), Rate.end()) - Rate.begin());
  for (size_t I = 0; I < K; ++I) {
    Groups[I] = uint64_t(double(P.TotalGroups) * Rate[I] / Sum);
    Given += Groups[I];
  }
  Groups[Fastest] += P.TotalGroups - Given; // Rounding leftovers.
  return finish(P, std::move(Groups));
}

namespace {

/// Cnt_OffsetsMergeCost (line 9): the smallest multiple of \p Granule, from
/// \p From on, whose removal from every group on \p Base saves that device
/// at least the merge it causes; the first offload to an idle device.
uint64_t minOffload(const PartitionProblem &P, unsigned Base, uint64_t Granule, uint64_t From) {
  if (!P.MergeMs)
    return Granule;
  const uint64_t Total = P.TotalGroups;
  Parts All = partsAt(P, Base, Total, false);
  double Whole = All.In + All.Rest;
  uint64_t C = From;
  for (; C < Total; C += Granule) {
    Parts Left = partsAt(P, Base, Total - C, true);
    if (Whole - (Left.In + Left.Rest) >= P.MergeMs(C))
      return C;
  }
  return C;
}

/// Where a walk of the tree ended.
struct TreeEnd {
  std::vector<uint64_t> Groups;
  double EstimatedMs = 0;
  uint64_t Granule = 0, MinOffload = 0;
  /// Each device's last move.
  std::vector<uint64_t> LastMove;
  unsigned Steps = 0, Trials = 0;
};

/// Lines 12-46 at one granule: from the split \p E.Groups (estimated
/// \p Prev), the walk down the tree moving groups from \p Base at
/// E.Granule, a first offload being E.MinOffload. \p E becomes where it
/// ended: the last node's split and estimate, each device's last move, and
/// the moves and children counted.
void walk(const PartitionProblem &P, unsigned Base, double Prev, TreeEnd &E) {
  const size_t K = P.Devices.size();
  std::vector<uint64_t> &Groups = E.Groups;
  const uint64_t Granule = E.Granule, MinOffload = E.MinOffload;
  std::vector<Parts> T = partsInSplit(P, Groups);
  const std::vector<size_t> Leader = linkLeaders(P);
  ParentNode Parent(P, Leader);
  Parent.set(Groups, T);
  // Each device's parts at the count it was last tried with: between two
  // steps only the base device and the one that got groups change, so
  // the others' children repeat (one model evaluation per step, not one
  // per device).
  std::vector<uint64_t> TriedAt(K, UINT64_MAX);
  std::vector<Parts> TriedParts(K);
  unsigned Tolerate = 0;
  uint64_t Offloaded = 1;
  // Until 10 steps in a row find no move.
  while (Offloaded > 0 || Tolerate < MaxTolerance) {
    Offloaded = 0;
    unsigned Best = unsigned(K);
    double BestDiff = -std::numeric_limits<double>::infinity(), BestMs = 0;
    uint64_t BestCount = 0;
    // The base device's parts after giving away n groups, shared by the
    // children that give the same n.
    uint64_t CachedGive = 0;
    Parts CachedBase;
    for (unsigned I = 0; I < K; ++I) {
      if (I == Base)
        continue;
      uint64_t Give = (Groups[I] == 0 ? MinOffload : Granule);
      // Line 22: 2^TolerateCnt times more after fruitless steps.
      Give = Tolerate >= 63 ? UINT64_MAX : Give << Tolerate;
      if (Give >= Groups[Base] || Give == 0)
        continue; // Line 23; the base device keeps at least one group.
      uint64_t BaseLeft = Groups[Base] - Give, Gets = Groups[I] + Give;
      if (Give != CachedGive) {
        CachedBase = partsAt(P, Base, BaseLeft, true);
        CachedGive = Give;
      }
      if (TriedAt[I] != Gets) {
        TriedParts[I] = partsAt(P, I, Gets, true);
        TriedAt[I] = Gets;
      }
      double MsBase, MsI;
      double Ms = Parent.child(Base, CachedBase, I, TriedParts[I], MsBase, MsI);
      ++E.Trials;
      // Lines 30-33: a candidate if the launch gets faster; the balancing
      // factor is how much slower the base device still is than this one.
      if (Ms < Prev) {
        double Diff = MsBase - MsI;
        if (Diff > BestDiff) {
          BestDiff = Diff;
          Best = I;
          BestCount = Give;
          BestMs = Ms;
        }
      }
    }
    if (Best < K) {
      // Lines 37-42. The new parts were computed for the winning child.
      Groups[Base] -= BestCount;
      Groups[Best] += BestCount;
      T[Base] = BestCount == CachedGive ? CachedBase : partsAt(P, Base, Groups[Base], true);
      T[Best] = TriedParts[Best];
      Parent.set(Groups, T);
      Prev = BestMs;
      Offloaded = BestCount;
      E.LastMove[Best] = BestCount;
      Tolerate = 0;
      ++E.Steps;
    } else {
      ++Tolerate;
    }
  }
  E.EstimatedMs = Prev;
}

/// Lines 5-46: the decision tree from every group on \p Base, which alone
/// takes \p Prev, at granule ceil(TotalGroups / \p Levels).
///
/// Walked at that granule from the root, the tree takes a step per granule
/// moved: 1229-1346 steps for 4 GPU-like devices and a CPU
/// (partitioner-time), 0.4 ms where copies share the host. Above
/// P.CoarseLevels granules the walk starts nearer its end: first the tree
/// at a 16x coarser granule, then each device's last coarse move is given
/// back to the base device (the coarse steps may overshoot by that much
/// where the fine ones would have stopped) and the fine walk goes on from
/// there: some 128 + 16 moves a device instead of 2048, and the better of
/// the two ends is kept.
TreeEnd decisionTree(const PartitionProblem &P, unsigned Base, double Prev, uint64_t Levels) {
  const size_t K = P.Devices.size();
  const uint64_t Total = P.TotalGroups;
  TreeEnd E;
  // Lines 5-9: the granule, and the first offload's size.
  E.Granule = std::max<uint64_t>(1, (Total + Levels - 1) / Levels);
  E.Groups.assign(K, 0);
  E.Groups[Base] = Total;
  E.LastMove.assign(K, 0);
  if (!P.CoarseLevels || Total / E.Granule <= P.CoarseLevels) {
    E.MinOffload = minOffload(P, Base, E.Granule, E.Granule);
    walk(P, Base, Prev, E);
    return E;
  }
  constexpr uint64_t Coarser = 16;
  TreeEnd Coarse = decisionTree(P, Base, Prev, (Levels + Coarser - 1) / Coarser);
  E.Steps = Coarse.Steps;
  E.Trials = Coarse.Trials;
  // The coarse tree's first offload was the first multiple of its granule
  // to save the merge; the fine one is taken to be above the multiple
  // before that (true where the base device's time is monotonic).
  E.MinOffload = minOffload(
      P, Base, E.Granule,
      std::max(E.Granule, Coarse.MinOffload - std::min(Coarse.MinOffload, Coarse.Granule) +
                              E.Granule));
  E.Groups = Coarse.Groups;
  for (size_t I = 0; I < K; ++I) {
    if (I == Base)
      continue;
    uint64_t Back = std::min(E.Groups[I], Coarse.LastMove[I]);
    if (E.Groups[I] - Back < E.MinOffload)
      Back = E.Groups[I]; // Below a first offload: idle again.
    E.Groups[I] -= Back;
    E.Groups[Base] += Back;
  }
  walk(P, Base, estimateLaunchMs(P, E.Groups), E);
  if (Coarse.EstimatedMs < E.EstimatedMs) {
    E.Groups = std::move(Coarse.Groups);
    E.EstimatedMs = Coarse.EstimatedMs;
  }
  return E;
}

/// The tree's plan from every group on \p Base, which alone takes \p Prev.
PartitionResult decisionTreePlan(const PartitionProblem &P, unsigned Base, double Prev) {
  TreeEnd E = decisionTree(P, Base, Prev, MaxSteps);
  PartitionResult Done = finish(P, std::move(E.Groups));
  Done.Steps = E.Steps;
  Done.Trials = E.Trials;
  return Done;
}

} // namespace

PartitionResult partitionAlgorithm1(const PartitionProblem &P) {
  const size_t K = P.Devices.size();
  if (K == 0 || P.TotalGroups == 0)
    return finish(P, std::vector<uint64_t>(K, 0));

  // Lines 1-4: everything on the fastest single device, transfers included.
  std::vector<double> Alone(K);
  for (unsigned I = 0; I < K; ++I) {
    std::vector<uint64_t> One(K, 0);
    One[I] = P.TotalGroups;
    Alone[I] = estimateLaunchMs(P, One);
  }
  auto FastestOf = [&](auto &&Eligible) {
    unsigned Best = unsigned(K);
    for (unsigned I = 0; I < K; ++I)
      if (Eligible(I) && (Best == K || Alone[I] < Alone[Best]))
        Best = I;
    return Best;
  };
  unsigned Base = FastestOf([](unsigned) { return true; });
  PartitionResult R = decisionTreePlan(P, Base, Alone[Base]);
  auto KeepBetter = [&](PartitionResult Alt) {
    unsigned Steps = R.Steps + Alt.Steps, Trials = R.Trials + Alt.Trials;
    if (Alt.EstimatedMs < R.EstimatedMs)
      R = std::move(Alt);
    R.Steps = Steps;
    R.Trials = Trials;
  };

  // A base device that waits for the staged inputs pays their fixed start
  // on the first granule it gives to a staged device, and for every
  // granule it waits longer while shrinking its kernel by little: from it
  // the tree can stop where the GPUs together would have been faster
  // (Box-Muller on the 2xH200 host: the CPU alone 34 ms, two GPUs 20).
  // The tree from the fastest device that does not wait, too, then.
  bool AnyStaged = std::any_of(P.Devices.begin(), P.Devices.end(),
                               [](const DeviceEstimate &D) { return D.StagedByHost; });
  if (P.Devices[Base].SharesCoresWithStaging && AnyStaged) {
    unsigned Other = FastestOf([&](unsigned I) { return !P.Devices[I].SharesCoresWithStaging; });
    if (Other < K)
      KeepBetter(decisionTreePlan(P, Other, Alone[Other]));
  }
  // The tree is greedy: each step balances the base device against the
  // one that would end first, and a device whose time grows with the
  // others' copies (the CPU, after the staged inputs and beside the
  // staged outputs) can take more than its share that way (Box-Muller on
  // the 2xH200 host: the tree's plan, CPU 17%, estimated 23.0 ms and
  // measured 21.5; the proportional split, CPU 1%, estimated 20.3 and
  // measured 18.6). The proportional split is estimated too; one more
  // estimate.
  PartitionResult Linear = partitionLinear(P);
  Linear.Trials = 1;
  KeepBetter(std::move(Linear));
  R.BestSplit = R.Groups;
  if (R.EstimatedMs > Alone[Base] * (1 - P.MinRelativeGain)) {
    PartitionResult Single = partitionSingle(P, Base);
    Single.Steps = R.Steps;
    Single.Trials = R.Trials;
    if (R.Groups[Base] != P.TotalGroups)
      Single.RefusedSplitMs = R.EstimatedMs;
    Single.BestSplit = std::move(R.BestSplit);
    R = std::move(Single);
  }
  return R;
}

} // namespace skmd
