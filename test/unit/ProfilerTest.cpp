//===- ProfilerTest.cpp - Dry runs into the profile database --------------===//
#include "session/Devices.h"
#include "common/KernelHarness.h"
#include "model/Profiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace skmd;

namespace {

TEST(Profiler, CountsGrowByFourThenDouble) {
  EXPECT_EQ(profileCounts(100), (std::vector<uint64_t>{4, 8, 12, 16, 32, 64, 100}));
  EXPECT_EQ(profileCounts(17), (std::vector<uint64_t>{4, 8, 12, 16, 17}));
  // Launches of at most 16 groups: quarters of the range.
  EXPECT_EQ(profileCounts(16), (std::vector<uint64_t>{4, 8, 12, 16}));
  EXPECT_EQ(profileCounts(10), (std::vector<uint64_t>{3, 5, 8, 10}));
  EXPECT_EQ(profileCounts(3), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(profileCounts(1), (std::vector<uint64_t>{1}));
}

// A launch's shape is the profile database's key: its text must stay as
// the rows already kept have it.
TEST(Profiler, TheShapesTextIsTheDatabasesKey) {
  KernelInfo K;
  K.Name = "k";
  KernelArg In, Out, N;
  In.Kind = Out.Kind = ArgKind::GlobalBuffer;
  N.Kind = ArgKind::Scalar;
  N.TypeName = "int";
  N.Size = 4;
  K.Args = {In, Out, N};
  HostArg A, B, C;
  A.K = B.K = HostArg::Buffer;
  A.Bytes = 4096;
  B.Bytes = 8192;
  C.K = HostArg::Scalar;
  int32_t Value = -7;
  C.Value.resize(4);
  std::memcpy(C.Value.data(), &Value, 4);
  NDRange R;
  R.NumGroups = {16, 2, 1};
  R.LocalSize = {64, 1, 1};
  LaunchShape S = launchShape(K, {A, B, C}, R);
  EXPECT_EQ(S.Text, "buffers=4096,8192;scalars=-7;groups=16x2x1;local=64x1x1");
  EXPECT_EQ(S.TotalGroups, 32u);
  EXPECT_EQ(S.Vars, (std::vector<double>{0.012288, -7, 2048}));
}

TEST(Profiler, DryRunsFillTheDatabaseAndAModelFits) {
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  std::vector<Device *> Raw;
  for (auto &D : Opened->Devices)
    Raw.push_back(D.get());
  Launcher Run(Raw, *Opened->Cpu);
  test::VectorAddLaunch V(300);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  LoadedKernel &K = V.Kernel;
  const Bundle *B = V.Kernel.Source;
  const uint32_t N = 64 * 300;
  std::vector<float> &C = V.C;
  std::vector<HostArg> &Args = V.Args;
  NDRange &Range = V.Range;

  // A dry run computes its groups only, through the device's copies.
  PieceReport P;
  ASSERT_TRUE(Run.profile(K, Args, Range, 1, 10, P).ok());
  EXPECT_EQ(P.Device, "discrete0");
  EXPECT_EQ(C[10 * 64 - 1], 3.0f);
  EXPECT_EQ(C[10 * 64], 0.0f);

  std::string Path = ::testing::TempDir() + "skmd-profiler-" + std::to_string(getpid()) +
                     ".sqlite";
  std::remove(Path.c_str());
  auto Db = ProfileDatabase::open(Path);
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  std::vector<std::string> Lines;
  ProfileOptions O;
  O.Progress = [&](const std::string &L) { Lines.push_back(L); };
  for (unsigned D = 0; D < Raw.size(); ++D)
    ASSERT_TRUE(profileDevice(Run, K, Args, Range, D, Raw[D]->info(), **Db, O).ok());
  EXPECT_EQ(C[N - 1], 3.0f); // The last count is the whole launch.

  std::vector<uint64_t> Counts = profileCounts(300);
  ASSERT_EQ(Lines.size(), 2 * Counts.size());
  EXPECT_NE(Lines.front().find("cpu: 4 of 300 groups"), std::string::npos) << Lines.front();
  for (Device *D : Raw) {
    auto Rows = (*Db)->rows(kernelKey(B->metadata(), *K.Info), deviceKey(D->info()));
    ASSERT_TRUE(Rows.ok());
    ASSERT_EQ(Rows->size(), Counts.size());
    for (size_t I = 0; I < Counts.size(); ++I) {
      EXPECT_EQ((*Rows)[I].Groups, Counts[I]);
      EXPECT_TRUE(std::isfinite((*Rows)[I].KernelMs) && (*Rows)[I].KernelMs >= 0);
      // Three buffers of N floats, the scalar n, the work-items.
      EXPECT_EQ((*Rows)[I].Vars, (std::vector<double>{3.0 * N * 4 / 1e6, N, N}));
    }
    // Only the discrete device copies.
    EXPECT_EQ((*Rows).back().BytesIn > 0, D->info().Name == "discrete0");
    auto M = fitKernelModel(*Rows);
    ASSERT_TRUE(M.ok()) << M.error().message();
    EXPECT_TRUE(std::isfinite(M->predict(300, Rows->front().Vars)));
  }
  std::remove(Path.c_str());
}

} // namespace
