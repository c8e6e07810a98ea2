//===- BatchPredictionTest.cpp - The batch simulation against timelines worked by hand -===//

#include "batch/Machine.h"
#include "batch/Prediction.h"
#include "common/BatchOps.h"
#include "model/LinkModel.h"
#include "model/Profiler.h"
#include "session/Devices.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

using namespace skmd;
using test::copyOp;
using test::kernelOp;

namespace {

constexpr double Eps = 1e-9;

Route toDevice(int D) { return Route{HostSide, D, false}; }
Route toHost(int D) { return Route{D, HostSide, false}; }

/// Devices 0.. given by their copy engines; every listed route alone at
/// \p GBps with \p LatencyMs.
BatchMachine machine(std::vector<unsigned> CopyEngines, std::vector<Route> Routes, double GBps,
                     double LatencyMs = 0) {
  BatchMachine M;
  for (size_t D = 0; D < CopyEngines.size(); ++D)
    M.Devices.push_back({"gpu" + std::to_string(D), CopyEngines[D]});
  for (const Route &R : Routes)
    M.Routes.setAlone(R, LinkCost{LatencyMs, GBps});
  return M;
}

SharedLimit limit(const char *Name, double GBps, std::vector<Route> Routes, double Weight = 1) {
  SharedLimit L;
  L.Name = Name;
  L.BytesPerMs = bytesPerMs(GBps);
  for (const Route &R : Routes)
    L.Routes.push_back({R, Weight});
  return L;
}

IssueOrder asAdded(size_t N) {
  IssueOrder O;
  for (unsigned I = 0; I < N; ++I)
    O.Order.push_back(I);
  return O;
}

} // namespace

TEST(ShareRates, FlowsUnderNoLimitKeepTheirRatesAlone) {
  std::vector<double> R = shareRates({{50, {}}, {20, {}}}, {});
  EXPECT_DOUBLE_EQ(R[0], 50);
  EXPECT_DOUBLE_EQ(R[1], 20);
}

TEST(ShareRates, AFullLimitIsSharedInProportionToTheRatesAlone) {
  std::vector<double> R = shareRates({{50, {{0, 1}}}, {25, {{0, 1}}}}, {60});
  EXPECT_NEAR(R[0], 40, Eps);
  EXPECT_NEAR(R[1], 20, Eps);
}

TEST(ShareRates, WhatOneLimitLeavesGoesToFlowsItDoesNotHold) {
  // A and B share L0 (60), B and C share L1 (100): L0 fills first at 0.6
  // of the rates alone; C then has L1's 70 left and takes its 50.
  std::vector<double> R =
      shareRates({{50, {{0, 1}}}, {50, {{0, 1}, {1, 1}}}, {50, {{1, 1}}}}, {60, 100});
  EXPECT_NEAR(R[0], 30, Eps);
  EXPECT_NEAR(R[1], 30, Eps);
  EXPECT_NEAR(R[2], 50, Eps);
}

TEST(ShareRates, AFlowWithTwiceTheShareGetsTwiceTheFraction) {
  // Both alone at 50 under 60: fractions f and 2f, 50f + 100f = 60.
  std::vector<double> R = shareRates({{50, {{0, 1}}, 1}, {50, {{0, 1}}, 2}}, {60});
  EXPECT_NEAR(R[0], 20, Eps);
  EXPECT_NEAR(R[1], 40, Eps);
  // A share so large the flow keeps its rate alone; the other takes the
  // rest.
  R = shareRates({{50, {{0, 1}}, 1}, {50, {{0, 1}}, 10}}, {60});
  EXPECT_NEAR(R[1], 50, Eps);
  EXPECT_NEAR(R[0], 10, Eps);
}

TEST(ShareRates, WeightsCountAStagedByteTwice) {
  // Host memory 90: a staged copy (weight 2) and a DMA copy (weight 1),
  // both alone at 30: 2*30f + 30f = 90 at f = 1: both keep 30.
  std::vector<double> R = shareRates({{30, {{0, 2}}}, {30, {{0, 1}}}}, {90});
  EXPECT_NEAR(R[0], 30, Eps);
  EXPECT_NEAR(R[1], 30, Eps);
  R = shareRates({{30, {{0, 2}}}, {30, {{0, 1}}}}, {60});
  EXPECT_NEAR(R[0], 20, Eps);
  EXPECT_NEAR(R[1], 20, Eps);
}

TEST(BatchPrediction, OneGpuBothWaysShareItsLink) {
  // 50 GB/s each way alone, 80 both ways: 40 each until the 60 MB out
  // end at 0.01 + 1.5 ms; the 40 MB left in then go at 50 (0.8 ms); the
  // kernel runs after them.
  BatchMachine M = machine({2}, {toDevice(0), toHost(0)}, 50, 0.01);
  M.Routes.addLimit(limit("gpu0 both ways", 80, {toDevice(0), toHost(0)}));
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 100'000'000), kernelOp(0, 1, {0}),
                              copyOp(toHost(0), 60'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[2], 1.51, Eps);
  EXPECT_NEAR(T->EndMs[0], 2.31, Eps);
  EXPECT_NEAR(T->StartMs[1], 2.31, Eps);
  EXPECT_NEAR(T->Ms, 3.31, Eps);
}

TEST(BatchPrediction, TwoGpusShareTheHostsLimit) {
  // Each GPU alone 50 GB/s, both at once 60: 30 each until the 30 MB
  // end at 1 ms; the other's last 30 MB go at 50 (0.6 ms).
  BatchMachine M = machine({2, 2}, {toDevice(0), toDevice(1)}, 50);
  M.Routes.addLimit(limit("host to every GPU", 60, {toDevice(0), toDevice(1)}));
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 60'000'000), copyOp(toDevice(1), 30'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[1], 1.0, Eps);
  EXPECT_NEAR(T->EndMs[0], 1.6, Eps);
}

TEST(BatchPrediction, NvlinkCopiesRunBesideTheHostsAndQueueOnTheirEngine) {
  // gpu0>gpu1 over NVLink at 300 GB/s beside host>gpu0 at 50: no shared
  // limit, both 1 ms. host>gpu1 takes gpu1's copies-in engine after the
  // peer copy.
  BatchMachine M = machine({2, 2}, {toDevice(0), toDevice(1)}, 50);
  M.Routes.setAlone(Route{0, 1, false}, LinkCost{0, 300});
  std::vector<BatchOp> Ops = {copyOp(Route{0, 1, false}, 300'000'000),
                              copyOp(toDevice(0), 50'000'000), copyOp(toDevice(1), 50'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 1.0, Eps);
  EXPECT_NEAR(T->EndMs[1], 1.0, Eps);
  EXPECT_NEAR(T->StartMs[2], 1.0, Eps);
  EXPECT_NEAR(T->EndMs[2], 2.0, Eps);
}

TEST(BatchPrediction, OneCopyEngineTakesTheDirectionsInTurn) {
  BatchMachine M = machine({1}, {toDevice(0), toHost(0)}, 50);
  M.Routes.addLimit(limit("gpu0 both ways", 60, {toDevice(0), toHost(0)}));
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 50'000'000), copyOp(toHost(0), 50'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 1.0, Eps);
  EXPECT_NEAR(T->StartMs[1], 1.0, Eps);
  EXPECT_NEAR(T->Ms, 2.0, Eps);
}

TEST(BatchPrediction, AKernelOnTheHostsCoresSharesHostMemoryWithCopies) {
  // Host memory 100 GB/s; the CPU's kernel alone 1 ms over 80 MB (80 GB/s),
  // the copy alone 50 GB/s: 130 asked, both at 100/130 of their rates
  // alone. The kernel ends at 1.3 ms, having let the copy move 50 MB; the
  // other 50 MB go at 50 (1 ms).
  BatchMachine M = machine({0, 2}, {toDevice(1)}, 50);
  SharedLimit Host = limit("host memory", 100, {toDevice(1)});
  Host.What = SharedLimit::HostMemory;
  M.Routes.addLimit(Host);
  std::vector<BatchOp> Ops = {kernelOp(0, 1, {}, 80'000'000), copyOp(toDevice(1), 100'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 1.3, Eps);
  EXPECT_NEAR(T->EndMs[1], 2.3, Eps);
}

TEST(BatchPrediction, KernelsAndCopiesOnTheHostsCoresShareThem) {
  // Two hardware threads; device 0's kernel keeps both busy for 1 ms
  // alone; device 1's copy, 2 MB at 1 GB/s (1e6 bytes a ms), takes one
  // thread. Three asked of two: both at 2/3 until the kernel ends at 1.5
  // ms, the copy having moved 1 MB; the other 1 MB at full rate, 1 ms.
  BatchMachine M = machine({0, 0}, {toDevice(1)}, 1);
  M.Devices[0].HostThreads = 2;
  SharedLimit Cores;
  Cores.Name = "host cores";
  Cores.What = SharedLimit::HostCores;
  Cores.BytesPerMs = 2;
  Cores.Routes = {{toDevice(1), 1 / bytesPerMs(1)}};
  M.Routes.addLimit(Cores);
  std::vector<BatchOp> Ops = {kernelOp(0, 1), copyOp(toDevice(1), 2'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 1.5, Eps);
  EXPECT_NEAR(T->EndMs[1], 2.5, Eps);
}

TEST(BatchPrediction, TheEnginesOwnCostsDelayTheStartAndEachHandOff) {
  // 0.5 ms to start; 0.1 ms from an operation to a waiting one on another
  // engine; none to the next on the same engine.
  BatchMachine M = machine({2}, {toDevice(0)}, 50);
  M.SetupMs = 0.5;
  M.HandoffMs = 0.1;
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 50'000'000), kernelOp(0, 1, {0}),
                              copyOp(toDevice(0), 50'000'000, {0})};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->StartMs[0], 0.5, Eps);
  EXPECT_NEAR(T->StartMs[1], 1.6, Eps);
  EXPECT_NEAR(T->StartMs[2], 1.5, Eps);
  EXPECT_NEAR(T->Ms, 2.6, Eps);
}

TEST(BatchPrediction, ADevicesOneChainRunsOnOneEngineWithoutHandOffs) {
  // Copy in, kernel, copy out, each after the one before: one thread runs
  // them, so no hand-off is paid between them.
  BatchMachine M = machine({2}, {toDevice(0), toHost(0)}, 50);
  M.HandoffMs = 0.1;
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 50'000'000), kernelOp(0, 1, {0}),
                              copyOp(toHost(0), 50'000'000, {1})};
  auto Engines = enginesOf(M, Ops, asAdded(Ops.size()).Order);
  EXPECT_EQ(Engines[1], Engines[0]);
  EXPECT_EQ(Engines[2], Engines[0]);
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->Ms, 3, Eps);
  // A second copy in beside the kernel breaks the chain: engines of their
  // own, and the hand-offs again.
  Ops.push_back(copyOp(toDevice(0), 50'000'000, {0}));
  Engines = enginesOf(M, Ops, asAdded(Ops.size()).Order);
  EXPECT_NE(Engines[1], Engines[0]);
  T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[2], 3.2, Eps);
}

TEST(BatchPrediction, TheHostsWorkAndKernelsOnItsThreadTakeTurns) {
  // Device 1's kernels run on the host's thread (a launch's CPU pieces),
  // as does the merge (host work): one after the other. Device 0's
  // kernel runs beside them.
  BatchMachine M = machine({2, 0}, {}, 50);
  M.Devices[1].KernelsOnHostThread = true;
  std::vector<BatchOp> Ops = {kernelOp(1, 2), kernelOp(HostSide, 1), kernelOp(0, 2)};
  EXPECT_EQ(engineOf(M, Ops[0]), (std::pair<int, unsigned>{HostSide, 0}));
  EXPECT_EQ(engineOf(M, Ops[1]), (std::pair<int, unsigned>{HostSide, 0}));
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->StartMs[1], 2, Eps);
  EXPECT_NEAR(T->EndMs[1], 3, Eps);
  EXPECT_NEAR(T->EndMs[2], 2, Eps);
}

TEST(BatchPrediction, AKernelReadingHostMemorySharesItsReadsWithACopyToADevice) {
  // Host memory reads 80 GB/s. A DMA copy to gpu0 (54 GB/s alone) reads
  // its bytes; a CPU kernel reads 50 GB/s (500 MB in 10 ms; it writes
  // nothing). Together 104 > 80: both at 80/104 of their rates alone while
  // they overlap; the copy's 270 MB end first, at 5 / (80/104) = 6.5 ms,
  // the kernel has 6.5 * 50 * 80/104 = 250 MB read and runs the rest (250
  // MB) alone in 5 ms. A kernel that writes the same bytes instead does
  // not share the reads.
  BatchMachine M = machine({2, 0}, {toDevice(0)}, 54);
  M.Devices[1].HostThreads = 8;
  SharedLimit Reads = limit("host memory reads", 80, {toDevice(0)});
  Reads.What = SharedLimit::HostReads;
  M.Routes.addLimit(Reads);
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 270'000'000),
                              kernelOp(1, 10, {}, 500'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 6.5, 1e-6);
  EXPECT_NEAR(T->EndMs[1], 11.5, 1e-6);
  Ops[1].HostWrittenBytes = Ops[1].HostBytes;
  T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 5, 1e-6);
  EXPECT_NEAR(T->EndMs[1], 10, 1e-6);
}

TEST(BatchPrediction, NoLimitSlowsAnOperationAloneBelowItsTimeAlone) {
  // A CPU kernel moving 150 MB in 1 ms (in cache) under a 100 GB/s host
  // memory: alone it still takes its 1 ms.
  BatchMachine M = machine({0, 2}, {toDevice(1)}, 50);
  SharedLimit Host = limit("host memory", 100, {toDevice(1)});
  Host.What = SharedLimit::HostMemory;
  M.Routes.addLimit(Host);
  std::vector<BatchOp> Ops = {kernelOp(0, 1, {}, 150'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->Ms, 1, Eps);
}

TEST(BatchPrediction, TheLongestPathIsIssuedFirst) {
  // On one copies-in engine: a small copy nothing waits for, then a large
  // one a 5 ms kernel waits for. As added: 0.2 + 1 + 5 ms; the large one
  // first: 1 + 5.
  BatchMachine M = machine({2}, {toDevice(0)}, 50);
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 10'000'000), copyOp(toDevice(0), 50'000'000),
                              kernelOp(0, 5, {1})};
  Result<Timeline> AsAdded = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(AsAdded);
  EXPECT_NEAR(AsAdded->Ms, 6.2, Eps);
  Result<Timeline> Best = predictBatch(M, Ops);
  ASSERT_TRUE(Best) << Best.error().message();
  EXPECT_NEAR(Best->Ms, 6.0, Eps);
  EXPECT_EQ(Best->Issued.Name, "longest path first");
  EXPECT_NEAR(Best->EndMs[0], 1.2, Eps);
}

TEST(BatchPrediction, CopiesBesideTheLongestStreamWaitForItsCopy) {
  // The paper's alignment: stream A copies 60 MB to gpu0 and runs 1 ms,
  // stream B copies 30 MB to gpu1; both GPUs at once 60 GB/s. Together A's
  // copy ends at 1.6 (previous test) and A at 2.6; with B's copy behind
  // A's, A's goes at 50 (1.2 ms), its kernel ends at 2.2 and B's copy at
  // 1.2 + 0.6 = 1.8.
  BatchMachine M = machine({2, 2}, {toDevice(0), toDevice(1)}, 50);
  M.Routes.addLimit(limit("host to every GPU", 60, {toDevice(0), toDevice(1)}));
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 60'000'000), kernelOp(0, 1, {0}),
                              copyOp(toDevice(1), 30'000'000)};
  Result<Timeline> Together = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(Together);
  EXPECT_NEAR(Together->Ms, 2.6, Eps);
  Result<Timeline> Best = predictBatch(M, Ops);
  ASSERT_TRUE(Best) << Best.error().message();
  EXPECT_EQ(Best->Issued.Name, "others behind the longest stream");
  EXPECT_NEAR(Best->Ms, 2.2, Eps);
  EXPECT_NEAR(Best->StartMs[2], 1.2, Eps);
  EXPECT_NEAR(Best->EndMs[2], 1.8, Eps);
}

TEST(BatchPrediction, StagedBytesCountTwiceInHostMemory) {
  // A staged (pageable) copy to gpu0 and a DMA copy to gpu1, each 30 GB/s
  // alone, host memory 60: 2x + x = 60 per ms -> 20 GB/s each.
  BatchMachine M = machine({2, 2}, {}, 30);
  Route Staged{HostSide, 0, true};
  M.Routes.setAlone(Staged, LinkCost{0, 30});
  M.Routes.setAlone(toDevice(1), LinkCost{0, 30});
  SharedLimit Host;
  Host.Name = "host memory";
  Host.BytesPerMs = bytesPerMs(60);
  Host.What = SharedLimit::HostMemory;
  Host.Routes = {{Staged, 2}, {toDevice(1), 1}};
  M.Routes.addLimit(Host);
  std::vector<BatchOp> Ops = {copyOp(Staged, 20'000'000), copyOp(toDevice(1), 20'000'000)};
  Result<Timeline> T = simulateBatch(M, Ops, asAdded(Ops.size()));
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[0], 1.0, Eps);
  EXPECT_NEAR(T->EndMs[1], 1.0, Eps);
}

TEST(BatchPrediction, BadBatchesAreRefusedWithTheOperationNamed) {
  BatchMachine M = machine({2}, {toDevice(0)}, 50);
  std::vector<BatchOp> Later = {copyOp(toDevice(0), 1, {1}), kernelOp(0, 1)};
  Result<Timeline> T = predictBatch(M, Later);
  ASSERT_FALSE(T);
  EXPECT_NE(T.error().message().find("batch operation 0"), std::string::npos);
  EXPECT_NE(T.error().message().find("not an earlier one"), std::string::npos);

  std::vector<BatchOp> Unmeasured = {copyOp(toHost(0), 1)};
  T = predictBatch(M, Unmeasured);
  ASSERT_FALSE(T);
  EXPECT_NE(T.error().message().find("no measured rate for route gpu0>host"), std::string::npos);

  std::vector<BatchOp> NoDevice = {kernelOp(3, 1)};
  ASSERT_FALSE(predictBatch(M, NoDevice));

  // An engine whose next operation waits for one queued behind it.
  std::vector<BatchOp> Ops = {kernelOp(0, 1), copyOp(toDevice(0), 1), copyOp(toDevice(0), 1)};
  IssueOrder Stuck = asAdded(Ops.size());
  Stuck.Behind = {{1, 2}};
  T = simulateBatch(M, Ops, Stuck);
  ASSERT_FALSE(T);
  EXPECT_NE(T.error().message().find("cannot finish"), std::string::npos);
}

TEST(BatchPrediction, OperationsThatTakeNoTimeEndWhereTheyStart) {
  BatchMachine M = machine({2}, {toDevice(0)}, 50);
  std::vector<BatchOp> Ops = {copyOp(toDevice(0), 0), kernelOp(0, 0, {0}), kernelOp(0, 2, {1})};
  Result<Timeline> T = predictBatch(M, Ops);
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_NEAR(T->EndMs[1], 0, Eps);
  EXPECT_NEAR(T->Ms, 2, Eps);
}

TEST(BatchMachine, HostDiscreteDevicesGetTheirRoutesAndTheHostsLimits) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  std::vector<Device *> Devices;
  for (auto &D : Opened->Devices)
    Devices.push_back(D.get());
  std::string Path = ::testing::TempDir() + "skmd-batch-" + std::to_string(getpid()) + ".sqlite";
  std::remove(Path.c_str());
  auto Db = ProfileDatabase::open(Path);
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  std::vector<std::string> Said;
  auto Progress = [&](const std::string &Line) { Said.push_back(Line); };

  // Where measuring is not allowed (a launch), missing routes are an error
  // that says how to measure them, and nothing is measured or recorded.
  {
    auto Unknown =
        measuredMachine(Devices, Opened->Cpu, **Db, Progress, nullptr, Measuring::RecordedOnly);
    ASSERT_FALSE(Unknown.ok());
    EXPECT_EQ(Unknown.error().code(), ErrorCode::NotFound);
    EXPECT_NE(Unknown.error().message().find("skmd-prof --links"), std::string::npos)
        << Unknown.error().message();
    EXPECT_TRUE(Said.empty());
    auto Row = (*Db)->link(deviceKey(Devices[1]->info()), "in-pinned");
    ASSERT_TRUE(Row.ok());
    EXPECT_FALSE(Row->has_value());
  }

  auto M = measuredMachine(Devices, Opened->Cpu, **Db, Progress);
  ASSERT_TRUE(M.ok()) << M.error().message();
  ASSERT_EQ(M->Devices.size(), 3u);
  // The CPU computes on host memory: no route. Each HostDiscrete device:
  // both directions, both kinds of memory; and each to the other.
  EXPECT_EQ(M->Routes.routes().size(), 10u);
  EXPECT_TRUE(M->Routes.alone(Route{1, 2, false}));
  EXPECT_TRUE(M->Routes.alone(Route{2, 1, false}));
  for (const auto &[R, Cost] : M->Routes.routes()) {
    EXPECT_NE(R.From, 0);
    EXPECT_NE(R.To, 0);
    EXPECT_GT(Cost.GBps, 0);
  }
  std::vector<std::string> Limits;
  for (const SharedLimit &L : M->Routes.limits()) {
    Limits.push_back(L.Name);
    if (L.What == SharedLimit::HostMemory) {
      for (const auto &[R, W] : L.Routes)
        EXPECT_EQ(W, 2) << "a HostDiscrete device's bytes are a memcpy: read and written";
    }
    // ... so each of its routes is on host memory's reads and its writes.
    if (L.What == SharedLimit::HostReads || L.What == SharedLimit::HostWrites) {
      EXPECT_EQ(L.Routes.size(), M->Routes.routes().size());
      EXPECT_GT(L.BytesPerMs, 0);
    }
  }
  EXPECT_EQ(Limits, (std::vector<std::string>{"staged copies to discrete0, discrete1",
                                              "staged copies from discrete0, discrete1",
                                              "host memory", "host memory reads",
                                              "host memory writes", "host cores"}));
  // Each device's sharing with a kernel on the host's cores, then the
  // staged copies together.
  ASSERT_EQ(Said.size(), 3u);
  for (const auto &[R, Cost] : M->Routes.routes())
    EXPECT_GT(M->Routes.share(R), 0);

  // Kept: a second machine measures nothing, and loads where measuring is
  // not allowed.
  auto Again = measuredMachine(Devices, Opened->Cpu, **Db, Progress);
  ASSERT_TRUE(Again.ok());
  EXPECT_EQ(Said.size(), 3u);
  {
    auto Recorded =
        measuredMachine(Devices, Opened->Cpu, **Db, Progress, nullptr, Measuring::RecordedOnly);
    ASSERT_TRUE(Recorded.ok()) << Recorded.error().message();
    EXPECT_EQ(Recorded->Routes.routes().size(), M->Routes.routes().size());
    EXPECT_EQ(Recorded->Routes.limits().size(), M->Routes.limits().size());
  }

  // Two copies at once: no faster than the slower alone, no slower than
  // one after the other.
  Route To1{HostSide, 1, true}, To2{HostSide, 2, true};
  std::vector<BatchOp> Ops = {copyOp(To1, 64 << 20), copyOp(To2, 64 << 20)};
  auto T = predictBatch(*M, Ops);
  ASSERT_TRUE(T.ok()) << T.error().message();
  double Alone1 = M->Routes.alone(To1)->ms(64 << 20), Alone2 = M->Routes.alone(To2)->ms(64 << 20);
  EXPECT_GE(T->Ms, std::max(Alone1, Alone2) * (1 - 1e-9));
  EXPECT_LE(T->Ms, (Alone1 + Alone2) * (1 + 1e-9));
  EXPECT_NE(describeRoutes(*M).find("host>discrete0 pageable"), std::string::npos);
}
