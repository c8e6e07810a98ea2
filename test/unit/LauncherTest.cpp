//===- LauncherTest.cpp - The launcher's failure paths --------------------===//
#include "session/Devices.h"
#include "common/ForwardingDevice.h"
#include "common/KernelHarness.h"
#include "devices/HostCores.h"
#include "launch/Launcher.h"
#include "model/Profiler.h"
#include "planning/ModelPlanner.h"
#include "planning/PlanChooser.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <chrono>
#include <cstring>
#include <thread>

using namespace skmd;

namespace {

/// Forwards to a real device and counts the allocations it holds.
class CountingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Result<DeviceMemory> allocate(uint64_t Bytes) override {
    auto M = Real.allocate(Bytes);
    if (M.ok())
      ++Live;
    return M;
  }
  void release(DeviceMemory M) override {
    --Live;
    Real.release(M);
  }
  int Live = 0;
};

// When the CPU cannot re-run a failed device's groups, the launch fails,
// and still every device's memory is released and every piece reported
// (the early return skipped the pieces after the failed one).
TEST(Launcher, AFailedReRunReleasesEveryDevicesMemoryAndFillsTheReport) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  CountingDevice A(*Opened->Devices[1]), B(*Opened->Devices[2]);
  Launcher Run({Opened->Devices[0].get(), &A, &B}, *Opened->Cpu);
  test::VectorAddLaunch V(300);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  LoadedKernel &K = V.Kernel;
  std::vector<HostArg> &Args = V.Args;
  NDRange &Range = V.Range;
  const uint32_t N = 64 * 300;
  std::vector<float> &Z = V.C;

  setenv("SKMD_INJECT_FAULT", "discrete0:kernel,cpu:re-run", 1);
  LaunchReport Report;
  Status S = Run.run(K, Args, Range, {{1, 0, 150}, {2, 150, 150}}, Report);
  unsetenv("SKMD_INJECT_FAULT");
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("The written buffers are incomplete"), std::string::npos)
      << S.error().message();
  EXPECT_EQ(A.Live, 0);
  EXPECT_EQ(B.Live, 0);
  ASSERT_EQ(Report.Pieces.size(), 2u);
  EXPECT_FALSE(Report.Pieces[0].Failure.empty());

  // Without the faults the same launcher runs the plan whole.
  Status Again = Run.run(K, Args, Range, {{1, 0, 150}, {2, 150, 150}}, Report);
  ASSERT_TRUE(Again.ok()) << Again.error().message();
  EXPECT_EQ(Z[0], 3.0f);
  EXPECT_EQ(Z[N - 1], 3.0f);
  EXPECT_EQ(A.Live + B.Live, 0);
}

/// Records what each launch's step on it announces.
class StepRecordingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  void beginStep(const StepForecast &F) override { Steps.push_back(F); }
  std::vector<StepForecast> Steps;
};

// A device with its own memory hears of its step once a launch: its
// pieces' runs (chunks) and groups, that copies out follow, and the times
// the plan predicted for it.
TEST(Launcher, EachDeviceWithItsOwnMemoryHearsOfItsStep) {
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  StepRecordingDevice D(*Opened->Devices[1]);
  Launcher Run({Opened->Devices[0].get(), &D}, *Opened->Cpu);
  test::VectorAddLaunch V(300);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  std::vector<StepForecast> Predicted(2);
  Predicted[1].InMs = 1.5;
  Predicted[1].KernelMs = 2.5;
  Predicted[1].OutMs = 0.5;
  LaunchReport Report;
  Status S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 100}, {1, 100, 200, 2}}, Report,
                     &Predicted);
  ASSERT_TRUE(S.ok()) << S.error().message();
  ASSERT_EQ(D.Steps.size(), 1u);
  EXPECT_EQ(D.Steps[0].Runs, 2u);
  EXPECT_EQ(D.Steps[0].Groups, 200u);
  EXPECT_TRUE(D.Steps[0].CopiesOut);
  EXPECT_EQ(D.Steps[0].InMs, 1.5);
  EXPECT_EQ(D.Steps[0].KernelMs, 2.5);
  EXPECT_EQ(D.Steps[0].OutMs, 0.5);
  EXPECT_EQ(V.C[0], 3.0f);
  // Without predictions, the step still comes, its times 0.
  ASSERT_TRUE(Run.run(V.Kernel, V.Args, V.Range, {{1, 0, 300}}, Report).ok());
  ASSERT_EQ(D.Steps.size(), 2u);
  EXPECT_EQ(D.Steps[1].Runs, 1u);
  EXPECT_EQ(D.Steps[1].Groups, 300u);
  EXPECT_EQ(D.Steps[1].KernelMs, 0);
}

/// Forwards to a real device and records the buffer addresses its kernels
/// index from.
class AddressRecordingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Status run(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override {
    for (const DeviceArg &A : Args)
      if (A.K == DeviceArg::Buffer)
        Bases.push_back(A.Address);
    return Real.run(K, Args, Range, First, Count);
  }
  std::vector<uint64_t> Bases;
};

// A device that holds only its piece's bytes still sees each buffer's base
// where OpenCL promises it, on a 128-byte boundary: compilers make aligned
// vector accesses of that promise. The piece here starts 32 bytes into the
// buffers; with the bytes at the allocation's start the base lay 32 bytes
// before an aligned address.
TEST(Launcher, ADevicesPartOfABufferKeepsTheBaseAligned) {
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  AddressRecordingDevice D(*Opened->Devices[1]);
  Launcher Run({Opened->Devices[0].get(), &D}, *Opened->Cpu);
  test::VectorAddLaunch V(8);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  V.Range.NumGroups = {64, 1, 1};
  V.Range.LocalSize = {8, 1, 1}; // 32 bytes of each buffer per group

  LaunchReport Report;
  Status S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 1}, {1, 1, 63}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  ASSERT_EQ(D.Bases.size(), 3u);
  for (uint64_t Base : D.Bases)
    EXPECT_EQ(Base % 128, 0u) << std::hex << Base;
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);
}

/// Forwards to a real device and counts the modules it loads.
class ModuleCountingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) override {
    ++Modules;
    return Real.loadModule(B);
  }
  int Modules = 0;
};

// A program loads its module once per device, however many kernel handles
// it gives out: 100 handles of one kernel, each launched, JIT or dlopen
// the variant once.
TEST(Launcher, AKernelHandleCreated100TimesLoadsItsModuleOnce) {
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  ModuleCountingDevice D(*Opened->Devices[1]);
  Launcher Run({Opened->Devices[0].get(), &D}, *Opened->Cpu);
  test::VectorAddLaunch V(4);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  LoadedProgram Program;
  Program.Source = V.Kernel.Source;
  for (int I = 0; I < 100; ++I) {
    LoadedKernel Handle;
    Handle.Source = V.Kernel.Source;
    Handle.Info = V.Kernel.Info;
    Handle.Program = &Program;
    LaunchReport Report;
    Status S = Run.run(Handle, V.Args, V.Range, {{1, 0, 4}}, Report);
    ASSERT_TRUE(S.ok()) << S.error().message();
  }
  EXPECT_EQ(D.Modules, 1);
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);
  // A kernel without a program loads a module of its own.
  LoadedKernel Alone;
  Alone.Source = V.Kernel.Source;
  Alone.Info = V.Kernel.Info;
  LaunchReport Report;
  ASSERT_TRUE(Run.run(Alone, V.Args, V.Range, {{1, 0, 4}}, Report).ok());
  EXPECT_EQ(D.Modules, 2);
}

/// Forwards to a device that queues its work, counts how kernels are run,
/// and can fail one queued kernel when it is waited for (as a GPU reports
/// a fault at the next synchronization, not at the launch).
class QueueWatchingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Status run(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override {
    ++Runs;
    return Real.run(K, Args, Range, First, Count);
  }
  Status queueRun(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
                  uint64_t First, uint64_t Count) override {
    ++Queued;
    return Real.queueRun(K, Args, Range, First, Count);
  }
  Result<uint64_t> mark(DeviceStream S) override {
    auto M = Real.mark(S);
    if (M && S == DeviceStream::Compute && Queued == FailKernel)
      Failing = *M;
    return M;
  }
  Status finish(uint64_t Mark) override {
    Status S = Real.finish(Mark);
    if (S && Mark == Failing)
      return Failure(ErrorCode::DeviceFailed, "an illegal address (injected)");
    return S;
  }
  int Runs = 0, Queued = 0;
  /// Which queued kernel (1, 2, ...) fails; 0 for none.
  int FailKernel = 0;
  uint64_t Failing = ~0ull;
};

// A chunked share on a device that queues its work: each chunk's kernel is
// queued (none run through run(), which waits), the results equal the
// CPU's; a one-chunk piece still runs its kernel and waits, timed alone.
// A fault of the second chunk's kernel, reported only when the device is
// waited for, re-runs that chunk on the CPU: every output complete.
TEST(Launcher, AQueuingDeviceRunsAChunkedShareAsQueuedWork) {
  setenv("SKMD_DISCRETE_QUEUE", "1", 1);
  auto Opened = openDevices("cpu,discrete");
  unsetenv("SKMD_DISCRETE_QUEUE");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  ASSERT_TRUE(Opened->Devices[1]->info().QueuesWork);
  QueueWatchingDevice D(*Opened->Devices[1]);
  Launcher Run({Opened->Devices[0].get(), &D}, *Opened->Cpu);
  test::VectorAddLaunch V(400);
  ASSERT_TRUE(V.Error.empty()) << V.Error;

  Piece Share{1, 100, 300};
  Share.Chunks = 4;
  LaunchReport Report;
  Status S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 100}, Share}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  EXPECT_EQ(D.Queued, 4);
  EXPECT_EQ(D.Runs, 0);
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);
  ASSERT_EQ(Report.Pieces.size(), 2u);
  EXPECT_EQ(Report.Pieces[1].Chunks, 4u);
  EXPECT_EQ(Report.Pieces[1].BytesOut, 300u * 64 * 4);

  std::fill(V.C.begin(), V.C.end(), 0.0f);
  S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 100}, {1, 100, 300}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  EXPECT_EQ(D.Queued, 4);
  EXPECT_EQ(D.Runs, 1);
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);

  std::fill(V.C.begin(), V.C.end(), 0.0f);
  D.Queued = 0;
  D.FailKernel = 2;
  S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 100}, Share}, Report);
  ASSERT_FALSE(S.ok());
  const std::string &Message = S.error().message();
  EXPECT_NE(Message.find("illegal address"), std::string::npos) << Message;
  EXPECT_NE(Message.find("every output is complete"), std::string::npos) << Message;
  // Only the failed chunk: the later ones ran whole (their own copies in).
  EXPECT_NE(Message.find("[175, 250)"), std::string::npos) << Message;
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);
  EXPECT_FALSE(Report.Pieces[1].Failure.empty());
}

/// Forwards to a real device; each copy in takes a core of the host for
/// 100 ms, as a pageable copy staged by the host's cores does.
class HostCopyingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    auto Core = HostCores::instance().borrow(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return Real.copyIn(Dst, At, Src, Bytes);
  }
};

// The CPU's piece runs beside a device's copies made with the host's
// cores, on the cores they leave (it used to start after them); the
// results are the same.
TEST(Launcher, TheCpuComputesBesideCopiesThatTakeTheHostsCores) {
  ASSERT_TRUE(HostCores::lending()) << "SKMD_STAGING_LEND=0 in the environment";
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  HostCopyingDevice D(*Opened->Devices[1]);
  Launcher Run({Opened->Devices[0].get(), &D}, *Opened->Cpu);
  test::VectorAddLaunch V(400);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  LaunchReport Report;
  Status S = Run.run(V.Kernel, V.Args, V.Range, {{0, 0, 200}, {1, 200, 200}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  for (float Z : V.C)
    ASSERT_EQ(Z, 3.0f);
  ASSERT_EQ(Report.Pieces.size(), 2u);
  const PieceReport &Cpu = Report.Pieces[0], &Copying = Report.Pieces[1];
  ASSERT_EQ(Cpu.Device, "cpu");
  EXPECT_GE(Copying.InputMs, 200);
  EXPECT_LT(Cpu.KernelAt + Cpu.KernelMs, Copying.InputAt + Copying.InputMs)
      << "the CPU's kernel waited for the copies";
}

/// Forwards to a real device and counts the bytes it takes from the host
/// and from its peers.
class PeerWatchingDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    FromHost += Bytes;
    return Real.copyIn(Dst, At, Src, Bytes);
  }
  Status copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                  uint64_t SrcOffset, uint64_t Bytes) override {
    FromPeers += Bytes;
    return Real.copyPeer(Dst, DstOffset, From, Src, SrcOffset, Bytes);
  }
  uint64_t FromHost = 0, FromPeers = 0;
};

/// The launcher's devices (cpu, discrete0, discrete1) with each discrete
/// device's pageable link at 1 GB/s under a shared 1.5 GB/s, and the two
/// reaching each other at \p PeerGBps.
BatchMachine twoDevicesWithPeers(double PeerGBps) {
  BatchMachine M;
  for (const char *Name : {"cpu", "discrete0", "discrete1"})
    M.Devices.push_back({Name, 0});
  SharedLimit Host;
  Host.Name = "host";
  Host.BytesPerMs = bytesPerMs(1.5);
  for (int D : {1, 2}) {
    M.Routes.setAlone({HostSide, D, true}, LinkCost{0, 1});
    Host.Routes.push_back({{HostSide, D, true}, 1});
  }
  M.Routes.addLimit(Host);
  for (int D : {1, 2})
    M.Routes.setAlone({D, HostSide, true}, LinkCost{0, 1});
  M.Routes.setAlone({1, 2, false}, LinkCost{0, PeerGBps});
  M.Routes.setAlone({2, 1, false}, LinkCost{0, PeerGBps});
  return M;
}

// Two devices that each need all of B (matmul's second matrix) and reach
// each other faster than the host (a simulated NVLink: the route table
// says so) get half of it each from the host and exchange the halves: B
// crosses the host's links once, not twice; the result is the CPU's alone,
// bit for bit. With slow peers they copy it all from the host. A device
// that fails taking its part has its groups (and the other device's, which
// waited for that part) re-run on the CPU, every output complete.
TEST(Launcher, DevicesThatReachEachOtherFasterExchangeTheInputTheyShare) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  PeerWatchingDevice A(*Opened->Devices[1]), B(*Opened->Devices[2]);
  Launcher Run({Opened->Devices[0].get(), &A, &B}, *Opened->Cpu);
  test::MatmulLaunch M(512);
  ASSERT_TRUE(M.Error.empty()) << M.Error;
  const uint64_t Half = 512 * 512 * 4 / 2;
  LaunchReport Report;
  ASSERT_TRUE(Run.run(M.Kernel, M.Args, M.Range, {{0, 0, 1024}}, Report).ok());
  const std::vector<float> Alone = M.C;

  BatchMachine Fast = twoDevicesWithPeers(100), Slow = twoDevicesWithPeers(0.2);
  const BatchMachine *Known = &Fast;
  // The routes come from the profile database: asked for only where
  // devices share enough bytes to exchange.
  unsigned Asked = 0;
  Run.setMachine([&] {
    ++Asked;
    return Known;
  });
  std::fill(M.C.begin(), M.C.end(), 0.0f);
  Status S = Run.run(M.Kernel, M.Args, M.Range, {{1, 0, 512}, {2, 512, 512}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  EXPECT_EQ(M.C, Alone);
  EXPECT_EQ(Asked, 1u);
  // Each takes its half of A and half of B from the host, the other half
  // of B from the other device.
  EXPECT_EQ(A.FromHost, 2 * Half);
  EXPECT_EQ(B.FromHost, 2 * Half);
  EXPECT_EQ(A.FromPeers, Half);
  EXPECT_EQ(B.FromPeers, Half);
  std::vector<std::string> Labels;
  for (const OperationReport &Op : Report.Operations)
    Labels.push_back(Op.Label);
  const std::vector<std::string> Want = {
      "share in discrete0",          "share in discrete1",          "share discrete0>discrete1",
      "share discrete1>discrete0",   "copy in discrete0 [0, 512)",  "kernel discrete0 [0, 512)",
      "copy out discrete0 [0, 512)", "copy in discrete1 [512, 1024)"};
  ASSERT_GE(Labels.size(), Want.size());
  EXPECT_EQ(std::vector<std::string>(Labels.begin(), Labels.begin() + Want.size()), Want);
  EXPECT_EQ(Report.Pieces[0].BytesIn, Half);

  Known = &Slow;
  A.FromHost = B.FromHost = A.FromPeers = B.FromPeers = 0;
  std::fill(M.C.begin(), M.C.end(), 0.0f);
  S = Run.run(M.Kernel, M.Args, M.Range, {{1, 0, 512}, {2, 512, 512}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  EXPECT_EQ(M.C, Alone);
  EXPECT_EQ(A.FromHost, 3 * Half);
  EXPECT_EQ(A.FromPeers + B.FromPeers, 0u);
  EXPECT_EQ(Report.Operations.front().Label, "copy in discrete0 [0, 512)");

  Known = &Fast;
  std::fill(M.C.begin(), M.C.end(), 0.0f);
  setenv("SKMD_INJECT_FAULT", "discrete1:copy-in", 1);
  S = Run.run(M.Kernel, M.Args, M.Range, {{1, 0, 512}, {2, 512, 512}}, Report);
  unsetenv("SKMD_INJECT_FAULT");
  ASSERT_FALSE(S.ok());
  const std::string &Message = S.error().message();
  EXPECT_NE(Message.find("discrete1 failed in copy-in (its part of the inputs it shares)"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("every output is complete"), std::string::npos) << Message;
  EXPECT_EQ(M.C, Alone);

  // A vector add's pieces share no input: the routes are not asked for.
  test::VectorAddLaunch V(64);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  Asked = 0;
  S = Run.run(V.Kernel, V.Args, V.Range, {{1, 0, 32}, {2, 32, 32}}, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  EXPECT_EQ(Asked, 0u);
}

std::vector<Device *> rawDevices(const OpenedDevices &Opened) {
  std::vector<Device *> Raw;
  for (auto &D : Opened.Devices)
    Raw.push_back(D.get());
  return Raw;
}

/// The plan's predicted operations are the launch's, under the same labels.
void expectTheBatchThatRan(const ModelPlan &Plan, const LaunchReport &Report) {
  std::vector<std::string> Predicted, Ran;
  for (const auto &Op : Plan.Batch)
    Predicted.push_back(Op.Label);
  for (const OperationReport &Op : Report.Operations)
    Ran.push_back(Op.Label);
  EXPECT_EQ(Predicted, Ran);
}

// The planner predicts the launch the launcher runs: with the exchange, the
// same operations under the same labels.
TEST(Launcher, ThePlannersBatchHasTheExchangeTheLaunchRuns) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  std::vector<Device *> Raw = rawDevices(*Opened);
  Launcher Run(Raw, *Opened->Cpu);
  ModelPlanner Planner(Raw, 0, Run);
  char Dir[] = "/tmp/skmd-exchange-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  Planner.setDatabasePath(std::string(Dir) + "/profiles.db");
  BatchMachine Fast = twoDevicesWithPeers(100);
  Planner.setMachine([&]() -> Result<const BatchMachine *> { return &Fast; });
  Run.setMachine([&] { return &Fast; });
  test::MatmulLaunch M(512);
  ASSERT_TRUE(M.Error.empty()) << M.Error;
  const std::vector<Piece> Pieces = {{1, 0, 512}, {2, 512, 512}};
  Status Profiled = Planner.profile(M.Kernel, M.Args, M.Range, {0, 1, 2}, 1);
  ASSERT_TRUE(Profiled.ok()) << Profiled.error().message();
  auto Plan = Planner.predict(Pieces, "halves", M.Kernel, M.Args, M.Range);
  ASSERT_TRUE(Plan.ok()) << Plan.error().message();
  LaunchReport Report;
  Status S = Run.run(M.Kernel, M.Args, M.Range, Pieces, Report);
  ASSERT_TRUE(S.ok()) << S.error().message();
  expectTheBatchThatRan(*Plan, Report);
  ASSERT_FALSE(Report.Operations.empty());
  EXPECT_EQ(Report.Operations.front().Label, "share in discrete0");
  std::system(("rm -rf " + std::string(Dir)).c_str());
}

// A launch never measures the machine's routes (seconds, inside the
// program's timed region): the plan chooser plans without them until
// profiling records them, then with them, and its plan's batch is the
// launch's.
TEST(PlanChooser, ALaunchNeverMeasuresTheRoutesProfilingDoes) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  std::vector<Device *> Raw = rawDevices(*Opened);
  Launcher Run(Raw, *Opened->Cpu);
  PlanChooser Chooser(Raw, 0, Run, Run.workers(), /*MeasuredPlans=*/true);
  Run.setMachine([&] { return Chooser.knownMachine(); });
  std::vector<std::string> Said;
  Chooser.setProgress([&](const std::string &Line) { Said.push_back(Line); });
  char Dir[] = "/tmp/skmd-chooser-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  Chooser.planner().setDatabasePath(std::string(Dir) + "/profiles.db");
  test::MatmulLaunch M(256);
  ASSERT_TRUE(M.Error.empty()) << M.Error;
  auto PeerRow = [&]() -> bool {
    auto Db = Chooser.planner().database();
    EXPECT_TRUE(Db.ok());
    auto Row = (*Db)->link("peer:" + deviceKey(Raw[1]->info()) + ">" +
                               deviceKey(Raw[2]->info()),
                           "copy");
    return Row.ok() && Row->has_value();
  };

  // The kernel profiled by the planner alone (its copy costs measured with
  // it): no routes yet.
  ASSERT_TRUE(Chooser.planner().profile(M.Kernel, M.Args, M.Range, {0, 1, 2}, 1).ok());
  Said.clear();
  auto First = Chooser.choose(M.Kernel, M.Args, M.Range, "", /*Predict=*/false);
  ASSERT_TRUE(First.ok()) << First.error().message();
  ASSERT_TRUE(First->Model.has_value()) << First->NoModel;
  EXPECT_TRUE(First->Model->Batch.empty()) << "predicted without routes";
  EXPECT_FALSE(PeerRow()) << "the launch measured the routes";
  for (const std::string &Line : Said)
    EXPECT_EQ(Line.find("measuring"), std::string::npos) << Line;

  // Profiling measures them, once; the plans after predict the batch.
  ASSERT_TRUE(Chooser.profile(M.Kernel, M.Args, M.Range, {0}, 1).ok());
  EXPECT_TRUE(PeerRow());
  auto Second = Chooser.choose(M.Kernel, M.Args, M.Range, "", /*Predict=*/false);
  ASSERT_TRUE(Second.ok()) << Second.error().message();
  ASSERT_TRUE(Second->Model.has_value());
  EXPECT_FALSE(Second->Model->Batch.empty());
  LaunchReport Report;
  ASSERT_TRUE(Run.run(M.Kernel, M.Args, M.Range, Second->Pieces, Report).ok());
  expectTheBatchThatRan(*Second->Model, Report);
  std::system(("rm -rf " + std::string(Dir)).c_str());
}

} // namespace
