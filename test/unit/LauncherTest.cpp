//===- LauncherTest.cpp - The launcher's failure paths --------------------===//
#include "api/Devices.h"
#include "common/KernelHarness.h"
#include "launch/Launcher.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace skmd;

namespace {

/// Forwards to a real device and counts the allocations it holds.
class CountingDevice : public Device {
public:
  explicit CountingDevice(Device &Real) : Device(Real.info()), Real(Real) {}
  Result<std::unique_ptr<DeviceKernel>> loadKernel(const Bundle &B,
                                                   const KernelInfo &K) override {
    return Real.loadKernel(B, K);
  }
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
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    return Real.copyIn(Dst, At, Src, Bytes);
  }
  Status copyOut(void *Dst, DeviceMemory Src, uint64_t At, uint64_t Bytes) override {
    return Real.copyOut(Dst, Src, At, Bytes);
  }
  Status run(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override {
    return Real.run(K, Args, Range, First, Count);
  }
  int Live = 0;

private:
  Device &Real;
};

// When the CPU cannot re-run a failed device's groups, the launch fails,
// and still every device's memory is released and every piece reported
// (the early return skipped the pieces after the failed one).
TEST(Launcher, AFailedReRunReleasesEveryDevicesMemoryAndFillsTheReport) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  CountingDevice A(*Opened->Devices[1]), B(*Opened->Devices[2]);
  Launcher Run({Opened->Devices[0].get(), &A, &B}, *Opened->Cpu);
  auto Bundle = Bundle::fromFile(test::corpusDir() + "/vector_add.skmd");
  ASSERT_TRUE(Bundle.ok()) << Bundle.error().message();
  LoadedKernel K;
  K.Source = &*Bundle;
  K.Info = Bundle->metadata().findKernel("vector_add");
  ASSERT_NE(K.Info, nullptr);

  const uint32_t N = 64 * 300;
  std::vector<float> X(N, 1.0f), Y(N, 2.0f), Z(N, 0.0f);
  std::vector<HostArg> Args(4);
  Args[0] = {HostArg::Buffer, X.data(), N * 4, {}, 0};
  Args[1] = {HostArg::Buffer, Y.data(), N * 4, {}, 0};
  Args[2] = {HostArg::Buffer, Z.data(), N * 4, {}, 0};
  Args[3].K = HostArg::Scalar;
  Args[3].Value.resize(4);
  std::memcpy(Args[3].Value.data(), &N, 4);
  NDRange Range;
  Range.NumGroups = {300, 1, 1};
  Range.LocalSize = {64, 1, 1};

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

} // namespace
