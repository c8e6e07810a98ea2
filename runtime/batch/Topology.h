//===- Topology.h - Where the devices sit: host memory, PCIe, peers -*- C++ -*-===//
//
// The machine as the batch model needs it (seed 002, section 3.2): host
// memory (a NUMA node per package), the PCIe tree below each host bridge
// (root ports, switches), the devices at its leaves, and peer links
// between devices (NVLink or PCIe peer access). Found with hwloc, which
// reads it from the OS (or from an XML file that describes a machine:
// SKMD_TOPOLOGY_XML, hwloc's own format, for tests and for machines
// described elsewhere), and each device's PCI bus id and peer access from
// its driver.
//
// What the model takes from it: which devices share a link on their way
// to host memory (a switch's uplink, a host bridge, the package's memory),
// so that skmd-prof --links measures those devices' copies together; the
// route table then holds the measured limits (batch/Routes.h), since the
// graph's bandwidths alone fail for traffic both ways.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BATCH_TOPOLOGY_H
#define SKMD_BATCH_TOPOLOGY_H

#include "devices/Device.h"
#include "support/Result.h"

#include <string>
#include <vector>

namespace skmd {

struct TopologyNode {
  enum Kind { Machine, Package, HostBridge, PciBridge, Device };
  Kind What = Machine;
  /// For people: "package 0", "host bridge 0000:[00-0f]", "bridge
  /// 0000:02:00.0", "gpu0".
  std::string Name;
  int Parent = -1;
  std::vector<unsigned> Children;
  /// Package: its NUMA nodes' memory, bytes (0 where unknown).
  uint64_t MemoryBytes = 0;
  /// PciBridge, Device: "dddd:bb:dd.f".
  std::string PciBusId;
  /// The PCIe link to its parent, GB/s each way, as the hardware reports
  /// it (0 where unknown, as in most virtual machines).
  double LinkGBps = 0;
  /// Device: its index among the session's devices; -1 otherwise.
  int DeviceIndex = -1;
};

/// A link between two devices beside the PCIe tree.
struct PeerLink {
  int A = 0, B = 0;
  /// "NVLink" where the driver reports native atomics between them (an
  /// NVLink connection), else "PCIe peer".
  std::string Kind;
  /// The driver's performance rank (lower is faster), -1 where unknown.
  int Rank = -1;
};

struct Topology {
  std::vector<TopologyNode> Nodes; ///< Nodes[0] is the machine.
  std::vector<PeerLink> Peers;

  /// The node of device \p Index, or -1 where none (not found).
  int nodeOf(int Index) const;
  /// Every node with two or more of \p Devices below it (a switch, a host
  /// bridge, a package, the machine), each as the sorted set of those
  /// devices, without repeats, smaller sets first: the device sets whose
  /// copies share a link.
  std::vector<std::vector<int>> sharedUplinks(const std::vector<int> &Devices) const;
  /// An indented tree, with the peer links.
  std::string describe() const;
};

/// The topology of \p Devices (as the session numbers them): hwloc's view
/// of this machine, or of the XML file \p XmlPath (empty: the one named
/// by SKMD_TOPOLOGY_XML, else the machine itself). A device without a PCI
/// bus id, or one hwloc does not find, sits in host memory below the
/// machine (the CPU, HostDiscrete devices). Peer links from the devices'
/// drivers.
Result<Topology> discoverTopology(const std::vector<Device *> &Devices,
                                  const std::string &XmlPath = "");

} // namespace skmd

#endif // SKMD_BATCH_TOPOLOGY_H
