//===- BatchEngineTest.cpp - Batches run as predicted, on HostDiscrete devices -===//

#include "executor/BatchEngine.h"
#include "common/BatchOps.h"
#include "executor/Schedule.h"
#include "session/Devices.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

using namespace skmd;
using test::copyOp;
using test::kernelOp;

namespace {

/// cpu and two HostDiscrete devices, every route at 1 GB/s.
struct Rig {
  OpenedDevices Opened;
  BatchMachine M;
  DeviceWorkers Workers{3 * Schedule::StreamsPerDevice};
  Rig() {
    auto O = openDevices("cpu,discrete,discrete");
    EXPECT_TRUE(O.ok());
    Opened = std::move(*O);
    for (auto &D : Opened.Devices)
      M.Devices.push_back({D->info().Name, D->info().CopyEngines});
    for (int D : {1, 2})
      for (bool Pageable : {false, true}) {
        M.Routes.setAlone(Route{HostSide, D, Pageable}, LinkCost{0.01, 1});
        M.Routes.setAlone(Route{D, HostSide, Pageable}, LinkCost{0.01, 1});
      }
  }
  Device &dev(int I) { return *Opened.Devices[I]; }
};

std::function<Status()> sleepFor(double Ms) {
  return [Ms] {
    std::this_thread::sleep_for(std::chrono::microseconds(int64_t(Ms * 1000)));
    return Status::success();
  };
}

} // namespace

TEST(BatchEngine, CopiesAndKernelsRunOnTheirLanesInDependencyOrder) {
  Rig R;
  constexpr uint64_t Bytes = 1 << 20;
  std::vector<uint8_t> In(Bytes), Out(Bytes, 0);
  for (uint64_t I = 0; I < Bytes; ++I)
    In[I] = uint8_t(I * 7);
  auto Mem = R.dev(1).allocate(Bytes);
  ASSERT_TRUE(Mem.ok());
  Route ToD{HostSide, 1, true}, FromD{1, HostSide, true};
  std::vector<BatchOp> Ops = {copyOp(ToD, Bytes), kernelOp(1, 2, {0}),
                              copyOp(FromD, Bytes, {1})};
  std::vector<std::function<Status()>> Work = {
      [&] {
        Status S = R.dev(1).copyIn(*Mem, 0, In.data(), Bytes);
        return S ? R.dev(1).finishCopies() : S;
      },
      sleepFor(2), [&] { return R.dev(1).copyOut(Out.data(), *Mem, 0, Bytes); }};
  auto Report = runBatch(R.M, Ops, Work, R.Workers);
  ASSERT_TRUE(Report.ok()) << Report.error().message();
  ASSERT_TRUE(Report->Error) << Report->Error.error().message();
  EXPECT_EQ(In, Out);
  EXPECT_GE(Report->StartMs[1], Report->EndMs[0]);
  EXPECT_GE(Report->StartMs[2], Report->EndMs[1]);
  EXPECT_GE(Report->EndMs[1] - Report->StartMs[1], 2.0);
  EXPECT_GE(Report->Ms, Report->EndMs[2]);
  // The prediction: 1 MiB at 1 GB/s each way, the kernel's 2 ms between.
  EXPECT_NEAR(Report->Predicted.Ms, 2 * (0.01 + 1.048576) + 2, 1e-9);
  R.dev(1).release(*Mem);
}

TEST(BatchEngine, AnOperationHeldBehindAnotherStartsAfterIt) {
  Rig R;
  // Two devices' copies in, unrelated; the order holds the second behind
  // the first.
  std::vector<BatchOp> Ops = {copyOp(Route{HostSide, 1, true}, 1000),
                              copyOp(Route{HostSide, 2, true}, 1000)};
  IssueOrder O;
  O.Name = "held";
  O.Order = {0, 1};
  O.Behind = {{1, 0}};
  auto Report = runBatch(R.M, Ops, {sleepFor(3), sleepFor(1)}, R.Workers, {&O});
  ASSERT_TRUE(Report.ok()) << Report.error().message();
  EXPECT_EQ(Report->Predicted.Issued.Name, "held");
  EXPECT_GE(Report->StartMs[1], Report->EndMs[0]);
}

TEST(BatchEngine, AFailedOperationIsNamedAndWhatWaitsForItIsSkipped) {
  Rig R;
  std::vector<BatchOp> Ops = {copyOp(Route{HostSide, 1, true}, 1000), kernelOp(1, 1, {0}),
                              copyOp(Route{HostSide, 2, true}, 1000)};
  Ops[0].Label = "inputs to discrete0";
  bool KernelRan = false, OtherRan = false;
  std::vector<std::function<Status()>> Work = {
      [] { return Status(Failure(ErrorCode::DeviceFailed, "the copy broke")); },
      [&] {
        KernelRan = true;
        return Status::success();
      },
      [&] {
        OtherRan = true;
        return Status::success();
      }};
  auto Report = runBatch(R.M, Ops, Work, R.Workers);
  ASSERT_TRUE(Report.ok());
  ASSERT_FALSE(Report->Error);
  EXPECT_EQ(Report->Error.error().message(),
            "batch operation 0 (inputs to discrete0): the copy broke");
  EXPECT_FALSE(KernelRan);
  EXPECT_TRUE(OtherRan);
  EXPECT_EQ(Report->Outcome, (std::vector<ScheduleNode::State>{
                                 ScheduleNode::Failed, ScheduleNode::Skipped,
                                 ScheduleNode::Done}));
  EXPECT_EQ(Report->Errors[0].error().message(), "the copy broke");
}

TEST(BatchEngine, ABatchRunsUnpredictedInTheOrderGivenOnTheDevicesQueues) {
  // A launch's batch: kernel times unknown, so not simulated; no route is
  // measured for its copies either.
  Rig R;
  BatchMachine Bare;
  Bare.Devices = R.M.Devices;
  std::vector<BatchOp> Ops = {copyOp(Route{HostSide, 1, true}, 1000), kernelOp(1, 0, {0})};
  IssueOrder O;
  O.Order = {0, 1};
  BatchOptions Run(&O);
  Run.Predict = false;
  std::vector<int> Ran;
  auto Report = runBatch(Bare, Ops,
                         {[&] {
                            Ran.push_back(0);
                            return Status::success();
                          },
                          [&] {
                            Ran.push_back(1);
                            return Status::success();
                          }},
                         R.Workers, Run);
  ASSERT_TRUE(Report.ok()) << Report.error().message();
  EXPECT_EQ(Ran, (std::vector<int>{0, 1}));
  EXPECT_TRUE(Report->Predicted.StartMs.empty());
  EXPECT_EQ(Report->Outcome[1], ScheduleNode::Done);
  // Predicted, the same batch needs the routes.
  Run.Predict = true;
  EXPECT_FALSE(runBatch(Bare, Ops, {nullptr, nullptr}, R.Workers, Run).ok());
}

TEST(BatchEngine, ABatchTheModelCannotPredictDoesNotRun) {
  Rig R;
  std::vector<BatchOp> Ops = {copyOp(Route{1, 2, false}, 1000)}; // no peer route measured
  bool Ran = false;
  auto Report = runBatch(R.M, Ops, {[&] {
                           Ran = true;
                           return Status::success();
                         }},
                         R.Workers);
  ASSERT_FALSE(Report.ok());
  EXPECT_NE(Report.error().message().find("no measured rate for route discrete0>discrete1"),
            std::string::npos);
  EXPECT_FALSE(Ran);
}

TEST(BatchEngine, ItsOwnCostsAreMeasured) {
  DeviceWorkers Workers(2 * Schedule::StreamsPerDevice);
  EngineCost C = measureEngineCost(Workers);
  EXPECT_GT(C.SetupMs, 0);
  EXPECT_LT(C.SetupMs, 50);
  EXPECT_GE(C.HandoffMs, 0);
  EXPECT_LT(C.HandoffMs, 50);
}

TEST(BatchEngine, BytesGoFromOneDeviceToAnotherAndBack) {
  Rig R;
  R.M.Routes.setAlone(Route{1, 2, false}, LinkCost{0.01, 1});
  constexpr uint64_t Bytes = (3 << 20) + 123;
  std::vector<uint8_t> In(Bytes), Out(Bytes, 0);
  for (uint64_t I = 0; I < Bytes; ++I)
    In[I] = uint8_t(I * 13 + 5);
  auto A = R.dev(1).allocate(Bytes), B = R.dev(2).allocate(Bytes);
  ASSERT_TRUE(A.ok() && B.ok());
  std::vector<BatchOp> Ops = {copyOp(Route{HostSide, 1, true}, Bytes),
                              copyOp(Route{1, 2, false}, Bytes, {0}),
                              copyOp(Route{2, HostSide, true}, Bytes, {1})};
  std::vector<std::function<Status()>> Work = {
      [&] {
        Status S = R.dev(1).copyIn(*A, 0, In.data(), Bytes);
        return S ? R.dev(1).finishCopies() : S;
      },
      [&] { return R.dev(2).copyPeer(*B, 0, R.dev(1), *A, 0, Bytes); },
      [&] { return R.dev(2).copyOut(Out.data(), *B, 0, Bytes); }};
  auto Report = runBatch(R.M, Ops, Work, R.Workers);
  ASSERT_TRUE(Report.ok()) << Report.error().message();
  ASSERT_TRUE(Report->Error) << Report->Error.error().message();
  EXPECT_EQ(In, Out);
  R.dev(1).release(*A);
  R.dev(2).release(*B);
}
