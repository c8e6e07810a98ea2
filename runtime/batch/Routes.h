//===- Routes.h - How fast copies go, alone and beside each other -*- C++ -*-===//
//
// The transfer half of the batch model (seed 002): a route is where a
// copy's bytes go (host memory to a device, back, one device to another;
// pageable host memory staged through the host's cores, or page-locked
// memory by DMA), and each route has its measured cost alone: latency +
// bytes / rate. Copies that run at once share what lies on their paths:
// one PCIe link both ways, a switch or host bridge that several GPUs sit
// behind, host memory. The paper models that as a graph with a bandwidth
// per edge and says the graph fails for traffic both ways; so the table
// keeps measured limits instead: a set of routes that ran together and
// the bytes per ms they moved together (skmd-prof --links measures them:
// both directions of one GPU, every GPU at once). A limit reads
//
//     sum over its routes of  weight(route) x rate(route)  <=  capacity,
//
// and binds only when its routes run at once. Host memory is one such
// limit whose capacity is the host's memcpy traffic (a read and a write
// per byte copied): a DMA or staged byte costs one, a byte a HostDiscrete
// device's memcpy copies two, and a kernel on the host's cores what it
// reads and writes; its reads alone and its writes alone are two more. The host's cores are
// another: copies made by the host's cores (staging, a HostDiscrete
// device's memcpy) and kernels there share its hardware threads.
//
// Concurrent flows share a limit in proportion to their rates alone times
// their shares (progressive filling, max-min fair in the fraction of its
// alone rate each flow gets, divided by its share): two copies alone at
// 50 GB/s under a 60 GB/s limit get 30 each; under no limit each keeps its
// own rate. A route's share is measured against a memory-bound kernel on
// the host's cores (share 1): beside one on the H100 host a DMA copy kept
// more of its rate than the kernel did, a staged copy less.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BATCH_ROUTES_H
#define SKMD_BATCH_ROUTES_H

#include "model/ProfileDatabase.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace skmd {

/// Host memory as a copy's end (a device is its index in the session).
constexpr int HostSide = -1;

struct Route {
  int From = HostSide, To = HostSide;
  /// The host side is pageable memory, staged through page-locked chunks
  /// by the host's cores; else page-locked memory, copied by DMA.
  bool Pageable = false;

  bool touchesHost() const { return From == HostSide || To == HostSide; }
  bool operator<(const Route &O) const {
    return std::tie(From, To, Pageable) < std::tie(O.From, O.To, O.Pageable);
  }
  bool operator==(const Route &O) const {
    return From == O.From && To == O.To && Pageable == O.Pageable;
  }
};

/// "host>gpu0", "gpu0>host pageable", "gpu0>gpu1", from the devices'
/// names.
std::string routeName(const Route &R, const std::vector<std::string> &DeviceNames);

/// Bytes per ms from GB/s (10^9 bytes a second).
inline double bytesPerMs(double GBps) { return GBps * 1e6; }

/// What several routes move together at most.
struct SharedLimit {
  enum Kind {
    /// A link or a set of links: only copies count.
    Link,
    /// Host memory: kernels that read and write it (the CPU device's)
    /// count too, their HostBytes over their time.
    HostMemory,
    /// The host's cores (capacity: the hardware threads, a thread a ms per
    /// ms): copies the host's cores make count their threads at their rate
    /// alone (the weight is threads per byte a ms), kernels on the host's
    /// cores the threads their device keeps busy.
    HostCores,
    /// Host memory's reads, and its writes, alone (a host reads faster
    /// than a memcpy's traffic suggests, and writes slower): a copy to a
    /// device reads its bytes, one from a device writes them (a HostDiscrete
    /// device's memcpy does both), a kernel on the host's cores reads and
    /// writes its HostBytes.
    HostReads,
    HostWrites,
  };
  Kind What = Link;
  /// For reports: "gpu0 both ways", "every GPU to the host", "host memory".
  std::string Name;
  double BytesPerMs = 0;
  /// Each route's load per byte it copies (bytes of traffic: 1, or 2 for
  /// a HostDiscrete device's memcpy in host memory; for the host's cores,
  /// threads per byte a ms).
  std::vector<std::pair<Route, double>> Routes;
};

class RouteTable {
public:
  /// Records \p R's cost alone.
  void setAlone(const Route &R, const LinkCost &Cost) { Alone[R] = Cost; }
  /// \p R's cost alone, or null where it was never measured.
  const LinkCost *alone(const Route &R) const {
    auto It = Alone.find(R);
    return It == Alone.end() ? nullptr : &It->second;
  }
  const std::map<Route, LinkCost> &routes() const { return Alone; }
  /// \p R's share of a full limit against a kernel on the host's cores
  /// (1 where not measured).
  void setShare(const Route &R, double Share) { Shares[R] = Share; }
  double share(const Route &R) const {
    auto It = Shares.find(R);
    return It == Shares.end() ? 1.0 : It->second;
  }

  void addLimit(SharedLimit L) { Limits.push_back(std::move(L)); }
  const std::vector<SharedLimit> &limits() const { return Limits; }

private:
  std::map<Route, LinkCost> Alone;
  std::map<Route, double> Shares;
  std::vector<SharedLimit> Limits;
};

/// A flow for shareRates: its rate alone (work units per ms) and its load
/// on each limit (index into the capacities, units of capacity per unit of
/// work).
struct Flow {
  double Alone = 0;
  std::vector<std::pair<unsigned, double>> Loads;
  /// Its fraction of its alone rate grows this many times as fast as a
  /// share-1 flow's.
  double Share = 1;
};

/// Each flow's rate when all run at once under \p Capacities: progressive
/// filling, every unfrozen flow at its share times the same level, as a
/// fraction of its alone rate (at most one), until a limit is full (its
/// flows freeze there) or every flow runs at its rate alone.
std::vector<double> shareRates(const std::vector<Flow> &Flows,
                               const std::vector<double> &Capacities);

} // namespace skmd

#endif // SKMD_BATCH_ROUTES_H
