//===- TopologyTest.cpp - Where devices sit, read from a machine described in XML -===//

#include "batch/Topology.h"
#include "common/ForwardingDevice.h"
#include "session/Devices.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

/// A synthetic machine (hwloc's minimal XML parser takes no comments, so
/// it is described here): two packages with a NUMA node each; below
/// package 0's host bridge a root port and a PCIe switch (upstream
/// 0000:02:00.0, downstream ports 0000:03:00.0 and 0000:03:01.0) with a GPU
/// on each port (0000:04:00.0, 0000:05:00.0); below package 1's host bridge
/// a root port with one GPU (0000:81:00.0).
const std::string TwoPackages = std::string(SKMD_TEST_DATA_DIR) + "/two-packages-switch.xml";

/// A device at a PCI bus id, with NVLink to the devices named in Peers.
class PciDevice : public test::ForwardingDevice {
public:
  PciDevice(Device &Real, std::string Name, std::string BusId, std::vector<const Device *> Peers = {})
      : ForwardingDevice(Real), Peers(std::move(Peers)) {
    Info.Name = std::move(Name);
    Info.Description = "GPU";
    Info.PciBusId = std::move(BusId);
    Info.SharesHostMemory = false;
    Info.UsesHostCores = false;
  }
  PeerAccess peerAccess(const Device &Other) const override {
    for (const Device *P : Peers)
      if (P == &Other)
        return {true, true, 0};
    return {};
  }
  std::vector<const Device *> Peers;
};

struct Machine {
  OpenedDevices Opened;
  std::vector<std::unique_ptr<PciDevice>> Gpus;
  std::vector<Device *> Devices;
  Machine() {
    auto O = openDevices("cpu");
    EXPECT_TRUE(O.ok());
    Opened = std::move(*O);
    Device &Cpu = *Opened.Devices[0];
    // Upper case and a short domain, as drivers may spell them.
    Gpus.push_back(std::make_unique<PciDevice>(Cpu, "gpu0", "0000:04:00.0"));
    Gpus.push_back(std::make_unique<PciDevice>(Cpu, "gpu1", "0:05:00.0"));
    Gpus.push_back(std::make_unique<PciDevice>(Cpu, "gpu2", "0000:81:00.0"));
    Gpus.push_back(std::make_unique<PciDevice>(Cpu, "gpu3", "0000:9F:00.0"));
    Gpus[0]->Peers = {Gpus[1].get()};
    Devices = {&Cpu, Gpus[0].get(), Gpus[1].get(), Gpus[2].get(), Gpus[3].get()};
  }
};

} // namespace

TEST(Topology, DevicesSitWhereTheirBusIdsAre) {
  Machine M;
  auto T = discoverTopology(M.Devices, TwoPackages);
  ASSERT_TRUE(T.ok()) << T.error().message();
  EXPECT_EQ(T->describe(),
            "machine\n"
            "  cpu (" + M.Devices[0]->info().Description + "), in host memory\n"
            "  package 0, memory 64 GiB\n"
            "    host bridge 0000:[00-0f]\n"
            "      bridge 0000:00:01.0, link 31.5 GB/s\n"
            "        bridge 0000:02:00.0, link 31.5 GB/s\n"
            "          bridge 0000:03:00.0, link 31.5 GB/s\n"
            "            gpu0 (GPU) 0000:04:00.0, link 31.5 GB/s\n"
            "          bridge 0000:03:01.0, link 31.5 GB/s\n"
            "            gpu1 (GPU) 0000:05:00.0, link 31.5 GB/s\n"
            "  package 1, memory 64 GiB\n"
            "    host bridge 0000:[80-8f]\n"
            "      bridge 0000:80:01.0, link 31.5 GB/s\n"
            "        gpu2 (GPU) 0000:81:00.0, link 31.5 GB/s\n"
            "  gpu3 (GPU) 0000:9f:00.0, not in the topology\n"
            "peer gpu0 <-> gpu1: NVLink (performance rank 0)\n");
}

TEST(Topology, DevicesBehindOneSwitchShareItsUplink) {
  Machine M;
  auto T = discoverTopology(M.Devices, TwoPackages);
  ASSERT_TRUE(T.ok()) << T.error().message();
  // gpu0 and gpu1 share the switch (and package 0); every GPU shares the
  // machine. gpu3, found nowhere, sits in the machine.
  EXPECT_EQ(T->sharedUplinks({1, 2, 3, 4}),
            (std::vector<std::vector<int>>{{1, 2}, {1, 2, 3, 4}}));
  EXPECT_EQ(T->sharedUplinks({1, 3}), (std::vector<std::vector<int>>{{1, 3}}));
  EXPECT_TRUE(T->sharedUplinks({2}).empty());
}

TEST(Topology, ABadTopologyFileIsAnErrorNamingIt) {
  Machine M;
  auto T = discoverTopology(M.Devices, "/nonexistent/topology.xml");
  ASSERT_FALSE(T.ok());
  EXPECT_NE(T.error().message().find("/nonexistent/topology.xml"), std::string::npos);
  std::string Bad = ::testing::TempDir() + "skmd-bad-topology.xml";
  FILE *F = std::fopen(Bad.c_str(), "w");
  std::fputs("<topology version=\"2.0\"><object type=\"Nonsense\"", F);
  std::fclose(F);
  T = discoverTopology(M.Devices, Bad);
  ASSERT_FALSE(T.ok());
  EXPECT_NE(T.error().message().find(Bad), std::string::npos);
}

TEST(Topology, ThisMachineHasTheCpuInHostMemory) {
  auto O = openDevices("cpu,discrete");
  ASSERT_TRUE(O.ok());
  std::vector<Device *> Devices = {O->Devices[0].get(), O->Devices[1].get()};
  auto T = discoverTopology(Devices, "");
  ASSERT_TRUE(T.ok()) << T.error().message();
  EXPECT_EQ(T->Nodes[0].Name, "machine");
  EXPECT_EQ(T->Nodes[T->nodeOf(1)].Parent, 0);
  EXPECT_NE(T->describe().find("discrete0"), std::string::npos);
}
