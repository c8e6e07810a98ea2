//===- Launcher.cpp - One kernel on several devices at once ---------------===//
#include "launch/Launcher.h"

#include "executor/BatchEngine.h"
#include "batch/PeerExchange.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <set>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

/// Whether SKMD_INJECT_FAULT (comma-separated DEVICE:STEP) names this
/// device and step.
bool faultInjected(const std::string &Device, const char *Step) {
  const char *Spec = std::getenv("SKMD_INJECT_FAULT");
  if (!Spec)
    return false;
  std::string Want = Device + ":" + Step, List = Spec;
  for (size_t At = 0; At <= List.size();) {
    size_t End = List.find(',', At);
    if (End == std::string::npos)
      End = List.size();
    if (List.compare(At, End - At, Want) == 0)
      return true;
    At = End + 1;
  }
  return false;
}

Status injected(const std::string &Device, const char *Step) {
  return Failure(ErrorCode::DeviceFailed,
                 "fault injected by SKMD_INJECT_FAULT=" + Device + ":" + Step);
}

} // namespace

std::vector<DeviceArg> hostDeviceArgs(const std::vector<HostArg> &Args) {
  std::vector<DeviceArg> Out(Args.size());
  for (size_t I = 0; I < Args.size(); ++I)
    switch (Args[I].K) {
    case HostArg::Buffer:
      Out[I].K = DeviceArg::Buffer;
      Out[I].Address = reinterpret_cast<uint64_t>(Args[I].Data);
      break;
    case HostArg::Scalar:
      Out[I].K = DeviceArg::Scalar;
      Out[I].Bytes = Args[I].Value;
      break;
    case HostArg::Local:
      Out[I].K = DeviceArg::Local;
      Out[I].LocalBytes = Args[I].LocalBytes;
      break;
    case HostArg::Unset:
      break;
    }
  return Out;
}

Launcher::Launcher(std::vector<Device *> Devices, CpuDevice &Cpu)
    : Devices(std::move(Devices)), Cpu(Cpu),
      Workers(this->Devices.size() * Schedule::StreamsPerDevice) {
  for (unsigned I = 0; I < this->Devices.size(); ++I) {
    const DeviceInfo &Info = this->Devices[I]->info();
    if (this->Devices[I] == &Cpu)
      CpuIndex = I;
    BatchDevice D;
    D.Name = Info.Name;
    D.CopyEngines = Info.CopyEngines;
    // Pieces on host memory run on the launching thread.
    D.KernelsOnHostThread = Info.SharesHostMemory;
    Engines.Devices.push_back(D);
  }
}

Status Launcher::load(LoadedKernel &Kernel, unsigned Device) {
  if (Kernel.OnDevice.size() < Devices.size())
    Kernel.OnDevice.resize(Devices.size());
  if (Kernel.OnDevice[Device])
    return Status::success();
  std::shared_ptr<DeviceModule> Module;
  if (LoadedProgram *P = Kernel.Program) {
    if (P->OnDevice.size() < Devices.size())
      P->OnDevice.resize(Devices.size());
    Module = P->OnDevice[Device];
  }
  if (!Module) {
    auto M = Devices[Device]->loadModule(*Kernel.Source);
    if (!M)
      return M.error();
    Module = std::move(*M);
    if (Kernel.Program)
      Kernel.Program->OnDevice[Device] = Module;
  }
  auto K = Devices[Device]->loadKernel(Module, *Kernel.Info);
  if (!K)
    return K.error();
  Kernel.OnDevice[Device] = std::move(*K);
  return Status::success();
}

namespace {

/// A device's streams as a schedule's work queue.
class DeviceQueue : public WorkQueue {
public:
  explicit DeviceQueue(Device &D) : D(D) {}
  Result<uint64_t> mark(unsigned Stream) override { return D.mark(DeviceStream(Stream)); }
  Status waitFor(unsigned Stream, uint64_t Mark) override {
    return named(D.waitFor(DeviceStream(Stream), Mark));
  }
  Status finish(uint64_t Mark) override { return named(D.finish(Mark)); }
  void release(uint64_t Mark) override { D.releaseMark(Mark); }

private:
  Status named(Status S) const {
    if (S)
      return S;
    return Failure(ErrorCode::DeviceFailed,
                   D.info().Name + " failed in its queued work: " + S.error().message());
  }
  Device &D;
};

} // namespace

/// One launch's state, from planning to the report.
struct Launcher::LaunchState {
  Clock::time_point Start;
  LoadedKernel &Kernel;
  const KernelInfo &K;
  const std::vector<HostArg> &Args;
  const NDRange &Range;
  /// The pieces the batch runs (a chunked piece's chunks), each one's
  /// piece of the plan in Of, and whether it is on host memory.
  std::vector<Piece> Pieces;
  std::vector<size_t> Of;
  std::vector<bool> Shares;
  std::vector<std::vector<BufferMove>> Moves;
  /// Per argument, the buffer's object (null for other arguments).
  std::vector<BufferObject *> Object;
  /// Objects of the launch's own, for arguments given without one.
  std::vector<std::unique_ptr<BufferObject>> Own;
  /// Each object once, in argument order.
  std::vector<BufferObject *> Distinct;
  /// Buffers whose results are merged (or combined) on the host: the host
  /// holds all of them afterwards.
  std::set<BufferObject *> Merged;
  /// Whether pieces on host memory have moves (else they read and write
  /// an unknown part of each buffer, all of it current on the host).
  bool HostPieces = false;

  struct PieceState {
    /// Per move: the device's copy of the buffer, the bytes copied in,
    /// and host staging for the results that come back through it
    /// (holding bytes [Lo, Hi) of the move).
    std::vector<BufferObject::DeviceCopy *> Copy;
    /// Copies of the piece's own: a combined buffer's, which starts from
    /// the identity on each piece (other pieces of the device included).
    std::vector<std::unique_ptr<BufferObject::DeviceCopy>> Scratch;
    std::vector<IntervalSet> ToCopy;
    /// What of ToCopy comes from the host (not through the exchange).
    std::vector<IntervalSet> FromHost;
    std::vector<std::vector<uint8_t>> Staging;
    std::vector<DeviceArg> Args;
    /// Its operations in the batch.
    int CopyIn = -1, Kernel = -1, CopyOut = -1, Merge = -1;
    /// Failed before its operations were added (no memory for its copies).
    std::optional<Failure> Early;
    /// The device failed; its groups were re-run on the CPU.
    bool ReRun = false;
    PieceReport Report;
  };
  std::vector<PieceState> P;

  /// A copy to the host of bytes only a device holds.
  struct Fetch {
    BufferObject *B;
    BufferObject::DeviceCopy *From;
    IntervalSet Take;
    unsigned Index; ///< Its operation.
  };
  std::deque<Fetch> Fetches; ///< Operations hold their addresses.
  /// An input several devices need, exchanged between them
  /// (batch/PeerExchange.h): the devices and their parts' sizes, as the
  /// graph takes them; per buffer, the bytes it brings every device taking
  /// part (not copied in from the host); per device taking part, the part
  /// of each buffer it brings from the host; each device's copy of each
  /// buffer; each buffer's argument.
  struct ExchangeState {
    GraphExchange Plan;
    std::map<BufferObject *, IntervalSet> Common;
    std::vector<std::map<BufferObject *, IntervalSet>> Parts;
    std::map<std::pair<unsigned, BufferObject *>, BufferObject::DeviceCopy *> CopyOf;
    std::map<BufferObject *, unsigned> ArgOf;
  } Exchange;
  /// Devices whose chunks are queued on their streams (DeviceInfo::QueuesWork):
  /// a chunk's copy in, kernel and copy out follow the previous chunk's on
  /// the device, with no host thread between them. Pieces of one chunk
  /// keep the host's hand-offs, which time each step alone (profiles),
  /// except on a device whose every wait is a round trip to a server
  /// (DeviceInfo::CallsCostRoundTrips).
  std::map<unsigned, DeviceQueue> Queued;
  /// A profile's dry run: every step is timed alone, with the host's
  /// hand-offs between them.
  bool TimesEachStep = false;
  /// The launch as a batch (launch/LaunchGraph.h, run by
  /// executor/BatchEngine.h), issued as added, each operation's work, and
  /// what became of each operation.
  LaunchGraph Graph;
  std::vector<std::function<Status()>> Work;
  BatchReport Ran;
  std::vector<DeviceArg> HostArgs;

  unsigned add(BatchOp Op, std::function<Status()> Run) {
    Work.push_back(std::move(Run));
    return Graph.add(std::move(Op));
  }
  bool done(int Op) const { return Op >= 0 && Ran.Outcome[unsigned(Op)] == ScheduleNode::Done; }

  LaunchState(LoadedKernel &Kernel, const std::vector<HostArg> &Args, const NDRange &Range)
      : Kernel(Kernel), K(*Kernel.Info), Args(Args), Range(Range) {}
  /// Whether move \p M's results come back to the host.
  bool back(const BufferMove &M) const {
    BufferObject *B = Object[M.Arg];
    return B->coherence() == BufferObject::Coherence::HostCoherent || Merged.count(B) ||
           M.Merge || M.Combine;
  }
};

Status Launcher::checkPieces(const KernelInfo &K, const NDRange &Range,
                             const std::vector<Piece> &Pieces, bool CoverAll) const {
  // The pieces must cover every group once.
  std::vector<Piece> Sorted = Pieces;
  std::sort(Sorted.begin(), Sorted.end(),
            [](const Piece &A, const Piece &B) { return A.First < B.First; });
  uint64_t Next = 0;
  for (const Piece &P : Sorted) {
    if (P.Device >= Devices.size())
      return Failure(ErrorCode::InvalidArgument,
                     "the plan names device " + std::to_string(P.Device) +
                         " of " + std::to_string(Devices.size()));
    if (P.First != Next || P.Count == 0)
      return Failure(ErrorCode::InvalidArgument,
                     "the plan's pieces do not cover groups [0, " +
                         std::to_string(Range.totalGroups()) + ") once each");
    Next = P.First + P.Count;
  }
  if (CoverAll ? Next != Range.totalGroups() : Next > Range.totalGroups())
    return Failure(ErrorCode::InvalidArgument,
                   "the plan covers " + std::to_string(Next) + " of the " +
                       std::to_string(Range.totalGroups()) + " groups");
  if (Pieces.size() > 1 && !K.Partitionable)
    return Failure(ErrorCode::InvalidArgument,
                   "kernel '" + K.Name + "' cannot be split across devices (" +
                       K.whyNotPartitionable() + "); give it one device");
  for (const Piece &P : Pieces)
    if (P.Chunks == 0 || (P.Chunks > 1 && !K.Partitionable))
      return Failure(ErrorCode::InvalidArgument,
                     P.Chunks == 0 ? "the plan gives a piece 0 chunks"
                                   : "kernel '" + K.Name + "' cannot run in chunks (" +
                                         K.whyNotPartitionable() + "); give it one chunk");
  return Status::success();
}

Status Launcher::run(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                     const NDRange &Range, const std::vector<Piece> &Pieces,
                     LaunchReport &Report, const std::vector<StepForecast> *Predicted) {
  return runPieces(Kernel, Args, Range, Pieces, /*CoverAll=*/true, Report, Predicted);
}

void Launcher::announceSteps(const LaunchState &L, const std::vector<StepForecast> *Predicted) {
  std::map<unsigned, StepForecast> Steps;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    if (L.Shares[P] || !L.Pieces[P].Count)
      continue;
    unsigned D = L.Pieces[P].Device;
    auto [It, New] = Steps.try_emplace(D);
    StepForecast &F = It->second;
    if (New) {
      if (Predicted && D < Predicted->size()) {
        F.InMs = (*Predicted)[D].InMs;
        F.KernelMs = (*Predicted)[D].KernelMs;
        F.OutMs = (*Predicted)[D].OutMs;
      }
      F.Runs = 0;
      F.CopiesOut = false;
    }
    ++F.Runs;
    F.Groups += L.Pieces[P].Count;
    F.CopiesOut |= L.P[P].CopyOut >= 0 && L.Graph.Ops[unsigned(L.P[P].CopyOut)].Bytes > 0;
  }
  for (auto &[D, F] : Steps)
    Devices[D]->beginStep(F);
}

Status Launcher::profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                         const NDRange &Range, unsigned Device, uint64_t Count,
                         PieceReport &Report) {
  // A dry run on the host's memory as it is, which the profiler may have
  // replaced with scratch copies: the buffers' residency is not its to
  // change.
  std::vector<HostArg> Plain = Args;
  for (HostArg &A : Plain)
    A.Object = nullptr;
  LaunchReport Launch;
  Status S = runPieces(Kernel, Plain, Range, {{Device, 0, Count}}, /*CoverAll=*/false,
                       Launch);
  if (!Launch.Pieces.empty())
    Report = Launch.Pieces.front();
  return S;
}

namespace {

/// A read of at least this many separate ranges of a buffer is scattered.
constexpr size_t ScatteredRanges = 32;
/// The most a scattered read is widened to.
constexpr int64_t MaxWidenedBytes = int64_t(256) << 20;

/// Widens \p In, the bytes a piece copies into \p Copy of \p B (besides
/// \p Coming, copied by an earlier piece), where they are scattered.
void widenScatteredReads(const BufferObject &B, const BufferObject::DeviceCopy &Copy,
                         const IntervalSet &Coming, IntervalSet &In) {
  // A piece that reads a column of a row-major matrix reads one element a
  // row: copied as they are, the rows cost a copy each, at every launch
  // of a loop over the columns (a triangular solver's). A resident
  // buffer's span between them comes in at once instead, where the host
  // holds it: the launches after find the next columns on the device. A
  // buffer on the user's memory starts again from the host at each
  // launch, so its reads stay as they are.
  if (B.coherence() != BufferObject::Coherence::Resident ||
      In.intervals().size() < ScatteredRanges)
    return;
  IntervalSet Span;
  Span.add(In.intervals().front().first, In.intervals().back().second);
  Span = IntervalSet::intersect(Span, B.hostValid());
  Span.subtract(Copy.Valid);
  Span.subtract(Coming);
  if (Span.bytes() <= MaxWidenedBytes)
    In.add(Span);
}

} // namespace

void Launcher::prepareResidency(LaunchState &L) {
  // One copy per buffer and device, holding what every piece of that
  // device needs. Allocated first: growing a copy may move bytes.
  std::map<std::pair<BufferObject *, unsigned>, std::pair<int64_t, int64_t>> Hulls;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    if (L.Shares[P])
      continue;
    for (const BufferMove &M : L.Moves[P]) {
      if (M.Combine)
        continue;
      auto Key = std::make_pair(L.Object[M.Arg], L.Pieces[P].Device);
      auto [It, New] = Hulls.insert({Key, {M.Lo, M.Hi}});
      if (!New && M.Hi > M.Lo) {
        auto &[Lo, Hi] = It->second;
        if (Hi <= Lo)
          It->second = {M.Lo, M.Hi};
        else
          It->second = {std::min(Lo, M.Lo), std::max(Hi, M.Hi)};
      }
    }
  }
  std::map<std::pair<BufferObject *, unsigned>, Result<BufferObject::DeviceCopy *>> Copies;
  for (auto &[Key, Hull] : Hulls)
    Copies.emplace(Key, Key.first->copyFor(*Devices[Key.second], Hull.first, Hull.second));

  // What each move copies in: the bytes it reads that are not current in
  // the device's copy (nor copied by an earlier piece of that device).
  std::map<BufferObject *, IntervalSet> Need;
  std::map<std::pair<BufferObject *, unsigned>, IntervalSet> Coming;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    auto &PS = L.P[P];
    unsigned D = L.Pieces[P].Device;
    if (L.Shares[P]) {
      for (const BufferMove &M : L.Moves[P])
        Need[L.Object[M.Arg]].add(M.In);
      continue;
    }
    // No memory for a copy: the piece fails before it runs.
    auto NoCopy = [&](const Failure &Why) {
      if (!PS.Early)
        PS.Early = Failure(Why.code(),
                           Devices[D]->info().Name + " failed in copy-in: " + Why.message());
      PS.Copy.push_back(nullptr);
    };
    for (const BufferMove &M : L.Moves[P]) {
      BufferObject *B = L.Object[M.Arg];
      if (M.Combine) {
        auto S = BufferObject::allocateRegion(*Devices[D], M.Lo, M.Hi);
        if (!S) {
          NoCopy(S.error());
        } else {
          PS.Scratch.push_back(std::make_unique<BufferObject::DeviceCopy>(std::move(*S)));
          PS.Copy.push_back(PS.Scratch.back().get());
        }
        PS.ToCopy.push_back(M.In);
        continue;
      }
      auto &C = Copies.at({B, D});
      if (!C) {
        NoCopy(C.error());
        PS.ToCopy.emplace_back();
        continue;
      }
      PS.Copy.push_back(*C);
      IntervalSet In = M.In;
      In.subtract((*C)->Valid);
      In.subtract(Coming[{B, D}]);
      // Only a buffer no piece writes: another piece's writes (the CPU's,
      // into host memory, while this copy reads it) must not be taken as
      // current on this device.
      if (!L.K.Args[M.Arg].Written)
        widenScatteredReads(*B, **C, Coming[{B, D}], In);
      Coming[{B, D}].add(In);
      Need[B].add(In);
      PS.ToCopy.push_back(std::move(In));
    }
  }
  for (BufferObject *B : L.Merged)
    Need[B] = B->all();

  // Bytes pieces read that the host does not hold come from the devices
  // that do, before anything runs.
  for (auto &[B, Want] : Need) {
    Want.subtract(B->hostValid());
    for (auto &C : B->copies()) {
      IntervalSet Take = IntervalSet::intersect(Want, C->Valid);
      if (Take.empty())
        continue;
      Want.subtract(Take);
      int From = int(std::find(Devices.begin(), Devices.end(), C->On) - Devices.begin());
      BatchOp Op;
      Op.Label = "bring " + std::to_string(Take.bytes()) + " bytes from " + C->On->info().Name;
      Op.Path = {From, HostSide, copiesUseHostCores(*C->On, L.Args)};
      Op.Bytes = uint64_t(Take.bytes());
      L.Fetches.push_back({B, C.get(), std::move(Take), 0});
      LaunchState::Fetch &F = L.Fetches.back();
      F.Index = L.add(std::move(Op), [&F] {
        auto *Region = static_cast<char *>(F.B->host()) + F.From->Lo;
        for (const Rect &R : toRects(F.Take, F.From->Lo))
          if (Status S = F.From->On->copyOutRect(Region, F.From->Memory, F.From->At, R); !S)
            return S;
        return Status::success();
      });
    }
  }
}

GraphPiece Launcher::describePiece(const LaunchState &L, size_t P) const {
  const Piece &Pc = L.Pieces[P];
  const Device &D = *Devices[Pc.Device];
  GraphPiece G;
  G.Groups = Pc;
  G.DeviceName = D.info().Name;
  G.OnHostMemory = L.Shares[P];
  G.Skipped = L.P[P].Early.has_value();
  if (G.OnHostMemory || G.Skipped)
    return G;
  const auto &PS = L.P[P];
  G.Pageable = copiesUseHostCores(D, L.Args);
  for (const IntervalSet &C : PS.FromHost)
    G.InBytes += uint64_t(C.bytes());
  G.Back = false;
  for (const BufferMove &M : L.Moves[P])
    if (L.back(M)) {
      G.OutBytes += M.Merge ? uint64_t(M.Hi - M.Lo) : uint64_t(M.Out.bytes());
      G.Back = true;
    }
  // The copies in wait for the bytes they take that come to the host
  // first (a combined buffer's, all of them).
  for (const auto &F : L.Fetches)
    for (size_t I = 0; I < L.Moves[P].size(); ++I)
      if (L.Object[L.Moves[P][I].Arg] == F.B &&
          (L.Moves[P][I].Combine || !IntervalSet::intersect(F.Take, PS.ToCopy[I]).empty())) {
        G.After.push_back(F.Index);
        break;
      }
  return G;
}

void Launcher::attachDevicePiece(LaunchState &L, size_t P) {
  auto &PS = L.P[P];
  const Piece &Pc = L.Pieces[P];
  Device &D = *Devices[Pc.Device];
  const std::string &Name = D.info().Name;
  auto Step = [&Name](Status S, const char *What) -> Status {
    if (S)
      return S;
    return Failure(ErrorCode::DeviceFailed,
                   Name + " failed in " + What + ": " + S.error().message());
  };
  PS.Args = hostDeviceArgs(L.Args);
  for (size_t I = 0; I < L.Moves[P].size(); ++I)
    PS.Args[L.Moves[P][I].Arg].Address = PS.Copy[I]->base();
  PS.Staging.resize(L.Moves[P].size());
  const bool Queued = L.Queued.count(Pc.Device);

  L.Work[unsigned(PS.CopyIn)] = [&L, &PS, &D, P, Step, &Name, Queued] {
    const auto &Moves = L.Moves[P];
    for (size_t I = 0; I < Moves.size(); ++I) {
      const BufferMove &M = Moves[I];
      BufferObject::DeviceCopy &C = *PS.Copy[I];
      // A combined buffer that starts from the identity gets zeros, not
      // the user's bytes (kept until the copies finish: devices copy
      // asynchronously).
      std::vector<char> Zeros;
      auto *Region = static_cast<const char *>(L.Args[M.Arg].Data) + C.Lo;
      if (M.Combine && startsFromIdentity(M.Combine->Op)) {
        Zeros.assign(uint64_t(C.Hi - C.Lo), 0);
        Region = Zeros.data();
      }
      for (const Rect &R : toRects(PS.FromHost[I], C.Lo)) {
        if (Status S = D.copyInRect(C.Memory, C.At, Region, R); !S)
          return Step(S, "copy-in");
        PS.Report.BytesIn += R.RowBytes * R.Rows;
      }
      if (!Zeros.empty())
        if (Status S = D.finishCopies(); !S)
          return Step(S, "copy-in");
    }
    // Queued: the kernel waits for the copies on the device.
    if (!Queued)
      if (Status S = D.finishCopies(); !S)
        return Step(S, "copy-in");
    if (faultInjected(Name, "copy-in"))
      return Step(injected(Name, "copy-in"), "copy-in");
    return Status::success();
  };

  L.Work[unsigned(PS.Kernel)] = [&L, &PS, &D, Pc, Step, &Name, Queued] {
    if (faultInjected(Name, "kernel"))
      return Step(injected(Name, "kernel"), "kernel");
    DeviceKernel &K = *L.Kernel.OnDevice[Pc.Device];
    return Step(Queued ? D.queueRun(K, PS.Args, L.Range, Pc.First, Pc.Count)
                       : D.run(K, PS.Args, L.Range, Pc.First, Pc.Count),
                "kernel");
  };

  // Copy out what comes back. A buffer the kernel also reads goes into
  // staging, which reaches the user's buffer only if the whole device
  // succeeded: its old contents are inputs of the CPU's re-run should the
  // device fail. A buffer it only writes goes straight to the user's: a
  // re-run rewrites the same bytes.
  L.Work[unsigned(PS.CopyOut)] = [&L, &PS, &D, P, Step, &Name, Queued] {
    const auto &Moves = L.Moves[P];
    for (size_t I = 0; I < Moves.size(); ++I) {
      const BufferMove &M = Moves[I];
      BufferObject::DeviceCopy &C = *PS.Copy[I];
      if (!L.back(M))
        continue;
      uint64_t From = C.At + uint64_t(M.Lo - C.Lo); // M.Lo in the allocation.
      if (M.Merge) {
        PS.Staging[I].resize(uint64_t(M.Hi - M.Lo));
        if (Status S = D.copyOut(PS.Staging[I].data(), C.Memory, From, uint64_t(M.Hi - M.Lo));
            !S)
          return Step(S, "copy-out");
        PS.Report.BytesOut += uint64_t(M.Hi - M.Lo);
        continue;
      }
      if (M.Out.empty())
        continue;
      bool Direct = !M.Combine && !L.K.Args[M.Arg].Read;
      if (!Direct)
        PS.Staging[I].resize(uint64_t(M.Hi - M.Lo));
      auto *Into = Direct ? static_cast<char *>(L.Args[M.Arg].Data) + M.Lo
                          : reinterpret_cast<char *>(PS.Staging[I].data());
      for (const Rect &R : toRects(M.Out, M.Lo)) {
        if (Status S = Queued ? D.queueCopyOutRect(Into, C.Memory, From, R)
                              : D.copyOutRect(Into, C.Memory, From, R);
            !S)
          return Step(S, "copy-out");
        PS.Report.BytesOut += R.RowBytes * R.Rows;
      }
    }
    if (faultInjected(Name, "copy-out"))
      return Step(injected(Name, "copy-out"), "copy-out");
    return Status::success();
  };
  if (PS.Merge >= 0)
    L.Work[unsigned(PS.Merge)] = [this, &L, P] { return mergePiece(L, P); };
}

namespace {

/// \p Set cut into consecutive parts of \p Sizes bytes, in order.
std::vector<IntervalSet> cutBytes(const IntervalSet &Set, const std::vector<uint64_t> &Sizes) {
  std::vector<IntervalSet> Parts(Sizes.size());
  size_t Part = 0;
  uint64_t Left = Sizes.empty() ? 0 : Sizes[0];
  for (auto [Lo, Hi] : Set.intervals())
    while (Lo < Hi && Part < Sizes.size()) {
      int64_t End = Lo + int64_t(std::min<uint64_t>(Left, uint64_t(Hi - Lo)));
      if (End > Lo)
        Parts[Part].add(Lo, End);
      Left -= uint64_t(End - Lo);
      Lo = End;
      if (Left == 0 && ++Part < Sizes.size())
        Left = Sizes[Part];
    }
  return Parts;
}

} // namespace

const BatchMachine *Launcher::planExchange(LaunchState &L) {
  if (!KnownMachine)
    return nullptr;
  // Per device with its own memory, per buffer, what its pieces copy in
  // and its copy of the buffer.
  std::map<unsigned, std::map<BufferObject *, IntervalSet>> Pending;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    if (L.Shares[P] || L.P[P].Early)
      continue;
    unsigned D = L.Pieces[P].Device;
    for (size_t I = 0; I < L.Moves[P].size(); ++I) {
      const BufferMove &Mv = L.Moves[P][I];
      if (Mv.Combine)
        continue;
      BufferObject *B = L.Object[Mv.Arg];
      Pending[D][B].add(L.P[P].ToCopy[I]);
      L.Exchange.CopyOf[{D, B}] = L.P[P].Copy[I];
      L.Exchange.ArgOf.emplace(B, Mv.Arg);
    }
  }
  if (Pending.size() < 2)
    return nullptr;
  // The bytes every one of them needs.
  std::map<BufferObject *, IntervalSet> Common = Pending.begin()->second;
  for (auto &[D, Need] : Pending)
    for (auto It = Common.begin(); It != Common.end();) {
      auto Has = Need.find(It->first);
      It->second = Has == Need.end() ? IntervalSet()
                                     : IntervalSet::intersect(It->second, Has->second);
      It = It->second.empty() ? Common.erase(It) : std::next(It);
    }
  uint64_t Shared = 0;
  for (auto &[B, Bytes] : Common)
    Shared += uint64_t(Bytes.bytes());
  if (Shared < MinExchangedBytes)
    return nullptr;
  // Asked only now: the routes come from the profile database.
  const BatchMachine *M = KnownMachine();
  if (!M || M->Devices.size() != Devices.size())
    return nullptr;
  std::vector<ExchangeDevice> Candidates;
  for (auto &[D, Need] : Pending)
    Candidates.push_back({int(D), copiesUseHostCores(*Devices[D], L.Args)});
  std::vector<ExchangeDevice> X = choosePeerExchange(*M, Candidates, Shared);
  if (X.empty())
    return nullptr;

  // Part I of each buffer's common bytes goes to device X[I] first.
  L.Exchange.Parts.assign(X.size(), {});
  std::vector<uint64_t> PartBytes(X.size(), 0);
  for (auto &[B, Bytes] : Common) {
    auto Cut = cutBytes(Bytes, splitShared(uint64_t(Bytes.bytes()), X.size(), 256));
    for (size_t I = 0; I < X.size(); ++I) {
      PartBytes[I] += uint64_t(Cut[I].bytes());
      L.Exchange.Parts[I][B] = std::move(Cut[I]);
    }
  }
  L.Exchange.Common = std::move(Common);
  L.Exchange.Plan = {std::move(X), std::move(PartBytes)};
  return M;
}

void Launcher::attachExchange(LaunchState &L, const std::vector<unsigned> &Ops) {
  const auto &X = L.Exchange.Plan.Devices;
  size_t Next = 0;
  // As addExchangeOps adds them: each device's part from the host, then
  // each part to every other device.
  for (size_t I = 0; I < X.size(); ++I)
    L.Work[Ops[Next++]] = [this, &L, I, D = unsigned(X[I].Device)] {
      Device &To = *Devices[D];
      auto Copy = [&]() -> Status {
        for (const auto &[B, Bytes] : L.Exchange.Parts[I]) {
          BufferObject::DeviceCopy &C = *L.Exchange.CopyOf.at({D, B});
          auto *Region = static_cast<const char *>(L.Args[L.Exchange.ArgOf.at(B)].Data) + C.Lo;
          for (const Rect &R : toRects(Bytes, C.Lo))
            if (Status S = To.copyInRect(C.Memory, C.At, Region, R); !S)
              return S;
        }
        if (faultInjected(To.info().Name, "copy-in"))
          return injected(To.info().Name, "copy-in");
        return To.finishCopies();
      };
      if (Status S = Copy(); !S)
        return Status(Failure(ErrorCode::DeviceFailed,
                              To.info().Name +
                                  " failed in copy-in (its part of the inputs it shares): " +
                                  S.error().message()));
      return Status::success();
    };
  for (size_t I = 0; I < X.size(); ++I)
    for (size_t J = 0; J < X.size(); ++J) {
      if (I == J)
        continue;
      L.Work[Ops[Next++]] = [this, &L, I, From = unsigned(X[I].Device),
                             To = unsigned(X[J].Device)] {
        for (const auto &[B, Bytes] : L.Exchange.Parts[I]) {
          BufferObject::DeviceCopy &S = *L.Exchange.CopyOf.at({From, B}),
                                   &T = *L.Exchange.CopyOf.at({To, B});
          for (auto [Lo, Hi] : Bytes.intervals())
            if (Status St = Devices[To]->copyPeer(T.Memory, T.At + uint64_t(Lo - T.Lo),
                                                  *Devices[From], S.Memory,
                                                  S.At + uint64_t(Lo - S.Lo), uint64_t(Hi - Lo));
                !St)
              return Status(Failure(ErrorCode::DeviceFailed,
                                    "copying shared inputs from " + Devices[From]->info().Name +
                                        " to " + Devices[To]->info().Name +
                                        " failed: " + St.error().message()));
        }
        return Status::success();
      };
    }
}

void Launcher::buildBatch(LaunchState &L) {
  std::vector<unsigned> Fetches;
  for (const auto &F : L.Fetches)
    Fetches.push_back(F.Index);
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    Device &D = *Devices[L.Pieces[P].Device];
    bool Chunked = P && L.Of[P] == L.Of[P - 1];
    if (D.info().QueuesWork && !L.Shares[P] &&
        (Chunked || (D.info().CallsCostRoundTrips && !L.TimesEachStep)))
      L.Queued.emplace(L.Pieces[P].Device, D);
  }
  const BatchMachine *M = planExchange(L);
  // What each piece copies from the host: not what the exchange brings.
  std::vector<GraphPiece> Described;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    auto &PS = L.P[P];
    PS.FromHost = PS.ToCopy;
    if (L.Exchange.Plan.takesPart(L.Pieces[P].Device) && !L.Shares[P])
      for (size_t I = 0; I < PS.FromHost.size(); ++I)
        if (auto Ex = L.Exchange.Common.find(L.Object[L.Moves[P][I].Arg]);
            Ex != L.Exchange.Common.end() && !L.Moves[P][I].Combine)
          PS.FromHost[I].subtract(Ex->second);
    Described.push_back(describePiece(L, P));
  }
  buildLaunchGraph(Described, L.Exchange.Plan, M, Fetches, L.Graph);
  L.Work.resize(L.Graph.Ops.size());
  attachExchange(L, L.Graph.ExchangeOps);
  L.HostArgs = hostDeviceArgs(L.Args);
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    auto &PS = L.P[P];
    const PieceOps &Ops = L.Graph.Pieces[P];
    PS.CopyIn = Ops.CopyIn;
    PS.Kernel = Ops.Kernel;
    PS.CopyOut = Ops.CopyOut;
    PS.Merge = Ops.Merge;
    if (PS.Early)
      continue;
    if (!L.Shares[P]) {
      attachDevicePiece(L, P);
      continue;
    }
    const Piece Pc = L.Pieces[P];
    L.Work[unsigned(PS.Kernel)] = [this, &L, Pc] {
      return Devices[Pc.Device]->run(*L.Kernel.OnDevice[Pc.Device], L.HostArgs, L.Range,
                                     Pc.First, Pc.Count);
    };
  }
}

Status Launcher::mergePiece(LaunchState &L, size_t P) {
  auto &PS = L.P[P];
  const std::string CpuName = Cpu.info().Name;
  const auto &Moves = L.Moves[P];
  bool Merge = false;
  for (size_t I = 0; I < Moves.size(); ++I) {
    const BufferMove &M = Moves[I];
    auto *Host = static_cast<char *>(L.Args[M.Arg].Data);
    if (!PS.Staging[I].empty() && M.Combine)
      combineInto(Host + M.Lo, PS.Staging[I].data(), uint64_t(M.Hi - M.Lo), *M.Combine);
    else if (!PS.Staging[I].empty() && !M.Merge)
      for (auto [Lo, Hi] : M.Out.intervals())
        std::memcpy(Host + Lo, PS.Staging[I].data() + (Lo - M.Lo), uint64_t(Hi - Lo));
    Merge |= M.Merge;
  }
  if (!Merge)
    return Status::success();
  // One copy per written buffer, in argument order; a copy indexes like
  // the buffer.
  std::vector<uint64_t> Copies;
  for (unsigned A = 0; A < L.K.Args.size(); ++A) {
    if (!L.K.Args[A].Written || !isBufferArg(L.K.Args[A].Kind))
      continue;
    uint64_t Address = 0;
    for (size_t I = 0; I < Moves.size(); ++I)
      if (Moves[I].Arg == A)
        Address = Moves[I].Merge
                      ? reinterpret_cast<uint64_t>(PS.Staging[I].data()) - uint64_t(Moves[I].Lo)
                      // On the host already (or staying on the device): the
                      // merge rewrites the host's values in place.
                      : reinterpret_cast<uint64_t>(L.Args[A].Data);
    Copies.push_back(Address);
  }
  const Piece &Pc = L.Pieces[P];
  Status S = faultInjected(CpuName, "merge")
                 ? injected(CpuName, "merge")
                 : Cpu.merge(*L.Kernel.OnDevice[CpuIndex], L.HostArgs, Copies, L.Range, Pc.First,
                             Pc.Count);
  if (!S)
    return Status(Failure(ErrorCode::DeviceFailed,
                          "merging " + PS.Report.Device + "'s results failed: " +
                              S.error().message() + ". The written buffers are incomplete."));
  return Status::success();
}

/// The bytes of \p M that a failed kernel may have half written.
static IntervalSet garbled(const BufferMove &M) {
  IntervalSet G = M.Out;
  if (M.Merge || M.Combine)
    G.add(M.Lo, M.Hi);
  return G;
}

void Launcher::commitResidency(LaunchState &L) {
  for (const auto &F : L.Fetches)
    if (L.done(int(F.Index)))
      F.B->nowValid(nullptr, F.Take);
  auto Done = [&](size_t P) {
    const auto &PS = L.P[P];
    return !PS.Early && L.done(PS.Kernel) && (L.Shares[P] || L.done(PS.CopyOut));
  };
  // Pieces on host memory that were not planned write an unknown part of
  // each buffer they may write: first, so the others' writes stay.
  for (size_t P = 0; P < L.Pieces.size(); ++P)
    if (L.Shares[P] && L.Moves[P].empty())
      for (unsigned A = 0; A < L.K.Args.size(); ++A)
        if (L.Object[A] && L.K.Args[A].Written && !L.Merged.count(L.Object[A]))
          L.Object[A]->wroteAt(nullptr, L.Object[A]->all());
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    if (L.Shares[P] || !Done(P))
      continue;
    const Device *D = Devices[L.Pieces[P].Device];
    for (size_t I = 0; I < L.Moves[P].size(); ++I)
      if (!L.Moves[P][I].Combine)
        L.Object[L.Moves[P][I].Arg]->nowValid(D, L.P[P].ToCopy[I]);
  }
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    if (!Done(P))
      continue;
    const Device *D = L.Shares[P] ? nullptr : Devices[L.Pieces[P].Device];
    for (const BufferMove &M : L.Moves[P]) {
      BufferObject *B = L.Object[M.Arg];
      if (L.Merged.count(B))
        continue;
      B->wroteAt(D, M.Out);
      if (D && L.back(M))
        B->nowValid(nullptr, M.Out);
    }
  }
}

Status Launcher::recover(LaunchState &L, std::string &Failed) {
  const std::string CpuName = Cpu.info().Name;
  struct ReRun {
    size_t Of;
    std::string Why;
    uint64_t First, End;
  };
  std::vector<ReRun> ReRuns;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    auto &PS = L.P[P];
    if (L.Shares[P])
      continue;
    std::optional<Failure> Why = PS.Early;
    for (int N : {PS.CopyIn, PS.Kernel, PS.CopyOut})
      if (!Why && N >= 0 && L.Ran.Outcome[unsigned(N)] == ScheduleNode::Failed)
        Why = L.Ran.Errors[unsigned(N)].error();
    // Skipped behind a failed exchange of the inputs it shares, or
    // another piece's failure (a chunk whose copies in follow a failed
    // chunk's): its groups did not run either.
    if (auto It = L.Graph.ExchangeInto.find(L.Pieces[P].Device);
        !Why && PS.CopyIn >= 0 && !L.done(PS.CopyIn) && It != L.Graph.ExchangeInto.end())
      for (unsigned N : L.Graph.ExchangeOps)
        if (!Why && L.Ran.Outcome[N] == ScheduleNode::Failed)
          Why = Failure(ErrorCode::DeviceFailed,
                        Devices[L.Pieces[P].Device]->info().Name +
                            " did not run these groups: the exchange of their shared inputs "
                            "failed (" + L.Ran.Errors[N].error().message() + ")");
    for (int N : {PS.CopyIn, PS.Kernel, PS.CopyOut})
      if (!Why && N >= 0 && !L.done(N))
        Why = Failure(ErrorCode::DeviceFailed,
                      Devices[L.Pieces[P].Device]->info().Name +
                          " did not run these groups: an earlier piece on it failed");
    if (!Why)
      continue;
    PS.ReRun = true;
    PS.Report.Failure = Why->message();
    // The failed device's copies go; what only it held comes back where
    // it can, from what its kernel did not write.
    const Device &D = *Devices[L.Pieces[P].Device];
    std::map<BufferObject *, IntervalSet> Garbled;
    for (const BufferMove &M : L.Moves[P])
      Garbled[L.Object[M.Arg]].add(garbled(M));
    for (BufferObject *B : L.Distinct)
      B->dropAfterFailure(D, Garbled[B]);
    // Its groups run again on the CPU, from the newest copy of what they
    // read.
    auto T = Clock::now();
    PS.Report.MergeAt = std::chrono::duration<double, std::milli>(T - L.Start).count();
    Status S = Status::success();
    for (const BufferMove &M : L.Moves[P])
      if (S)
        if (auto Moved = L.Object[M.Arg]->bringToHost(M.In); !Moved)
          S = Moved.error();
    if (S)
      S = faultInjected(CpuName, "re-run")
              ? injected(CpuName, "re-run")
              : Cpu.run(*L.Kernel.OnDevice[CpuIndex], L.HostArgs, L.Range, L.Pieces[P].First,
                        L.Pieces[P].Count);
    PS.Report.MergeMs = msSince(T);
    if (!S)
      return Failure(ErrorCode::DeviceFailed,
                     PS.Report.Failure + "; re-running its groups on the CPU failed too: " +
                         S.error().message() + ". The written buffers are incomplete.");
    for (const BufferMove &M : L.Moves[P])
      if (!L.Merged.count(L.Object[M.Arg]))
        L.Object[M.Arg]->wroteAt(nullptr, M.Combine ? IntervalSet() : M.Out);
    // A chunked piece's failed chunks as one range where they follow
    // each other.
    if (!ReRuns.empty() && ReRuns.back().Of == L.Of[P] &&
        ReRuns.back().End == L.Pieces[P].First)
      ReRuns.back().End += L.Pieces[P].Count;
    else
      ReRuns.push_back({L.Of[P], PS.Report.Failure, L.Pieces[P].First,
                        L.Pieces[P].First + L.Pieces[P].Count});
  }
  for (const ReRun &R : ReRuns)
    Failed += (Failed.empty() ? "" : "; ") + R.Why + "; its groups [" +
              std::to_string(R.First) + ", " + std::to_string(R.End) +
              ") were re-run on the CPU";
  return Status::success();
}

void Launcher::fillReport(LaunchState &L, const std::vector<Piece> &Pieces,
                          LaunchReport &Report) {
  const BatchReport &Ran = L.Ran;
  for (size_t I = 0; I < L.Graph.Ops.size(); ++I)
    Report.Operations.push_back({L.Graph.Ops[I].Label, engineName(Engines, Ran.Engines[I]),
                                 Ran.StartMs[I], Ran.EndMs[I],
                                 Ran.Outcome[I] == ScheduleNode::Done ||
                                     Ran.Outcome[I] == ScheduleNode::Failed});
  double ToHostFrom = 0, ToHostTo = 0;
  for (const auto &F : L.Fetches) {
    ToHostFrom = Report.BytesToHost ? std::min(ToHostFrom, Ran.StartMs[F.Index])
                                    : Ran.StartMs[F.Index];
    ToHostTo = std::max(ToHostTo, Ran.EndMs[F.Index]);
    Report.BytesToHost += uint64_t(F.Take.bytes());
  }
  Report.ToHostMs = ToHostTo - ToHostFrom;
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    auto &PS = L.P[P];
    PieceReport &R = PS.Report;
    auto Put = [&](int Op, double &At, double &Ms) {
      if (Op < 0 || Ran.Outcome[unsigned(Op)] == ScheduleNode::Skipped)
        return;
      At = Ran.StartMs[unsigned(Op)];
      Ms = Ran.EndMs[unsigned(Op)] - At;
    };
    Put(PS.CopyIn, R.InputAt, R.InputMs);
    Put(PS.Kernel, R.KernelAt, R.KernelMs);
    Put(PS.CopyOut, R.OutputAt, R.OutputMs);
    if (!PS.ReRun)
      Put(PS.Merge, R.MergeAt, R.MergeMs);
  }
  // A chunked piece's chunks as one piece: each step from the first
  // chunk's start to the last one's end (they overlap each other), the
  // bytes summed, the first failure kept.
  Report.Pieces.resize(Pieces.size());
  std::vector<bool> Seen(Pieces.size(), false);
  for (size_t P = 0; P < L.P.size(); ++P) {
    const PieceReport &C = L.P[P].Report;
    PieceReport &R = Report.Pieces[L.Of[P]];
    if (!Seen[L.Of[P]]) {
      Seen[L.Of[P]] = true;
      R = C;
      R.Count = Pieces[L.Of[P]].Count;
      R.Chunks = 1;
      continue;
    }
    ++R.Chunks;
    auto Span = [](double &At, double &Ms, double CAt, double CMs) {
      if (CMs <= 0 && CAt <= 0)
        return;
      double End = std::max(At + Ms, CAt + CMs);
      At = Ms > 0 || At > 0 ? std::min(At, CAt) : CAt;
      Ms = End - At;
    };
    Span(R.InputAt, R.InputMs, C.InputAt, C.InputMs);
    Span(R.KernelAt, R.KernelMs, C.KernelAt, C.KernelMs);
    Span(R.OutputAt, R.OutputMs, C.OutputAt, C.OutputMs);
    Span(R.MergeAt, R.MergeMs, C.MergeAt, C.MergeMs);
    R.BytesIn += C.BytesIn;
    R.BytesOut += C.BytesOut;
    if (R.Failure.empty())
      R.Failure = C.Failure;
  }
}

Status Launcher::runPieces(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                           const NDRange &Range, const std::vector<Piece> &Pieces,
                           bool CoverAll, LaunchReport &Report,
                           const std::vector<StepForecast> *Predicted) {
  LaunchState L(Kernel, Args, Range);
  L.Start = Clock::now();
  L.TimesEachStep = !CoverAll; // a profile's, the one run of part of a grid
  Report = LaunchReport();
  const KernelInfo &K = L.K;
  if (Status S = checkArgs(K, Args); !S)
    return S;
  if (Range.totalGroups() == 0)
    return Failure(ErrorCode::InvalidArgument, "the launch has no work-groups");
  if (Status S = Moves.checkSizes(K, Kernel.Source->metadata().SourceHash, Args, Range); !S)
    return S;
  if (Status S = checkPieces(K, Range, Pieces, CoverAll); !S)
    return S;

  // Everything the plan runs on must be loaded before anything runs.
  bool Others = false;
  std::vector<bool> Shares;
  for (const Piece &P : Pieces) {
    Shares.push_back(Devices[P.Device]->info().SharesHostMemory);
    Others |= !Shares.back();
    if (Status S = load(Kernel, P.Device); !S)
      return S;
  }
  L.Pieces = splitChunks(Pieces, Shares, L.Of);
  for (size_t Of : L.Of)
    L.Shares.push_back(Shares[Of]);
  if (Status S = load(Kernel, CpuIndex); !S)
    return S;
  bool HasMerge = Kernel.OnDevice[CpuIndex]->hasMerge();

  // The buffers' objects: the caller's, or the launch's own for memory
  // given as a pointer (one per distinct buffer, so that an argument
  // passed twice is one buffer on each device too).
  Buffers.tick();
  L.Object.assign(Args.size(), nullptr);
  for (unsigned A = 0; A < Args.size(); ++A) {
    if (Args[A].K != HostArg::Buffer || Args[A].isNullBuffer())
      continue;
    BufferObject *B = Args[A].Object;
    for (unsigned E = 0; !B && E < A; ++E)
      if (L.Object[E] && Args[E].Data == Args[A].Data && Args[E].Bytes == Args[A].Bytes &&
          !Args[E].Object)
        B = L.Object[E];
    if (!B) {
      L.Own.push_back(std::make_unique<BufferObject>(Buffers, Args[A].Data, Args[A].Bytes,
                                                     BufferObject::Coherence::HostCoherent));
      B = L.Own.back().get();
    }
    L.Object[A] = B;
    if (std::find(L.Distinct.begin(), L.Distinct.end(), B) == L.Distinct.end())
      L.Distinct.push_back(B);
  }
  // The user's own memory is the newest copy of itself.
  for (BufferObject *B : L.Distinct)
    if (B->coherence() == BufferObject::Coherence::HostCoherent)
      B->hostWrote(B->all());
  L.HostPieces = std::any_of(L.Distinct.begin(), L.Distinct.end(), [](BufferObject *B) {
    return !B->hostValid().contains(B->all());
  });

  auto Moves = this->Moves.plan(K, Kernel.Source->metadata().SourceHash, Args, Range,
                                L.Pieces, L.Shares, HasMerge, L.HostPieces);
  if (!Moves)
    return Moves.error();
  L.Moves = std::move(*Moves);
  for (const auto &PieceMoves : L.Moves)
    for (const BufferMove &M : PieceMoves)
      if (M.Merge || M.Combine)
        L.Merged.insert(L.Object[M.Arg]);
  L.P.resize(L.Pieces.size());
  for (size_t P = 0; P < L.Pieces.size(); ++P) {
    L.P[P].Report.Device = Devices[L.Pieces[P].Device]->info().Name;
    L.P[P].Report.First = L.Pieces[P].First;
    L.P[P].Report.Count = L.Pieces[P].Count;
  }
  prepareResidency(L);
  buildBatch(L);
  Report.PlanMs = msSince(L.Start);

  BatchOptions Run;
  Run.Order = &L.Graph.Order;
  Run.Predict = false;
  Run.Start = L.Start;
  for (auto &[D, Queue] : L.Queued)
    Run.Queues[D] = &Queue;
  // A profile's run times each step alone: no server gathers it with
  // others'.
  if (!L.TimesEachStep)
    announceSteps(L, Predicted);
  // The CPU's pieces run with a core left to the devices' threads.
  Cpu.limitThreads(Others ? ThreadPool::computeThreads(Cpu.threads(), true) : 0);
  auto Ran = skmd::runBatch(Engines, L.Graph.Ops, L.Work, Workers, Run);
  Cpu.limitThreads(0);
  if (!Ran)
    return Ran.error(); // nothing ran
  L.Ran = std::move(*Ran);

  Status CpuOutcome = Status::success(), MergeOutcome = Status::success();
  for (size_t I = 0; I < L.Graph.Ops.size(); ++I) {
    const BatchOp &Op = L.Graph.Ops[I];
    if (L.Ran.Outcome[I] != ScheduleNode::Failed || Op.What != BatchOp::Kernel)
      continue;
    if (Op.Device == HostSide && MergeOutcome)
      MergeOutcome = L.Ran.Errors[I];
    else if (Op.Device != HostSide && Engines.Devices[unsigned(Op.Device)].KernelsOnHostThread &&
             CpuOutcome)
      CpuOutcome = L.Ran.Errors[I];
  }
  commitResidency(L);
  std::string Failed;
  Status ReRun = recover(L, Failed);
  for (BufferObject *B : L.Merged)
    B->onlyOnHost();
  fillReport(L, Pieces, Report);
  for (auto &PS : L.P)
    for (auto &C : PS.Scratch)
      C->On->release(C->Memory);
  Report.TotalMs = msSince(L.Start);
  for (const Status &S : {ReRun, MergeOutcome, CpuOutcome})
    if (!S)
      return S;
  if (!Failed.empty())
    return Failure(ErrorCode::DeviceFailed, Failed + "; every output is complete");
  return Status::success();
}

} // namespace skmd
