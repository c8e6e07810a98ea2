//===- Launcher.cpp - One kernel on several devices at once ---------------===//
#include "launch/Launcher.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <list>

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

/// Counts down the copies in that the CPU waits for.
class InputLatch {
public:
  explicit InputLatch(unsigned Count) : Left(Count) {}
  void done() {
    std::lock_guard<std::mutex> Hold(Lock);
    if (Left && --Left == 0)
      Zero.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> Hold(Lock);
    Zero.wait(Hold, [&] { return Left == 0; });
  }

private:
  std::mutex Lock;
  std::condition_variable Zero;
  unsigned Left;
};

} // namespace

/// OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN as most drivers give it (1024
/// bits): the alignment kernels may assume of a buffer's base, which
/// compilers turn into aligned vector accesses (a double4 at 32 bytes).
constexpr uint64_t BufferBaseAlign = 128;

/// Where a move's region [Lo, Hi) starts in the device's allocation. On a
/// device whose buffers are handles, at Lo, the allocation starting at byte
/// 0. Elsewhere the allocation holds the region alone, the kernel indexing
/// from an address Lo bytes before it: at Lo modulo the base alignment, so
/// that that address is aligned as a whole buffer's would be (at 0, a
/// region starting 8 bytes into double4s faulted on the first aligned
/// access).
static uint64_t regionAt(const Device &D, const BufferMove &M) {
  return D.info().BuffersAreHandles ? uint64_t(M.Lo) : uint64_t(M.Lo) % BufferBaseAlign;
}

bool copiesUseHostCores(const Device &D, const std::vector<HostArg> &Args) {
  if (D.info().SharesHostMemory)
    return false;
  for (const HostArg &A : Args)
    if (A.K == HostArg::Buffer && !D.isPinnedHost(A.Data, A.Bytes))
      return true;
  return false;
}

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

/// One piece on a device that does not share host memory, from its thread.
struct Launcher::PieceRun {
  Clock::time_point Start; ///< The launch's.
  Piece P;
  std::vector<BufferMove> Moves;
  PieceReport Report;
  Status Outcome;
  /// Per move: the device allocation, and the host staging the results
  /// come back to (holding bytes [Lo, Hi) of the buffer).
  std::vector<DeviceMemory> Memory;
  std::vector<std::vector<uint8_t>> Staging;
  /// Told when the copies in are over (or failed), if the CPU waits.
  InputLatch *InputsDone = nullptr;
};

Launcher::Launcher(std::vector<Device *> Devices, CpuDevice &Cpu)
    : Devices(std::move(Devices)), Cpu(Cpu), Workers(this->Devices.size()) {
  for (unsigned I = 0; I < this->Devices.size(); ++I)
    if (this->Devices[I] == &Cpu)
      CpuIndex = I;
}

Status Launcher::load(LoadedKernel &Kernel, unsigned Device) {
  if (Kernel.OnDevice.size() < Devices.size())
    Kernel.OnDevice.resize(Devices.size());
  if (Kernel.OnDevice[Device])
    return Status::success();
  auto K = Devices[Device]->loadKernel(*Kernel.Source, *Kernel.Info);
  if (!K)
    return K.error();
  Kernel.OnDevice[Device] = std::move(*K);
  return Status::success();
}

void Launcher::runOnDevice(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                           const NDRange &Range, PieceRun &Run) {
  Device &D = *Devices[Run.P.Device];
  const std::string &Name = D.info().Name;
  auto Fail = [&](Status S, const char *Step) {
    Run.Outcome = Failure(ErrorCode::DeviceFailed,
                          Name + " failed in " + Step + ": " + S.error().message());
  };
  // The CPU waits for these copies: tell it on every way out of them.
  struct Signal {
    InputLatch *L;
    void operator()() {
      if (L)
        L->done();
      L = nullptr;
    }
    ~Signal() { (*this)(); }
  } InputsOver{Run.InputsDone};

  auto At = [&](Clock::time_point T) {
    return std::chrono::duration<double, std::milli>(T - Run.Start).count();
  };
  // Copy in: allocate the hull of each buffer's bytes, copy what it reads.
  auto T = Clock::now();
  Run.Report.InputAt = At(T);
  std::vector<DeviceArg> DevArgs = hostDeviceArgs(Args);
  std::list<std::vector<char>> Identities; // Stable addresses.
  Run.Memory.resize(Run.Moves.size());
  for (size_t I = 0; I < Run.Moves.size(); ++I) {
    const BufferMove &M = Run.Moves[I];
    uint64_t At = regionAt(D, M);
    auto Mem = D.allocate(At + uint64_t(M.Hi - M.Lo));
    if (!Mem)
      return Fail(Mem.error(), "copy-in");
    Run.Memory[I] = *Mem;
    DevArgs[M.Arg].Address = Mem->Address + At - uint64_t(M.Lo);
    // Offsets from the region's start, the same on both sides. A combined
    // buffer that starts from the identity gets zeros, not the user's bytes
    // (kept until the copies finish: devices copy asynchronously).
    auto *Region = static_cast<const char *>(Args[M.Arg].Data) + M.Lo;
    if (M.Combine && startsFromIdentity(M.Combine->Op)) {
      Identities.emplace_back(uint64_t(M.Hi - M.Lo), 0);
      Region = Identities.back().data();
    }
    for (const Rect &R : toRects(M.In, M.Lo)) {
      if (Status S = D.copyInRect(*Mem, At, Region, R); !S)
        return Fail(S, "copy-in");
      Run.Report.BytesIn += R.RowBytes * R.Rows;
    }
  }
  if (Status S = D.finishCopies(); !S)
    return Fail(S, "copy-in");
  if (faultInjected(Name, "copy-in"))
    return Fail(injected(Name, "copy-in"), "copy-in");
  Run.Report.InputMs = msSince(T);
  InputsOver();

  T = Clock::now();
  Run.Report.KernelAt = At(T);
  if (Status S = faultInjected(Name, "kernel")
                     ? injected(Name, "kernel")
                     : D.run(*Kernel.OnDevice[Run.P.Device], DevArgs, Range,
                             Run.P.First, Run.P.Count);
      !S)
    return Fail(S, "kernel");
  Run.Report.KernelMs = msSince(T);

  // Copy out. A buffer the kernel also reads goes into staging, which
  // reaches the user's buffer only if the whole device succeeded: its old
  // contents are inputs of the CPU's re-run should the device fail. A
  // buffer it only writes goes straight to the user's: a re-run rewrites
  // the same bytes.
  T = Clock::now();
  Run.Report.OutputAt = At(T);
  Run.Staging.resize(Run.Moves.size());
  for (size_t I = 0; I < Run.Moves.size(); ++I) {
    const BufferMove &M = Run.Moves[I];
    if (!M.Merge && !M.Combine && !Kernel.Info->Args[M.Arg].Read) {
      auto *Region = static_cast<char *>(Args[M.Arg].Data) + M.Lo;
      for (const Rect &R : toRects(M.Out, M.Lo)) {
        if (Status S = D.copyOutRect(Region, Run.Memory[I], regionAt(D, M), R); !S)
          return Fail(S, "copy-out");
        Run.Report.BytesOut += R.RowBytes * R.Rows;
      }
      continue;
    }
    if (M.Merge) {
      Run.Staging[I].resize(uint64_t(M.Hi - M.Lo));
      if (Status S = D.copyOut(Run.Staging[I].data(), Run.Memory[I], regionAt(D, M),
                               uint64_t(M.Hi - M.Lo));
          !S)
        return Fail(S, "copy-out");
      Run.Report.BytesOut += uint64_t(M.Hi - M.Lo);
      continue;
    }
    if (M.Out.intervals().empty())
      continue;
    Run.Staging[I].resize(uint64_t(M.Hi - M.Lo));
    for (const Rect &R : toRects(M.Out, M.Lo)) {
      if (Status S = D.copyOutRect(Run.Staging[I].data(), Run.Memory[I], regionAt(D, M), R);
          !S)
        return Fail(S, "copy-out");
      Run.Report.BytesOut += R.RowBytes * R.Rows;
    }
  }
  if (faultInjected(Name, "copy-out"))
    return Fail(injected(Name, "copy-out"), "copy-out");
  Run.Report.OutputMs = msSince(T);
}

Status Launcher::run(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                     const NDRange &Range, const std::vector<Piece> &Pieces,
                     LaunchReport &Report) {
  return runPieces(Kernel, Args, Range, Pieces, /*CoverAll=*/true, Report);
}

Status Launcher::profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                         const NDRange &Range, unsigned Device, uint64_t Count,
                         PieceReport &Report) {
  LaunchReport Launch;
  Status S = runPieces(Kernel, Args, Range, {{Device, 0, Count}}, /*CoverAll=*/false,
                       Launch);
  if (!Launch.Pieces.empty())
    Report = Launch.Pieces.front();
  return S;
}

Status Launcher::runPieces(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                           const NDRange &Range, const std::vector<Piece> &Pieces,
                           bool CoverAll, LaunchReport &Report) {
  auto Start = Clock::now();
  Report = LaunchReport();
  const KernelInfo &K = *Kernel.Info;
  if (Status S = checkArgs(K, Args); !S)
    return S;
  if (Range.totalGroups() == 0)
    return Failure(ErrorCode::InvalidArgument, "the launch has no work-groups");
  if (Status S = checkBufferSizes(K, Args, Range); !S)
    return S;

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

  // Everything the plan runs on must be loaded before anything runs.
  std::vector<bool> Shares;
  bool Others = false;
  for (const Piece &P : Pieces) {
    Shares.push_back(Devices[P.Device]->info().SharesHostMemory);
    Others |= !Shares.back();
    if (Status S = load(Kernel, P.Device); !S)
      return S;
  }
  if (Status S = load(Kernel, CpuIndex); !S)
    return S;
  bool HasMerge = Kernel.OnDevice[CpuIndex]->hasMerge();
  auto Moves = this->Moves.plan(K, Kernel.Source->metadata().SourceHash, Args, Range, Pieces,
                                Shares, HasMerge);
  if (!Moves)
    return Moves.error();
  Report.PlanMs = msSince(Start);

  // The devices with their own memory start first, each on a thread; the
  // CPU's pieces run here meanwhile, with a core left to those threads.
  std::vector<PieceRun> Runs;
  Runs.reserve(Pieces.size());
  for (size_t I = 0; I < Pieces.size(); ++I) {
    PieceRun R;
    R.Start = Start;
    R.P = Pieces[I];
    R.Moves = std::move((*Moves)[I]);
    R.Report.Device = Devices[Pieces[I].Device]->info().Name;
    R.Report.First = Pieces[I].First;
    R.Report.Count = Pieces[I].Count;
    Runs.push_back(std::move(R));
  }
  // The CPU computes after the copies in that its cores make.
  std::vector<PieceRun *> HostCopies;
  bool CpuPieces = false;
  for (size_t I = 0; I < Runs.size(); ++I) {
    CpuPieces |= Shares[I];
    if (!Shares[I] && copiesUseHostCores(*Devices[Runs[I].P.Device], Args))
      HostCopies.push_back(&Runs[I]);
  }
  InputLatch InputsDone(CpuPieces ? unsigned(HostCopies.size()) : 0);
  if (CpuPieces)
    for (PieceRun *R : HostCopies)
      R->InputsDone = &InputsDone;
  // Each device's thread runs that device's pieces in turn.
  for (unsigned D = 0; D < Devices.size(); ++D) {
    std::vector<PieceRun *> Mine;
    for (size_t I = 0; I < Runs.size(); ++I)
      if (!Shares[I] && Runs[I].P.Device == D)
        Mine.push_back(&Runs[I]);
    if (!Mine.empty())
      Workers.post(D, [&, Mine] {
        for (PieceRun *R : Mine)
          runOnDevice(Kernel, Args, Range, *R);
      });
  }
  Cpu.limitThreads(Others ? ThreadPool::computeThreads(Cpu.threads(), true) : 0);
  std::vector<DeviceArg> HostArgs = hostDeviceArgs(Args);
  Status CpuOutcome;
  InputsDone.wait();
  for (PieceRun &R : Runs) {
    if (!Devices[R.P.Device]->info().SharesHostMemory)
      continue;
    auto T = Clock::now();
    R.Report.KernelAt = std::chrono::duration<double, std::milli>(T - Start).count();
    Device &D = *Devices[R.P.Device];
    if (Status S = D.run(*Kernel.OnDevice[R.P.Device], HostArgs, Range,
                         R.P.First, R.P.Count);
        !S && CpuOutcome)
      CpuOutcome = S;
    R.Report.KernelMs = msSince(T);
  }
  Workers.wait();
  Cpu.limitThreads(0);

  // Device memory goes back before anything below can fail: the results
  // are in host staging by now.
  for (size_t I = 0; I < Runs.size(); ++I)
    if (!Shares[I])
      for (DeviceMemory M : Runs[I].Memory)
        if (M.Address)
          Devices[Runs[I].P.Device]->release(M);

  // Results into the user's buffers: copies, merges, and re-runs of the
  // groups of devices that failed. A step that fails ends the merging, but
  // the report is still filled.
  std::string Failed;
  Status MergeOutcome = Status::success();
  const std::string CpuName = Cpu.info().Name;
  for (PieceRun &R : Runs) {
    if (Shares[&R - Runs.data()])
      continue;
    auto T = Clock::now();
    R.Report.MergeAt = std::chrono::duration<double, std::milli>(T - Start).count();
    if (!R.Outcome) {
      R.Report.Failure = R.Outcome.error().message();
      Status S = faultInjected(CpuName, "re-run")
                     ? injected(CpuName, "re-run")
                     : Cpu.run(*Kernel.OnDevice[CpuIndex], HostArgs, Range, R.P.First,
                               R.P.Count);
      R.Report.MergeMs = msSince(T);
      if (!S) {
        MergeOutcome = Failure(ErrorCode::DeviceFailed,
                               R.Report.Failure + "; re-running its groups on the CPU "
                               "failed too: " + S.error().message() +
                                   ". The written buffers are incomplete.");
        break;
      }
      Failed += (Failed.empty() ? "" : "; ") + R.Report.Failure +
                "; its groups [" + std::to_string(R.P.First) + ", " +
                std::to_string(R.P.First + R.P.Count) + ") were re-run on the CPU";
      continue;
    }
    std::vector<uint64_t> Copies;
    bool Merge = false;
    for (size_t I = 0; I < R.Moves.size(); ++I) {
      const BufferMove &M = R.Moves[I];
      auto *Host = static_cast<char *>(Args[M.Arg].Data);
      if (!R.Staging[I].empty() && M.Combine)
        combineInto(Host + M.Lo, R.Staging[I].data(), uint64_t(M.Hi - M.Lo), *M.Combine);
      else if (!R.Staging[I].empty() && !M.Merge)
        for (auto [Lo, Hi] : M.Out.intervals())
          std::memcpy(Host + Lo, R.Staging[I].data() + (Lo - M.Lo), uint64_t(Hi - Lo));
      Merge |= M.Merge;
    }
    if (Merge) {
      // One copy per written buffer, in argument order; a copy indexes
      // like the buffer.
      for (unsigned A = 0; A < K.Args.size(); ++A) {
        if (!K.Args[A].Written || !isBufferArg(K.Args[A].Kind))
          continue;
        uint64_t Address = 0;
        for (size_t I = 0; I < R.Moves.size(); ++I)
          if (R.Moves[I].Arg == A) {
            const BufferMove &M = R.Moves[I];
            Address = M.Merge ? reinterpret_cast<uint64_t>(R.Staging[I].data()) -
                                    uint64_t(M.Lo)
                              // Copied back already: the merge rewrites the
                              // same values from the user's buffer.
                              : reinterpret_cast<uint64_t>(Args[A].Data);
          }
        Copies.push_back(Address);
      }
      Status S = faultInjected(CpuName, "merge")
                     ? injected(CpuName, "merge")
                     : Cpu.merge(*Kernel.OnDevice[CpuIndex], HostArgs, Copies, Range,
                                 R.P.First, R.P.Count);
      if (!S) {
        R.Report.MergeMs = msSince(T);
        MergeOutcome = Failure(ErrorCode::DeviceFailed,
                               "merging " + R.Report.Device + "'s results failed: " +
                                   S.error().message() +
                                   ". The written buffers are incomplete.");
        break;
      }
    }
    R.Report.MergeMs = msSince(T);
  }

  for (PieceRun &R : Runs)
    Report.Pieces.push_back(std::move(R.Report));
  Report.TotalMs = msSince(Start);
  if (!MergeOutcome)
    return MergeOutcome;
  if (!CpuOutcome)
    return CpuOutcome;
  if (!Failed.empty())
    return Failure(ErrorCode::DeviceFailed,
                   Failed + "; every output is complete");
  return Status::success();
}

} // namespace skmd
