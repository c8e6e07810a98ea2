//===- BoundTest.cpp - The least time any split could take, by hand -------===//
#include "planning/Bound.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

BoundDevice device(std::string Name, double KernelPerGroup, double InPerGroup,
                   double HostBytesPerGroup) {
  BoundDevice D;
  D.Name = std::move(Name);
  D.KernelMs = [KernelPerGroup](uint64_t N) { return KernelPerGroup * double(N); };
  if (InPerGroup > 0) {
    D.InputMs = [InPerGroup](uint64_t N) { return InPerGroup * double(N); };
    D.OutputMs = [](uint64_t N) { return 1e-6 * double(N); };
  }
  D.HostBytes = [HostBytesPerGroup](uint64_t N) { return HostBytesPerGroup * double(N); };
  return D;
}

} // namespace

// The CPU: 100 groups a ms. The GPU: 1000 groups a ms of kernel, 200 a
// ms over its link. Together 300 groups a ms: 1000 groups in 3.333 ms,
// the GPU held by its inputs.
TEST(Bound, EachDeviceAtItsSlowestStep) {
  BoundProblem P;
  P.TotalGroups = 1000;
  P.Devices = {device("cpu", 0.01, 0, 1000), device("gpu0", 0.001, 0.005, 1000)};
  BoundResult R = launchBound(P);
  // Whole groups: 333 and 667 need 3.335 ms.
  EXPECT_NEAR(R.Ms, 3.335, 1e-4);
  EXPECT_NEAR(double(R.Groups[0]), 333, 1);
  EXPECT_NEAR(double(R.Groups[1]), 667, 1);
  EXPECT_EQ(R.Limit, "cpu kernel, gpu0 input");
}

// Host memory sustaining 2e5 bytes a ms, each group 1000 bytes on either
// device: 1e6 bytes take 5 ms however the groups are split.
TEST(Bound, HostMemoryLimitsEveryDeviceTogether) {
  BoundProblem P;
  P.TotalGroups = 1000;
  P.Devices = {device("cpu", 0.01, 0, 1000), device("gpu0", 0.001, 0.005, 1000)};
  P.HostBytesPerMs = 2e5;
  BoundResult R = launchBound(P);
  EXPECT_NEAR(R.Ms, 5, 1e-4);
  EXPECT_EQ(R.Limit, "host memory");
}

// Devices that cost host memory less take groups first: a CPU at 1 byte
// a group against a GPU at 3 (costlier host bytes), host memory at
// 300 bytes a ms. With c groups on the CPU (c <= 100 T) and g on the GPU
// (g <= 200 T), c + 3 g = 3000 - 2 c <= 300 T: at best c = 100 T, so T =
// 6 ms, c = 600, g = 400 (its link would allow 1200).
TEST(Bound, DevicesCheaperInHostBytesTakeGroupsFirst) {
  BoundProblem P;
  P.TotalGroups = 1000;
  P.Devices = {device("cpu", 0.01, 0, 1), device("gpu0", 0.001, 0.005, 3)};
  P.HostBytesPerMs = 300;
  BoundResult R = launchBound(P);
  EXPECT_NEAR(R.Ms, 6, 1e-3);
  EXPECT_NEAR(double(R.Groups[1]), 400, 1);
  EXPECT_EQ(R.Limit, "host memory");
}

TEST(Bound, NoDevicesOrGroupsTakeNoTime) {
  BoundProblem P;
  EXPECT_EQ(launchBound(P).Ms, 0);
  P.Devices = {device("cpu", 1, 0, 0)};
  EXPECT_EQ(launchBound(P).Ms, 0);
  P.TotalGroups = 10;
  EXPECT_NEAR(launchBound(P).Ms, 10, 1e-4);
}
