//===- Topology.cpp - Where the devices sit: host memory, PCIe, peers -----===//

#include "batch/Topology.h"

#include <hwloc.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

namespace skmd {

namespace {

struct HwlocTopology {
  hwloc_topology_t T = nullptr;
  ~HwlocTopology() {
    if (T)
      hwloc_topology_destroy(T);
  }
};

std::string busId(const hwloc_obj_t O) {
  char Id[32];
  std::snprintf(Id, sizeof Id, "%04x:%02x:%02x.%01x", O->attr->pcidev.domain,
                O->attr->pcidev.bus, O->attr->pcidev.dev, O->attr->pcidev.func);
  return Id;
}

/// "0000:00:06.0" from a driver's spelling (upper case, a shorter
/// domain); empty where it does not parse.
std::string normalBusId(const std::string &Id) {
  unsigned Domain = 0, Bus = 0, Dev = 0, Func = 0;
  if (std::sscanf(Id.c_str(), "%x:%x:%x.%x", &Domain, &Bus, &Dev, &Func) != 4)
    return "";
  char Out[32];
  std::snprintf(Out, sizeof Out, "%04x:%02x:%02x.%01x", Domain, Bus, Dev, Func);
  return Out;
}

std::string gigabytes(uint64_t Bytes) {
  char S[32];
  std::snprintf(S, sizeof S, "%.0f GiB", double(Bytes) / double(1ull << 30));
  return S;
}

/// Builds the nodes on the way from the machine to each device's PCI
/// object.
class Builder {
public:
  Builder(Topology &Out, hwloc_topology_t T) : Out(Out), T(T) {}

  /// The node of \p O (a package, a bridge, the machine), made with its
  /// ancestors where new.
  unsigned nodeFor(hwloc_obj_t O) {
    if (auto It = Made.find(O); It != Made.end())
      return It->second;
    // Packages hold their host bridges; a machine of one package (or
    // none) holds them itself.
    hwloc_obj_t Up = O->parent;
    while (Up && Up->type != HWLOC_OBJ_BRIDGE && Up->type != HWLOC_OBJ_PACKAGE &&
           Up->type != HWLOC_OBJ_MACHINE)
      Up = Up->parent;
    if (!Up || O->type == HWLOC_OBJ_MACHINE)
      return Made[O] = 0;
    unsigned Parent = nodeFor(Up);
    TopologyNode N;
    N.Parent = int(Parent);
    if (O->type == HWLOC_OBJ_PACKAGE) {
      N.What = TopologyNode::Package;
      N.Name = "package " + std::to_string(O->os_index);
      N.MemoryBytes = packageMemory(O);
    } else if (O->type == HWLOC_OBJ_BRIDGE &&
               O->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
      N.What = TopologyNode::HostBridge;
      char Range[48];
      std::snprintf(Range, sizeof Range, "%04x:[%02x-%02x]",
                    O->attr->bridge.downstream.pci.domain,
                    O->attr->bridge.downstream.pci.secondary_bus,
                    O->attr->bridge.downstream.pci.subordinate_bus);
      N.Name = std::string("host bridge ") + Range;
    } else {
      N.What = TopologyNode::PciBridge;
      N.PciBusId = busId(O);
      N.Name = "bridge " + N.PciBusId;
      N.LinkGBps = O->attr->pcidev.linkspeed;
    }
    return Made[O] = add(std::move(N));
  }

  unsigned add(TopologyNode N) {
    unsigned Index = unsigned(Out.Nodes.size());
    if (N.Parent >= 0)
      Out.Nodes[N.Parent].Children.push_back(Index);
    Out.Nodes.push_back(std::move(N));
    return Index;
  }

private:
  uint64_t packageMemory(hwloc_obj_t Package) {
    uint64_t Bytes = 0;
    for (hwloc_obj_t N = nullptr;
         (N = hwloc_get_next_obj_by_type(T, HWLOC_OBJ_NUMANODE, N));)
      if (hwloc_bitmap_isincluded(N->cpuset, Package->cpuset))
        Bytes += N->attr->numanode.local_memory;
    return Bytes;
  }

  Topology &Out;
  hwloc_topology_t T;
  std::map<hwloc_obj_t, unsigned> Made;
};

} // namespace

int Topology::nodeOf(int Index) const {
  for (size_t N = 0; N < Nodes.size(); ++N)
    if (Nodes[N].What == TopologyNode::Device && Nodes[N].DeviceIndex == Index)
      return int(N);
  return -1;
}

std::vector<std::vector<int>> Topology::sharedUplinks(const std::vector<int> &Devices) const {
  std::set<std::vector<int>> Sets;
  for (size_t N = 0; N < Nodes.size(); ++N) {
    if (Nodes[N].What == TopologyNode::Device)
      continue;
    std::vector<int> Below;
    for (int D : Devices)
      for (int At = nodeOf(D); At >= 0; At = Nodes[At].Parent)
        if (At == int(N)) {
          Below.push_back(D);
          break;
        }
    std::sort(Below.begin(), Below.end());
    if (Below.size() >= 2)
      Sets.insert(Below);
  }
  std::vector<std::vector<int>> Out(Sets.begin(), Sets.end());
  std::stable_sort(Out.begin(), Out.end(),
                   [](const auto &A, const auto &B) { return A.size() < B.size(); });
  return Out;
}

std::string Topology::describe() const {
  std::string Out;
  auto Print = [&](auto &&Self, unsigned N, unsigned Depth) -> void {
    const TopologyNode &Node = Nodes[N];
    Out += std::string(2 * Depth, ' ') + Node.Name;
    if (Node.MemoryBytes)
      Out += ", memory " + gigabytes(Node.MemoryBytes);
    if (Node.LinkGBps > 0) {
      char S[48];
      std::snprintf(S, sizeof S, ", link %.1f GB/s", Node.LinkGBps);
      Out += S;
    }
    Out += "\n";
    for (unsigned C : Node.Children)
      Self(Self, C, Depth + 1);
  };
  if (!Nodes.empty())
    Print(Print, 0, 0);
  for (const PeerLink &P : Peers) {
    std::string A = "device" + std::to_string(P.A), B = "device" + std::to_string(P.B);
    for (const TopologyNode &N : Nodes)
      if (N.What == TopologyNode::Device) {
        if (N.DeviceIndex == P.A)
          A = N.Name.substr(0, N.Name.find(' '));
        if (N.DeviceIndex == P.B)
          B = N.Name.substr(0, N.Name.find(' '));
      }
    Out += "peer " + A + " <-> " + B + ": " + P.Kind;
    if (P.Rank >= 0)
      Out += " (performance rank " + std::to_string(P.Rank) + ")";
    Out += "\n";
  }
  return Out;
}

Result<Topology> discoverTopology(const std::vector<Device *> &Devices,
                                  const std::string &XmlPath) {
  HwlocTopology H;
  if (hwloc_topology_init(&H.T) != 0)
    return Failure(ErrorCode::OutOfMemory, "hwloc cannot start a topology");
  // Bridges and PCI devices are I/O objects, which hwloc leaves out unless
  // asked; every one is kept (a GPU's class is not always "important").
  hwloc_topology_set_io_types_filter(H.T, HWLOC_TYPE_FILTER_KEEP_ALL);
  // hwloc's plugins for GPU and OpenCL libraries (Debian's libhwloc-plugins,
  // which Open MPI brings) would load the OpenCL ICDs, SKMD's own platform
  // among them, and the vendors' libraries inside this process, for
  // nothing: PCI gives the tree, and the devices say where they sit.
  for (const char *Plugin : {"opencl", "cuda", "nvml", "rsmi", "levelzero", "gl"})
    hwloc_topology_set_components(H.T, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, Plugin);
  std::string Xml = XmlPath;
  if (Xml.empty())
    if (const char *Env = std::getenv("SKMD_TOPOLOGY_XML"))
      Xml = Env;
  if (!Xml.empty() && hwloc_topology_set_xml(H.T, Xml.c_str()) != 0)
    return Failure(ErrorCode::IOError, "cannot read the topology file '" + Xml +
                                           "' (hwloc's XML, as lstopo --of xml writes)");
  if (hwloc_topology_load(H.T) != 0)
    return Failure(ErrorCode::IOError,
                   Xml.empty() ? std::string("hwloc cannot read this machine's topology")
                               : "the topology file '" + Xml + "' is not a valid hwloc XML");

  Topology Out;
  TopologyNode Machine;
  Machine.What = TopologyNode::Machine;
  Machine.Name = "machine";
  hwloc_obj_t Root = hwloc_get_root_obj(H.T);
  if (hwloc_get_nbobjs_by_type(H.T, HWLOC_OBJ_PACKAGE) <= 1)
    for (hwloc_obj_t N = nullptr;
         (N = hwloc_get_next_obj_by_type(H.T, HWLOC_OBJ_NUMANODE, N));)
      Machine.MemoryBytes += N->attr->numanode.local_memory;
  Out.Nodes.push_back(std::move(Machine));
  Builder B(Out, H.T);
  B.nodeFor(Root);

  for (size_t I = 0; I < Devices.size(); ++I) {
    const DeviceInfo &Info = Devices[I]->info();
    TopologyNode N;
    N.What = TopologyNode::Device;
    N.DeviceIndex = int(I);
    N.Name = Info.Name + " (" + Info.Description + ")";
    unsigned Parent = 0;
    std::string Id = normalBusId(Info.PciBusId);
    hwloc_obj_t Pci = nullptr;
    if (!Id.empty()) {
      unsigned Domain, Bus, Dev, Func;
      std::sscanf(Id.c_str(), "%x:%x:%x.%x", &Domain, &Bus, &Dev, &Func);
      Pci = hwloc_get_pcidev_by_busid(H.T, Domain, Bus, Dev, Func);
    }
    if (Pci) {
      N.PciBusId = Id;
      N.LinkGBps = Pci->attr->pcidev.linkspeed;
      N.Name += " " + Id;
      hwloc_obj_t Up = Pci->parent;
      Parent = B.nodeFor(Up ? Up : Root);
    } else if (Info.SharesHostMemory || Info.UsesHostCores) {
      N.Name += ", in host memory";
    } else if (!Id.empty()) {
      N.Name += " " + Id + ", not in the topology";
    }
    N.Parent = int(Parent);
    B.add(std::move(N));
  }

  for (size_t A = 0; A < Devices.size(); ++A)
    for (size_t Bi = A + 1; Bi < Devices.size(); ++Bi) {
      PeerAccess P = Devices[A]->peerAccess(*Devices[Bi]);
      if (!P.Supported)
        continue;
      Out.Peers.push_back({int(A), int(Bi), P.NativeAtomics ? "NVLink" : "PCIe peer", P.Rank});
    }
  return Out;
}

} // namespace skmd
