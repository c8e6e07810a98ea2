//===- PeerExchangeTest.cpp - Inputs devices share, exchanged over peers --===//
#include "batch/PeerExchange.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

constexpr double Eps = 1e-9;
constexpr uint64_t MB = 1000 * 1000;

/// Two GPUs, each at 50 GB/s from the host alone and 60 GB/s together (a
/// shared host limit), reaching each other at \p PeerGBps (none: 0).
BatchMachine twoGpus(double PeerGBps) {
  BatchMachine M;
  M.Devices = {{"gpu0", 2}, {"gpu1", 2}};
  SharedLimit Host;
  Host.Name = "host";
  Host.BytesPerMs = bytesPerMs(60);
  for (int D : {0, 1}) {
    M.Routes.setAlone({HostSide, D, false}, LinkCost{0, 50});
    Host.Routes.push_back({{HostSide, D, false}, 1});
  }
  M.Routes.addLimit(Host);
  if (PeerGBps > 0) {
    M.Routes.setAlone({0, 1, false}, LinkCost{0, PeerGBps});
    M.Routes.setAlone({1, 0, false}, LinkCost{0, PeerGBps});
  }
  return M;
}

const std::vector<ExchangeDevice> Both = {{0, false}, {1, false}};

} // namespace

TEST(PeerExchange, PartsAreAsEqualAsWholeUnitsAllow) {
  EXPECT_EQ(splitShared(10, 3), (std::vector<uint64_t>{4, 3, 3}));
  EXPECT_EQ(splitShared(1000, 2, 256), (std::vector<uint64_t>{512, 488}));
  EXPECT_EQ(splitShared(100, 2, 256), (std::vector<uint64_t>{0, 100}));
  EXPECT_TRUE(splitShared(5, 0).empty());
}

// By hand: every GPU copying 600 MB from the host shares 60 GB/s, 20 ms;
// halves from the host take 10 ms, then the halves cross NVLink at 300
// GB/s, 1 ms: 11 ms. The exchange's timeline is that.
TEST(PeerExchange, NvlinkBesideASharedHostLimitPays) {
  BatchMachine M = twoGpus(300);
  auto X = choosePeerExchange(M, Both, 600 * MB);
  ASSERT_EQ(X.size(), 2u);
  std::vector<BatchOp> Ops;
  auto Into = addExchangeOps(M, X, splitShared(600 * MB, 2), {}, Ops);
  ASSERT_EQ(Ops.size(), 4u);
  EXPECT_EQ(Ops[0].Label, "share in gpu0");
  EXPECT_EQ(Ops[2].Label, "share gpu0>gpu1");
  EXPECT_EQ(Ops[3].Label, "share gpu1>gpu0");
  EXPECT_EQ(Into[0], (std::vector<unsigned>{0, 2, 3}));
  EXPECT_EQ(Into[1], (std::vector<unsigned>{1, 2, 3}));
  auto T = predictBatch(M, Ops);
  ASSERT_TRUE(T.ok()) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 10, Eps);
  EXPECT_NEAR(T->EndMs[1], 10, Eps);
  EXPECT_NEAR(T->StartMs[2], 10, Eps);
  EXPECT_NEAR(T->EndMs[2], 11, Eps);
  EXPECT_NEAR(T->Ms, 11, Eps);
}

// Peers at 20 GB/s: 10 + 15 ms against 20 ms. No peer route (devices that
// reach each other only through the host): nothing to exchange over.
TEST(PeerExchange, SlowOrMissingPeersKeepThePlainCopies) {
  EXPECT_TRUE(choosePeerExchange(twoGpus(20), Both, 600 * MB).empty());
  EXPECT_TRUE(choosePeerExchange(twoGpus(0), Both, 600 * MB).empty());
}

TEST(PeerExchange, OneDeviceOrFewBytesHaveNothingToExchange) {
  BatchMachine M = twoGpus(300);
  EXPECT_TRUE(choosePeerExchange(M, {{0, false}}, 600 * MB).empty());
  EXPECT_TRUE(choosePeerExchange(M, Both, MinExchangedBytes - 1).empty());
  EXPECT_EQ(choosePeerExchange(M, Both, MinExchangedBytes).size(), 2u);
}
