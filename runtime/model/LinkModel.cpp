//===- LinkModel.cpp - What copies to and from a device cost --------------===//
#include "model/LinkModel.h"
#include "model/Profiler.h"
#include "support/StartedThreads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace skmd {

namespace {

constexpr uint64_t LargeBytes = 64ull << 20;
/// Copies rotate over this many host regions, so that each one reads or
/// writes memory no recent copy left in the caches, as a launch's copies
/// of the user's buffers do (a hot 32 MiB source made a GPU's pageable
/// copies look a third faster than in launches).
constexpr uint64_t Regions = 4;
/// The sizes the bandwidth and fixed cost are fitted to: a launch's copies
/// range from a few rows to whole buffers, and a staged copy's fixed costs
/// (filling and draining the pipeline, a tenth of a millisecond or more on
/// the GPU hosts) show only in mid-sized copies; a 4 KiB copy bounds the
/// latency from below.
constexpr uint64_t TinyBytes = 4ull << 10;
constexpr uint64_t Sizes[] = {1ull << 20, 4ull << 20, 16ull << 20, LargeBytes};

/// Where run \p Run of copies of \p Bytes starts in the Regions regions of
/// LargeBytes: each region in turn, and further into it each round, so
/// that no run copies bytes an earlier one left in the caches. While runs
/// took the regions' first bytes again, small copies found them in the
/// last-level cache: on the H100 host page-locked copies of 1-32 MiB alone
/// in batches took 5-13% longer than that fit said, 0-3% after.
uint64_t coldOffset(unsigned Run, uint64_t Bytes) {
  uint64_t Round = Run / Regions;
  uint64_t Within = Bytes < LargeBytes ? Round * Bytes % (LargeBytes - Bytes + 1) : 0;
  return Run % Regions * LargeBytes + Within;
}

/// The median of \p Times, which it sorts.
double medianOf(std::vector<double> &Times) {
  std::sort(Times.begin(), Times.end());
  size_t N = Times.size();
  return N == 0 ? 0 : N % 2 ? Times[N / 2] : (Times[N / 2 - 1] + Times[N / 2]) / 2;
}

/// The median of \p Runs timings of \p Copy(run), in ms, after one untimed
/// run. The median, not the best: predictions are of the copies a launch
/// or batch makes, and the best of seven staged copies was 1.1-1.3x
/// faster than their median on the H100 host (cold memory each), which
/// left batches' staged copies predicted a third short.
template <typename F> Result<double> typicalMs(unsigned Runs, F &&Copy) {
  std::vector<double> Times;
  for (unsigned R = 0; R <= Runs; ++R) {
    auto T = std::chrono::steady_clock::now();
    if (Status S = Copy(R); !S)
      return S.error();
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - T)
                    .count();
    if (R > 0)
      Times.push_back(Ms);
  }
  return medianOf(Times);
}

/// Latency and bandwidth: the line through the times of the copies of
/// Sizes (least squares), its intercept no less than a tiny copy's time;
/// \p CopyBytes(bytes, host offset).
template <typename F> Result<LinkCost> costOf(F &&CopyBytes) {
  auto Tiny = typicalMs(20, [&](unsigned) { return CopyBytes(TinyBytes, 0); });
  if (!Tiny)
    return Tiny.error();
  double Sx = 0, Sy = 0, Sxx = 0, Sxy = 0, N = 0, LargestMs = 0;
  for (uint64_t Bytes : Sizes) {
    auto T = typicalMs(2 * Regions - 1, [&](unsigned R) {
      return CopyBytes(Bytes, coldOffset(R, Bytes));
    });
    if (!T)
      return T.error();
    double X = double(Bytes);
    LargestMs = *T;
    Sx += X;
    Sy += *T;
    Sxx += X * X;
    Sxy += X * *T;
    N += 1;
  }
  double PerByte = (N * Sxy - Sx * Sy) / (N * Sxx - Sx * Sx);
  double Intercept = (Sy - PerByte * Sx) / N;
  if (!(PerByte > 0)) {
    // Copies so fast that the sizes' times are noise around their fixed
    // cost: the largest copy's rate beyond the tiny one's time.
    PerByte = std::max(LargestMs - *Tiny, LargestMs / 2) / double(Sizes[std::size(Sizes) - 1]);
    Intercept = *Tiny;
  }
  LinkCost C;
  C.LatencyMs = std::max(*Tiny, Intercept);
  C.GBps = PerByte > 0 ? 1e-6 / PerByte : 0;
  return C;
}

/// Host memory that frees itself: page-locked from \p D, or plain.
struct HostBlock {
  Device *Owner = nullptr;
  void *P = nullptr;
  HostBlock(Device *Owner, uint64_t Bytes, bool Pinned) {
    if (Pinned && (P = Owner->allocPinnedHost(Bytes)))
      this->Owner = Owner;
    else if (!Pinned)
      P = std::aligned_alloc(4096, (std::max<uint64_t>(Bytes, 1) + 4095) / 4096 * 4096);
  }
  HostBlock(const HostBlock &) = delete;
  HostBlock &operator=(const HostBlock &) = delete;
  ~HostBlock() {
    if (Owner)
      Owner->freePinnedHost(P);
    else
      std::free(P);
  }
};

/// Device memory that frees itself.
struct DeviceBlock {
  Device &D;
  DeviceMemory M;
  DeviceBlock(Device &D, DeviceMemory M) : D(D), M(M) {}
  DeviceBlock(const DeviceBlock &) = delete;
  DeviceBlock &operator=(const DeviceBlock &) = delete;
  ~DeviceBlock() { D.release(M); }
  static Result<std::unique_ptr<DeviceBlock>> allocate(Device &D, uint64_t Bytes) {
    auto Mem = D.allocate(Bytes);
    if (!Mem)
      return Mem.error();
    return std::make_unique<DeviceBlock>(D, *Mem);
  }
};

/// The error for a cost \p What of \p Key not recorded while measuring is
/// not allowed (Measuring::RecordedOnly).
Failure notRecorded(const std::string &Key, const std::string &What) {
  return Failure(ErrorCode::NotFound, "the cost '" + What + "' of " + Key +
                                          " is not measured yet (skmd-prof --links measures it)");
}

/// The cost \p What of \p Key from \p Db, or, when it is missing, from
/// \p Measure(), then recorded.
template <typename F>
Result<LinkCost> recordedOrMeasuredCost(ProfileDatabase &Db, const std::string &Key,
                                        const std::string &What, Measuring M, F &&Measure) {
  auto Row = Db.link(Key, What);
  if (!Row)
    return Row.error();
  if (*Row)
    return **Row;
  if (M == Measuring::RecordedOnly)
    return notRecorded(Key, What);
  Result<LinkCost> Cost = Measure();
  if (!Cost)
    return Cost.error();
  if (Status S = Db.setLink(Key, What, *Cost); !S)
    return S.error();
  return *Cost;
}

const char *const LinkNames[4] = {"in-pageable", "in-pinned", "out-pageable", "out-pinned"};

/// The four costs \p Names of \p Key from \p Db into \p Rows, or, when
/// one is missing, from \p Measure(Rows), then recorded.
template <typename F>
Status recordedOrMeasured(ProfileDatabase &Db, const std::string &Key,
                          const char *const (&Names)[4], LinkCost (&Rows)[4], Measuring M,
                          F &&Measure) {
  bool Complete = true;
  for (unsigned I = 0; I < 4 && Complete; ++I) {
    auto Row = Db.link(Key, Names[I]);
    if (!Row)
      return Row.error();
    if (*Row)
      Rows[I] = **Row;
    else
      Complete = false;
  }
  if (Complete)
    return Status::success();
  if (M == Measuring::RecordedOnly)
    return notRecorded(Key, Names[0]);
  if (Status S = Measure(Rows); !S)
    return S;
  for (unsigned I = 0; I < 4; ++I)
    if (Status S = Db.setLink(Key, Names[I], Rows[I]); !S)
      return S;
  return Status::success();
}

LinkCost *linkParts(LinkModel &M, unsigned I) {
  LinkCost *Parts[4] = {&M.InPageable, &M.InPinned, &M.OutPageable, &M.OutPinned};
  return Parts[I];
}

} // namespace

Result<LinkModel> measureLink(Device &D) {
  auto Dev = DeviceBlock::allocate(D, LargeBytes);
  if (!Dev)
    return Dev.error();
  DeviceMemory Mem = (*Dev)->M;
  LinkModel M;
  for (bool Pinned : {false, true}) {
    HostBlock Host(&D, Regions * LargeBytes, Pinned);
    if (!Host.P) {
      if (Pinned) { // No page-locked kind: copies cost the same from anywhere.
        M.InPinned = M.InPageable;
        M.OutPinned = M.OutPageable;
        continue;
      }
      return Failure(ErrorCode::OutOfMemory, "no host memory to measure a link");
    }
    // Touched first, so that page faults are not timed.
    std::memset(Host.P, 1, Regions * LargeBytes);
    auto *Base = static_cast<char *>(Host.P);
    auto In = costOf([&](uint64_t Bytes, uint64_t At) {
      Status S = D.copyIn(Mem, 0, Base + At, Bytes);
      return S ? D.finishCopies() : S;
    });
    if (!In)
      return In.error();
    auto Out = costOf(
        [&](uint64_t Bytes, uint64_t At) { return D.copyOut(Base + At, Mem, 0, Bytes); });
    if (!Out)
      return Out.error();
    (Pinned ? M.InPinned : M.InPageable) = *In;
    (Pinned ? M.OutPinned : M.OutPageable) = *Out;
  }
  return M;
}

Result<std::pair<double, double>> measureCopyRate(Device &D, uint64_t Bytes) {
  auto Dev = DeviceBlock::allocate(D, Bytes);
  if (!Dev)
    return Dev.error();
  std::optional<HostBlock> Host;
  Host.emplace(&D, Bytes, /*Pinned=*/true);
  if (!Host->P) {
    Host.reset();
    Host.emplace(&D, Bytes, /*Pinned=*/false);
  }
  if (!Host->P)
    return Failure(ErrorCode::OutOfMemory, "no host memory to measure a link");
  std::memset(Host->P, 1, Bytes);
  DeviceMemory Mem = (*Dev)->M;
  auto In = typicalMs(3, [&](unsigned) {
    Status S = D.copyIn(Mem, 0, Host->P, Bytes);
    return S ? D.finishCopies() : S;
  });
  if (!In)
    return In.error();
  auto Out = typicalMs(3, [&](unsigned) { return D.copyOut(Host->P, Mem, 0, Bytes); });
  if (!Out)
    return Out.error();
  auto Rate = [&](double Ms) { return Ms > 0 ? double(Bytes) / Ms / 1e6 : 0.0; };
  return std::pair<double, double>{Rate(*In), Rate(*Out)};
}

Result<LinkModel> linkModel(Device &D, ProfileDatabase &Db, Measuring Policy) {
  LinkCost Rows[4];
  Status S = recordedOrMeasured(Db, deviceKey(D.info()), LinkNames, Rows, Policy,
                                [&](LinkCost(&Measured)[4]) -> Status {
                                  auto M = measureLink(D);
                                  if (!M)
                                    return M.error();
                                  for (unsigned I = 0; I < 4; ++I)
                                    Measured[I] = *linkParts(*M, I);
                                  return Status::success();
                                });
  if (!S)
    return S.error();
  LinkModel M;
  for (unsigned I = 0; I < 4; ++I)
    *linkParts(M, I) = Rows[I];
  return M;
}

namespace {

/// The time until every one of \p N copies, each on a thread of its own
/// and all started at once, is done: \p Copy(index, run); the median of
/// \p Runs after one untimed run, each timed from the release of the
/// started threads (support/StartedThreads.h).
template <typename F> Result<double> togetherMs(size_t N, unsigned Runs, F &&Copy) {
  std::vector<double> Times;
  for (unsigned Run = 0; Run <= Runs; ++Run) {
    std::vector<Status> Outcome(N);
    double Ms = msFromRelease(N, [&](size_t I) { Outcome[I] = Copy(I, Run); });
    for (Status &S : Outcome)
      if (!S)
        return S.error();
    if (Run > 0)
      Times.push_back(Ms);
  }
  return medianOf(Times);
}

/// Pageable copies keep the key they had before page-locked ones were
/// measured together too.
std::string togetherKey(const std::vector<Device *> &Devices, bool Pinned) {
  std::string Key = Pinned ? "dma-together" : "staging";
  for (Device *D : Devices)
    Key += ":" + deviceKey(D->info());
  return Key;
}

/// The copies' aggregate bandwidth one device after another and all at
/// once, in and out: rows of the database (latency 0).
const char *const StagingNames[4] = {"in-one-by-one", "in-together", "out-one-by-one",
                                     "out-together"};

StagingCapacity capacityOf(const double GBps[4], size_t N) {
  auto Ratio = [&](double Together, double OneByOne) {
    return std::clamp(OneByOne > 0 ? Together / OneByOne : 1.0, 1.0, double(N));
  };
  return {Ratio(GBps[1], GBps[0]), Ratio(GBps[3], GBps[2])};
}

/// Fills \p GBps in StagingNames' order, copying \p Pinned host memory
/// or pageable.
Status measureTogetherRates(const std::vector<Device *> &Staged, bool Pinned, double GBps[4]) {
  const size_t N = Staged.size();
  // Each device's memory and host regions; released on every path.
  std::vector<std::unique_ptr<DeviceBlock>> Mems;
  std::vector<std::unique_ptr<HostBlock>> Hosts;
  for (Device *D : Staged) {
    auto Mem = DeviceBlock::allocate(*D, LargeBytes);
    if (!Mem)
      return Mem.error();
    Mems.push_back(std::move(*Mem));
    Hosts.push_back(std::make_unique<HostBlock>(D, Regions * LargeBytes, Pinned));
    if (!Hosts.back()->P)
      return Failure(ErrorCode::OutOfMemory, "no host memory to measure copies made at once");
    std::memset(Hosts.back()->P, 1, Regions * LargeBytes);
  }
  auto HostAt = [&](size_t I, unsigned Run) {
    return static_cast<char *>(Hosts[I]->P) + (Run % Regions) * LargeBytes;
  };
  auto In = [&](size_t I, unsigned Run) {
    Status S = Staged[I]->copyIn(Mems[I]->M, 0, HostAt(I, Run), LargeBytes);
    return S ? Staged[I]->finishCopies() : S;
  };
  auto Out = [&](size_t I, unsigned Run) {
    return Staged[I]->copyOut(HostAt(I, Run), Mems[I]->M, 0, LargeBytes);
  };
  constexpr unsigned Runs = 2 * Regions - 1;
  for (bool IsIn : {true, false}) {
    double OneByOne = 0;
    for (size_t I = 0; I < N; ++I) {
      auto Ms = typicalMs(Runs, [&](unsigned Run) { return IsIn ? In(I, Run) : Out(I, Run); });
      if (!Ms)
        return Ms.error();
      OneByOne += *Ms;
    }
    auto All = togetherMs(N, Runs, [&](size_t I, unsigned Run) {
      return IsIn ? In(I, Run) : Out(I, Run);
    });
    if (!All)
      return All.error();
    double Bytes = double(N * LargeBytes);
    GBps[IsIn ? 0 : 2] = OneByOne > 0 ? Bytes / OneByOne / 1e6 : 0;
    GBps[IsIn ? 1 : 3] = *All > 0 ? Bytes / *All / 1e6 : 0;
  }
  return Status::success();
}

} // namespace

Result<StagingCapacity> measureStagingCapacity(const std::vector<Device *> &Staged) {
  if (Staged.size() < 2)
    return StagingCapacity{};
  double GBps[4] = {};
  if (Status S = measureTogetherRates(Staged, false, GBps); !S)
    return S.error();
  return capacityOf(GBps, Staged.size());
}

Result<CopiesTogether>
copiesTogether(const std::vector<Device *> &Devices, bool Pinned, ProfileDatabase &Db,
               const std::function<void(const std::string &)> &Progress, Measuring Policy) {
  if (Devices.size() < 2)
    return Failure(ErrorCode::InvalidArgument, "copies together need two devices or more");
  LinkCost Rows[4];
  Status S = recordedOrMeasured(
      Db, togetherKey(Devices, Pinned), StagingNames, Rows, Policy,
      [&](LinkCost(&Measured)[4]) -> Status {
        if (Progress) {
          std::string Names;
          for (Device *D : Devices)
            Names += (Names.empty() ? "" : ", ") + D->info().Name;
          Progress(std::string("measuring ") +
                   (Pinned ? "page-locked copies" : "the host's staged copies") + " for " +
                   Names + ", alone and at once");
        }
        double GBps[4] = {};
        if (Status S = measureTogetherRates(Devices, Pinned, GBps); !S)
          return S;
        for (unsigned I = 0; I < 4; ++I)
          Measured[I] = LinkCost{0, GBps[I]};
        return Status::success();
      });
  if (!S)
    return S.error();
  return CopiesTogether{Rows[0].GBps, Rows[1].GBps, Rows[2].GBps, Rows[3].GBps};
}

Result<StagingCapacity>
stagingCapacity(const std::vector<Device *> &Staged, ProfileDatabase &Db,
                const std::function<void(const std::string &)> &Progress, Measuring Policy) {
  if (Staged.size() < 2)
    return StagingCapacity{};
  auto Rates = copiesTogether(Staged, false, Db, Progress, Policy);
  if (!Rates)
    return Rates.error();
  double GBps[4] = {Rates->InOneByOne, Rates->InTogether, Rates->OutOneByOne,
                    Rates->OutTogether};
  return capacityOf(GBps, Staged.size());
}

namespace {

/// The cost of \p Copy between two host buffers, recorded as \p Name of
/// \p HostKey in \p Db, or measured now and recorded.
Result<LinkCost>
recordedHostCopy(ProfileDatabase &Db, const std::string &HostKey, const char *Name,
                 const std::function<void(void *, const void *, uint64_t)> &Copy,
                 Measuring Policy) {
  return recordedOrMeasuredCost(Db, HostKey, Name, Policy, [&]() -> Result<LinkCost> {
    std::vector<char> From(Regions * LargeBytes, 1), To(Regions * LargeBytes, 0);
    return costOf([&](uint64_t Bytes, uint64_t At) {
      Copy(To.data() + At, From.data() + At, Bytes);
      // The copy's result is never read: keep the compiler from dropping it.
      asm volatile("" : : "r"(To.data()) : "memory");
      return Status::success();
    });
  });
}

} // namespace

Result<HostReadWrite>
hostReadWriteModel(ProfileDatabase &Db, const std::string &HostKey,
                   const std::function<void(const void *, uint64_t)> &Read,
                   const std::function<void(void *, uint64_t)> &Write, Measuring Policy) {
  // As a copy's measurement, reading its source or writing its target.
  auto Reads = recordedHostCopy(Db, HostKey, "host-read",
                                [&](void *, const void *From, uint64_t Bytes) {
                                  Read(From, Bytes);
                                }, Policy);
  if (!Reads)
    return Reads.error();
  auto Writes = recordedHostCopy(Db, HostKey, "host-write",
                                 [&](void *To, const void *, uint64_t Bytes) {
                                   Write(To, Bytes);
                                 }, Policy);
  if (!Writes)
    return Writes.error();
  return HostReadWrite{*Reads, *Writes};
}

Result<LinkCost> hostCopyModel(ProfileDatabase &Db, const std::string &HostKey,
                               Measuring Policy) {
  return recordedHostCopy(Db, HostKey, "host-copy",
                          [](void *To, const void *From, uint64_t Bytes) {
                            std::memcpy(To, From, Bytes);
                          }, Policy);
}

namespace {

/// The rates, GB/s, of 64 MiB copied in and 64 MiB out at the same time,
/// each direction on a thread of its own (best of \p Runs after one
/// untimed run), beside \p LoadThreads threads copying host memory.
Result<std::pair<double, double>> bothWaysGBps(Device &D, void *HostIn, void *HostOut,
                                               DeviceMemory To, DeviceMemory From,
                                               unsigned LoadThreads, unsigned Runs) {
  std::atomic<bool> Stop{false};
  std::vector<std::thread> Load;
  // Each load thread copies 16 MiB back and forth: beyond the caches.
  constexpr uint64_t LoadBytes = 16ull << 20;
  std::vector<std::vector<char>> Buffers(2 * LoadThreads, std::vector<char>(LoadBytes, 1));
  for (unsigned T = 0; T < LoadThreads; ++T)
    Load.emplace_back([&, T] {
      while (!Stop.load(std::memory_order_relaxed)) {
        std::memcpy(Buffers[2 * T].data(), Buffers[2 * T + 1].data(), LoadBytes);
        asm volatile("" : : "r"(Buffers[2 * T].data()) : "memory");
      }
    });
  double BestIn = 0, BestOut = 0;
  Status Outcome = Status::success();
  for (unsigned Run = 0; Run <= Runs && Outcome; ++Run) {
    double Ms[2] = {0, 0};
    Status S[2] = {Status::success(), Status::success()};
    msFromRelease(2, [&](size_t I) {
      auto T0 = std::chrono::steady_clock::now();
      if (I == 0) {
        S[0] = D.copyIn(To, 0, HostIn, LargeBytes);
        if (S[0])
          S[0] = D.finishCopies();
      } else {
        S[1] = D.copyOut(HostOut, From, 0, LargeBytes);
      }
      Ms[I] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0)
                  .count();
    });
    for (Status &One : S)
      if (!One)
        Outcome = One;
    if (Run >= 1) {
      BestIn = Run == 1 ? Ms[0] : std::min(BestIn, Ms[0]);
      BestOut = Run == 1 ? Ms[1] : std::min(BestOut, Ms[1]);
    }
  }
  Stop = true;
  for (std::thread &T : Load)
    T.join();
  if (!Outcome)
    return Outcome.error();
  auto Rate = [](double Ms) { return Ms > 0 ? double(LargeBytes) / Ms / 1e6 : 0.0; };
  return std::pair<double, double>{Rate(BestIn), Rate(BestOut)};
}

const char *const OverlappedNames[4] = {"in-both-ways", "out-both-ways", "in-both-ways-loaded",
                                        "out-both-ways-loaded"};

} // namespace

Result<OverlappedLink> overlappedLink(Device &D, const LinkModel &Alone, unsigned LoadThreads,
                                      ProfileDatabase &Db, Measuring Policy) {
  OverlappedLink L{Alone.InPinned, Alone.OutPinned, Alone.InPinned, Alone.OutPinned};
  if (D.info().SharesHostMemory || D.info().CopyEngines == 0)
    return L;
  LinkCost Rows[4];
  Status S = recordedOrMeasured(
      Db, deviceKey(D.info()), OverlappedNames, Rows, Policy,
      [&](LinkCost(&Measured)[4]) -> Status {
        HostBlock In(&D, LargeBytes, true), Out(&D, LargeBytes, true);
        if (!In.P || !Out.P) { // No page-locked memory: nothing overlaps by DMA.
          for (unsigned I = 0; I < 4; ++I)
            Measured[I] = I % 2 ? Alone.OutPinned : Alone.InPinned;
          return Status::success();
        }
        std::memset(In.P, 1, LargeBytes);
        std::memset(Out.P, 1, LargeBytes);
        auto To = DeviceBlock::allocate(D, LargeBytes);
        if (!To)
          return To.error();
        auto From = DeviceBlock::allocate(D, LargeBytes);
        if (!From)
          return From.error();
        for (unsigned Loaded = 0; Loaded < 2; ++Loaded) {
          auto Rates = bothWaysGBps(D, In.P, Out.P, (*To)->M, (*From)->M,
                                    Loaded ? LoadThreads : 0, 3);
          if (!Rates)
            return Rates.error();
          Measured[2 * Loaded] = {Alone.InPinned.LatencyMs, Rates->first};
          Measured[2 * Loaded + 1] = {Alone.OutPinned.LatencyMs, Rates->second};
        }
        return Status::success();
      });
  if (!S)
    return S.error();
  return OverlappedLink{Rows[0], Rows[1], Rows[2], Rows[3]};
}

Result<LinkCost> peerLink(Device &To, Device &From, ProfileDatabase &Db, Measuring Policy) {
  std::string Key = "peer:" + deviceKey(From.info()) + ">" + deviceKey(To.info());
  return recordedOrMeasuredCost(Db, Key, "copy", Policy, [&]() -> Result<LinkCost> {
    auto Dst = DeviceBlock::allocate(To, LargeBytes);
    if (!Dst)
      return Dst.error();
    auto Src = DeviceBlock::allocate(From, LargeBytes);
    if (!Src)
      return Src.error();
    return costOf([&](uint64_t Bytes, uint64_t) {
      return To.copyPeer((*Dst)->M, 0, From, (*Src)->M, 0, Bytes);
    });
  });
}

namespace {

/// The four rates of one kind of copy beside the load: \p Copy(Run) moves
/// LargeBytes; the load copies 256 MiB at a time until told to stop.
Result<HostSharing::Pair>
measurePair(const std::function<Status(unsigned)> &Copy,
            const std::function<void(void *, const void *, uint64_t)> &Load, char *LoadFrom,
            char *LoadTo, uint64_t LoadBytes) {
  HostSharing::Pair P;
  constexpr unsigned Runs = 5;
  auto CopyMs = typicalMs(Runs, Copy);
  if (!CopyMs)
    return CopyMs.error();
  P.CopyAlone = double(LargeBytes) / *CopyMs / 1e6;
  double LoadBest = 1e300;
  for (unsigned Run = 0; Run < 3; ++Run) {
    auto T0 = std::chrono::steady_clock::now();
    Load(LoadTo, LoadFrom, LoadBytes);
    LoadBest = std::min(LoadBest, std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - T0)
                                      .count());
  }
  P.LoadAlone = double(LoadBytes) / LoadBest / 1e6;
  // Together: the load runs on its own thread while the copies run; each
  // side's rate over the time both ran.
  std::atomic<bool> Stop{false};
  std::atomic<uint64_t> Loaded{0};
  std::thread Loader([&] {
    while (!Stop.load(std::memory_order_relaxed)) {
      Load(LoadTo, LoadFrom, LoadBytes);
      Loaded += LoadBytes;
    }
  });
  // The loader's first pass starts the overlap; copies then run for at
  // least as long as two passes of the load alone.
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(LoadBest / 4));
  uint64_t LoadedBefore = Loaded.load();
  auto T0 = std::chrono::steady_clock::now();
  uint64_t Copied = 0;
  Status S = Status::success();
  for (unsigned Run = 0; S && (Run < 4 || std::chrono::duration<double, std::milli>(
                                               std::chrono::steady_clock::now() - T0)
                                                   .count() < 2 * LoadBest);
       ++Run) {
    S = Copy(Run);
    Copied += LargeBytes;
  }
  double CopiesMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
  // The load's passes finished while the copies ran, over that time.
  uint64_t LoadedDuring = Loaded.load() - LoadedBefore;
  Stop = true;
  Loader.join();
  if (!S)
    return S.error();
  P.CopyBeside = double(Copied) / CopiesMs / 1e6;
  P.LoadBeside = LoadedDuring ? double(LoadedDuring) / CopiesMs / 1e6 : P.LoadAlone * 0.5;
  return P;
}

const char *const SharingNames[4] = {"copy-alone", "copy-beside-load", "load-alone",
                                     "load-beside-copy"};
const char *const SharingKinds[4] = {"in-pinned", "in-pageable", "out-pinned", "out-pageable"};

} // namespace

Result<HostSharing>
hostSharing(Device &D, const std::function<void(void *, const void *, uint64_t)> &Load,
            ProfileDatabase &Db, const std::function<void(const std::string &)> &Progress,
            Measuring Policy) {
  HostSharing H;
  constexpr uint64_t LoadBytes = 256ull << 20;
  std::unique_ptr<char[]> From, To;
  std::unique_ptr<DeviceBlock> Mem;
  std::optional<HostBlock> Pinned, Pageable;
  bool Announced = false;
  for (unsigned K = 0; K < 4; ++K) {
    bool In = K < 2, IsPinned = K % 2 == 0;
    LinkCost Rows[4];
    Status S = recordedOrMeasured(
        Db, deviceKey(D.info()) + ":sharing:" + SharingKinds[K], SharingNames, Rows, Policy,
        [&](LinkCost(&Measured)[4]) -> Status {
          if (Progress && !Announced)
            Progress("measuring how " + D.info().Name +
                     "'s copies share the host with a kernel on its cores");
          Announced = true;
          if (!From) {
            From.reset(new char[LoadBytes]);
            To.reset(new char[LoadBytes]);
            std::memset(From.get(), 1, LoadBytes);
            std::memset(To.get(), 0, LoadBytes);
            auto M = DeviceBlock::allocate(D, LargeBytes);
            if (!M)
              return M.error();
            Mem = std::move(*M);
            Pinned.emplace(&D, Regions * LargeBytes, true);
            Pageable.emplace(&D, Regions * LargeBytes, false);
            for (HostBlock *B : {&*Pinned, &*Pageable})
              if (B->P)
                std::memset(B->P, 1, Regions * LargeBytes);
          }
          HostBlock &Host = IsPinned && Pinned->P ? *Pinned : *Pageable;
          if (!Host.P)
            return Failure(ErrorCode::OutOfMemory, "no host memory to measure the sharing");
          auto Copy = [&](unsigned Run) -> Status {
            char *At = static_cast<char *>(Host.P) + (Run % Regions) * LargeBytes;
            if (In) {
              Status St = D.copyIn(Mem->M, 0, At, LargeBytes);
              return St ? D.finishCopies() : St;
            }
            return D.copyOut(At, Mem->M, 0, LargeBytes);
          };
          auto P = measurePair(Copy, Load, From.get(), To.get(), LoadBytes);
          if (!P)
            return P.error();
          Measured[0] = {0, P->CopyAlone};
          Measured[1] = {0, P->CopyBeside};
          Measured[2] = {0, P->LoadAlone};
          Measured[3] = {0, P->LoadBeside};
          return Status::success();
        });
    if (!S)
      return S.error();
    H.Kinds[K] = {Rows[0].GBps, Rows[1].GBps, Rows[2].GBps, Rows[3].GBps};
  }
  return H;
}

Result<LinkCost>
hostMemoryModel(ProfileDatabase &Db, const std::string &HostKey,
                const std::function<void(void *, const void *, uint64_t)> &Copy,
                Measuring Policy) {
  return recordedHostCopy(Db, HostKey, "host-memory", Copy, Policy);
}

} // namespace skmd
