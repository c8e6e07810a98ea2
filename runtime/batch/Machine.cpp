//===- Machine.cpp - The session's devices as the batch model sees them ---===//

#include "batch/Machine.h"
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/ThreadPool.h"
#include "model/LinkModel.h"
#include "model/Profiler.h"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace skmd {

namespace {

/// Whether \p D's copies of \p Pinned memory are DMA (else the host's
/// cores copy the bytes: staging, a HostDiscrete device's memcpy).
bool byDma(const Device &D, bool Pinned) { return Pinned && D.info().CopyEngines > 0; }

/// Whether host memory sees each byte of \p D's copies once: read by a
/// copy to it, written by one from it. So it does for DMA from page-locked
/// memory, and for pageable memory staged through page-locked chunks that
/// the DMA reads or fills: the chunks (2 MiB) stay in the last-level cache
/// (on the H100 host Box-Muller's staged copies ran both ways at once at
/// 37-39 GB/s each, 152 GB/s were they counted twice, where a memcpy's
/// traffic is 115). A HostDiscrete device's memcpy reads and writes each.
bool onceInHostMemory(const Device &D) { return D.info().CopyEngines > 0; }

/// A limit on \p Routes (weight 1) at \p GBps.
SharedLimit limitOf(std::string Name, double GBps, std::vector<Route> Routes) {
  SharedLimit L;
  L.Name = std::move(Name);
  L.BytesPerMs = bytesPerMs(GBps);
  for (const Route &R : Routes)
    L.Routes.push_back({R, 1});
  return L;
}

} // namespace

Result<BatchMachine>
measuredMachine(const std::vector<Device *> &Devices, CpuDevice *Cpu, ProfileDatabase &Db,
                const std::function<void(const std::string &)> &Progress,
                const Topology *Where, Measuring Policy) {
  BatchMachine M;
  std::vector<int> DmaIndex, StagedIndex;
  for (size_t I = 0; I < Devices.size(); ++I) {
    Device &D = *Devices[I];
    M.Devices.push_back({D.info().Name, D.info().CopyEngines,
                         D.info().SharesHostMemory || D.info().UsesHostCores
                             ? D.info().ComputeUnits
                             : 0});
    if (D.info().SharesHostMemory)
      continue;
    auto Link = linkModel(D, Db, Policy);
    if (!Link)
      return Link.error();
    const int Index = int(I);
    for (bool Pinned : {true, false}) {
      M.Routes.setAlone(Route{HostSide, Index, !Pinned}, Link->in(Pinned));
      M.Routes.setAlone(Route{Index, HostSide, !Pinned}, Link->out(Pinned));
    }
    if (D.info().CopyEngines > 0) {
      DmaIndex.push_back(Index);
      if (D.info().CopyEngines >= 2) {
        unsigned LoadThreads = Cpu ? ThreadPool::computeThreads(Cpu->info().ComputeUnits, true) : 1;
        auto Both = overlappedLink(D, *Link, LoadThreads, Db, Policy);
        if (!Both)
          return Both.error();
        M.Routes.addLimit(limitOf(D.info().Name + " both ways", Both->In.GBps + Both->Out.GBps,
                                  {Route{HostSide, Index, false}, Route{Index, HostSide, false},
                                   Route{HostSide, Index, true}, Route{Index, HostSide, true}}));
      }
    }
    if (D.info().HostCopyCores > 0) {
      StagedIndex.push_back(Index);
    }
    // Each kind of copy's share against a memory-bound kernel on the
    // host's cores, as measured beside one.
    if (Cpu) {
      auto Sharing = hostSharing(
          D, [Cpu](void *To, const void *From, uint64_t Bytes) { Cpu->copyHost(To, From, Bytes); },
          Db, Progress, Policy);
      if (!Sharing)
        return Sharing.error();
      const Route Kinds[4] = {{HostSide, Index, false}, {HostSide, Index, true},
                              {Index, HostSide, false}, {Index, HostSide, true}};
      for (unsigned K = 0; K < 4; ++K) {
        const HostSharing::Pair &P = Sharing->Kinds[K];
        auto Fraction = [](double Beside, double Alone) {
          return Alone > 0 && Beside > 0 ? std::clamp(Beside / Alone, 0.01, 1.0) : 1.0;
        };
        M.Routes.setShare(Kinds[K], Fraction(P.CopyBeside, P.CopyAlone) /
                                        Fraction(P.LoadBeside, P.LoadAlone));
      }
    }
  }
  // Device to device: directly where they reach each other, through host
  // memory otherwise (two bytes of its traffic per byte, as a
  // HostDiscrete device's memcpy between two allocations in host memory).
  std::vector<Route> ThroughHost;
  for (size_t A = 0; A < Devices.size(); ++A)
    for (size_t B = 0; B < Devices.size(); ++B) {
      if (A == B || Devices[A]->info().SharesHostMemory || Devices[B]->info().SharesHostMemory)
        continue;
      auto Cost = peerLink(*Devices[B], *Devices[A], Db, Policy);
      if (!Cost)
        return Cost.error();
      Route R{int(A), int(B), false};
      M.Routes.setAlone(R, *Cost);
      bool InHostMemory = Devices[A]->info().UsesHostCores && Devices[B]->info().UsesHostCores;
      if (InHostMemory || !Devices[B]->peerAccess(*Devices[A]).Supported)
        ThroughHost.push_back(R);
    }
  // Devices at once, one direction at a time.
  auto together = [&](const std::vector<int> &Index, bool Pinned, const char *What) -> Status {
    std::vector<Device *> Set;
    std::string Names;
    for (int D : Index) {
      Set.push_back(Devices[D]);
      Names += (Names.empty() ? "" : ", ") + Devices[D]->info().Name;
    }
    auto Rates = copiesTogether(Set, Pinned, Db, Progress, Policy);
    if (!Rates)
      return Rates.error();
    std::vector<Route> In, Out;
    double InAlone = 0, OutAlone = 0;
    for (int D : Index) {
      In.push_back(Route{HostSide, D, !Pinned});
      Out.push_back(Route{D, HostSide, !Pinned});
      InAlone = std::max(InAlone, M.Routes.alone(In.back())->GBps);
      OutAlone = std::max(OutAlone, M.Routes.alone(Out.back())->GBps);
    }
    // Copies at once move no less than the fastest alone: a measurement
    // below that is noise, and would make the batch slower than its
    // copies one after another.
    M.Routes.addLimit(limitOf(std::string(What) + " to " + Names,
                              std::max(Rates->InTogether, InAlone), In));
    M.Routes.addLimit(limitOf(std::string(What) + " from " + Names,
                              std::max(Rates->OutTogether, OutAlone), Out));
    return Status::success();
  };
  std::vector<std::vector<int>> DmaSets;
  if (Where)
    DmaSets = Where->sharedUplinks(DmaIndex);
  else if (DmaIndex.size() >= 2)
    DmaSets.push_back(DmaIndex);
  for (const std::vector<int> &Set : DmaSets)
    if (Status S = together(Set, true, "page-locked copies"); !S)
      return S.error();
  if (StagedIndex.size() >= 2)
    if (Status S = together(StagedIndex, false, "staged copies"); !S)
      return S.error();
  if (Cpu) {
    const std::string HostKey = "host:" + Cpu->info().Description + "@" + hostName();
    auto Memory = hostMemoryModel(
        Db, HostKey,
        [Cpu](void *To, const void *From, uint64_t Bytes) { Cpu->copyHost(To, From, Bytes); },
        Policy);
    if (!Memory)
      return Memory.error();
    if (Memory->GBps > 0) {
      SharedLimit Host;
      Host.Name = "host memory";
      // A memcpy of n bytes reads n and writes n.
      Host.BytesPerMs = 2 * bytesPerMs(Memory->GBps);
      Host.What = SharedLimit::HostMemory;
      for (const auto &[R, Cost] : M.Routes.routes()) {
        if (!R.touchesHost())
          continue;
        const Device &D = *Devices[R.From == HostSide ? R.To : R.From];
        Host.Routes.push_back({R, onceInHostMemory(D) ? 1.0 : 2.0});
      }
      for (const Route &R : ThroughHost)
        Host.Routes.push_back({R, 2.0});
      M.Routes.addLimit(std::move(Host));
    }
    // Reads and writes alone: on the H100 host 75-83 GB/s of reads, 55-71
    // of writes, where a memcpy moved 41-43 each way; a CPU kernel reading
    // 50 GB/s beside a DMA copy to the GPU reading 54 ran 1.37x its time
    // (reduction's split), which the memcpy's traffic (115 GB/s) did not
    // say.
    auto ReadWrite = hostReadWriteModel(
        Db, HostKey,
        [Cpu](const void *From, uint64_t Bytes) { (void)Cpu->readHost(From, Bytes); },
        [Cpu](void *To, uint64_t Bytes) { Cpu->fillHost(To, 1, Bytes); }, Policy);
    if (!ReadWrite)
      return ReadWrite.error();
    for (bool Reads : {true, false}) {
      const LinkCost &Rate = Reads ? ReadWrite->Read : ReadWrite->Write;
      if (!(Rate.GBps > 0))
        continue;
      SharedLimit L;
      L.Name = Reads ? "host memory reads" : "host memory writes";
      L.BytesPerMs = bytesPerMs(Rate.GBps);
      L.What = Reads ? SharedLimit::HostReads : SharedLimit::HostWrites;
      for (const auto &[R, Cost] : M.Routes.routes()) {
        if (!R.touchesHost())
          continue;
        const Device &D = *Devices[R.From == HostSide ? R.To : R.From];
        bool ToDevice = R.From == HostSide;
        if (!onceInHostMemory(D) || ToDevice == Reads)
          L.Routes.push_back({R, 1.0});
      }
      for (const Route &R : ThroughHost)
        L.Routes.push_back({R, 1.0});
      M.Routes.addLimit(std::move(L));
    }
  }
  // The host's cores: copies its cores make (a thread each for a
  // HostDiscrete device's memcpy, the staging threads of a GPU's pageable
  // copies) and kernels on them.
  SharedLimit Cores;
  Cores.Name = "host cores";
  Cores.What = SharedLimit::HostCores;
  Cores.BytesPerMs = double(std::max(1u, std::thread::hardware_concurrency()));
  for (const auto &[R, Cost] : M.Routes.routes()) {
    if (!R.touchesHost() || !(Cost.GBps > 0))
      continue;
    const Device &D = *Devices[R.From == HostSide ? R.To : R.From];
    if (byDma(D, !R.Pageable) || !D.info().HostCopyCores)
      continue;
    Cores.Routes.push_back({R, double(D.info().HostCopyCores) / bytesPerMs(Cost.GBps)});
  }
  bool KernelsOnHost = false;
  for (const BatchDevice &D : M.Devices)
    KernelsOnHost |= D.HostThreads > 0;
  if (!Cores.Routes.empty() || KernelsOnHost)
    M.Routes.addLimit(std::move(Cores));
  return M;
}

std::string describeRoutes(const BatchMachine &M) {
  std::vector<std::string> Names = M.deviceNames();
  std::string Out;
  char Line[256];
  std::snprintf(Line, sizeof Line, "%-28s %12s %10s %8s\n", "route", "latency ms", "GB/s",
                "share");
  Out += Line;
  for (const auto &[R, Cost] : M.Routes.routes()) {
    std::snprintf(Line, sizeof Line, "%-28s %12.4f %10.2f %8.2f\n", routeName(R, Names).c_str(),
                  Cost.LatencyMs, Cost.GBps, M.Routes.share(R));
    Out += Line;
  }
  if (M.Routes.limits().empty())
    return Out;
  Out += "limits (what the routes move together at most, a route's bytes counted times "
         "its weight):\n";
  for (const SharedLimit &L : M.Routes.limits()) {
    bool Cores = L.What == SharedLimit::HostCores;
    if (Cores)
      std::snprintf(Line, sizeof Line, "  %-36s %10g threads:", L.Name.c_str(), L.BytesPerMs);
    else
      std::snprintf(Line, sizeof Line, "  %-36s %10.2f GB/s:", L.Name.c_str(),
                    L.BytesPerMs / 1e6);
    Out += Line;
    bool First = true;
    for (const auto &[R, W] : L.Routes) {
      Out += (First ? " " : ", ") + routeName(R, Names);
      // The cores a copy takes at its rate alone; a byte's traffic.
      const LinkCost *Alone = M.Routes.alone(R);
      double Shown = Cores && Alone ? W * bytesPerMs(Alone->GBps) : W;
      if (Cores)
        std::snprintf(Line, sizeof Line, " (%g)", Shown);
      else
        std::snprintf(Line, sizeof Line, " x%g", Shown);
      if (Cores || W != 1)
        Out += Line;
      First = false;
    }
    if (L.What != SharedLimit::Link)
      Out += std::string(First ? " " : ", ") + "kernels on the host's cores";
    Out += "\n";
  }
  return Out;
}

} // namespace skmd
