//===- NDRangeTest.cpp - The partition-ready kernels' hidden arguments ------===//
#include "devices/NDRange.h"

#include <gtest/gtest.h>

#include <random>

using namespace skmd;

namespace {

void expectExact(uint64_t N, uint64_t D) {
  ASSERT_EQ(divideByMagic(N, divisionMagic(D)), N / D) << N << " / " << D;
}

} // namespace

TEST(NDRange, DivisionByMagicIsExactFor32BitNumerators) {
  // The range form divides flattened group numbers below 2^32 this way
  // (lib/Transforms/PartitionReadyKernel.cpp); a wrong quotient would run
  // the wrong groups. Edges: the largest numerators and divisors, powers of
  // two, and numerators next to multiples of the divisor.
  const uint64_t Max = 0xffffffff;
  for (uint64_t D : {uint64_t(2), uint64_t(3), uint64_t(7), uint64_t(255), uint64_t(256),
                     uint64_t(1000), uint64_t(65536), uint64_t(1) << 31, Max - 1, Max})
    for (uint64_t N : {uint64_t(0), uint64_t(1), D - 1, D, D + 1, Max - 1, Max,
                       Max / D * D, Max / D * D - 1})
      expectExact(N, D);
  std::mt19937_64 Rng(11);
  for (int I = 0; I < 2000000; ++I) {
    // Divisors of every size: a random number of bits, then random bits.
    uint64_t D = std::max<uint64_t>(2, Rng() >> (32 + Rng() % 32));
    uint64_t N = Rng() >> 32;
    expectExact(N, D);
    expectExact(N / D * D, D);
  }
}

TEST(NDRange, PartitionReadyArgumentsCarryTheMagicOfTheRowsAndPlanes) {
  NDRange R;
  R.WorkDim = 3;
  R.NumGroups = {240, 135, 1};
  R.GlobalOffset = {1, 2, 3};
  auto A = partitionReadyArgs(R, 5000);
  EXPECT_EQ(A[0], 5000u);
  EXPECT_EQ(A[1], 240u);
  EXPECT_EQ(A[6], 3u);
  EXPECT_EQ(divideByMagic(5000, A[7]), 5000u / 240);
  EXPECT_EQ(divideByMagic(5000 / 240, A[8]), 5000u / 240 / 135);
  // The kernel's get_work_dim: no launch form records it.
  EXPECT_EQ(A[9], 3u);
  // One group in a dimension: no magic (the kernel uses the row itself).
  R.NumGroups = {1, 1, 64};
  EXPECT_EQ(partitionReadyArgs(R, 0)[7], 0u);
  EXPECT_EQ(partitionReadyArgs(R, 0)[8], 0u);
}

namespace {

/// The flattened real groups a partition-ready kernel runs when launched
/// as \p L, in launch order (x fastest), computed from the launch's grid
/// and hidden words alone, as lib/Transforms/PartitionReadyKernel.cpp maps
/// them: the range form unflattens first + launched, the box form adds its
/// base. Also checks the box form's global ids against the real grid's.
std::vector<uint64_t> groupsRun(const NDRange &R, const RangeLaunch &L) {
  auto W = rangeLaunchArgs(R, L);
  const uint64_t NX = R.NumGroups[0], NY = R.NumGroups[1], NZ = R.NumGroups[2];
  std::vector<uint64_t> Out;
  for (uint64_t Z = 0; Z < L.Grid[2]; ++Z)
    for (uint64_t Y = 0; Y < L.Grid[1]; ++Y)
      for (uint64_t X = 0; X < L.Grid[0]; ++X) {
        uint64_t G[3], Launched[3] = {X, Y, Z};
        if (L.F == RangeLaunch::Box) {
          EXPECT_EQ(W[6], NX);
          EXPECT_EQ(W[8], NZ);
          EXPECT_EQ(W[9], R.WorkDim);
          for (unsigned D = 0; D < 3; ++D) {
            G[D] = Launched[D] + W[D];
            // The last work-item of the group: launched * local size +
            // local id + id base is its global id in the real grid.
            uint64_t Local = R.LocalSize[D] - 1;
            EXPECT_EQ(Launched[D] * R.LocalSize[D] + Local + W[3 + D],
                      G[D] * R.LocalSize[D] + Local + R.GlobalOffset[D]);
          }
        } else {
          EXPECT_EQ(L.Grid[1] * L.Grid[2], 1u);
          uint64_t Flat = W[0] + X;
          uint64_t Rows = NX == 1 ? Flat : divideByMagic(Flat, W[7]);
          uint64_t Planes = NY == 1 ? Rows : divideByMagic(Rows, W[8]);
          G[0] = Flat - Rows * NX, G[1] = Rows - Planes * NY, G[2] = Planes;
        }
        EXPECT_TRUE(G[0] < NX && G[1] < NY && G[2] < NZ)
            << "group (" << G[0] << ", " << G[1] << ", " << G[2] << ") is outside the grid";
        Out.push_back(G[0] + NX * (G[1] + NY * G[2]));
      }
  return Out;
}

/// Splits [First, First + Count) of \p R and checks that the launches run
/// exactly those groups, in order, each within \p Limits; returns them.
std::vector<RangeLaunch> checkSplit(const NDRange &R, uint64_t First, uint64_t Count,
                                    const GridLimits &Limits = {}, bool Boxes = true) {
  auto Launches = splitIntoLaunches(R, First, Count, Boxes, Limits);
  std::vector<uint64_t> Ran;
  for (const RangeLaunch &L : Launches) {
    EXPECT_TRUE(Boxes || L.F == RangeLaunch::Range);
    for (unsigned D = 0; D < 3; ++D)
      EXPECT_TRUE(L.Grid[D] >= 1 && L.Grid[D] <= Limits.Max[D]) << "dimension " << D;
    auto G = groupsRun(R, L);
    EXPECT_EQ(G.front(), L.First);
    Ran.insert(Ran.end(), G.begin(), G.end());
  }
  std::vector<uint64_t> Want(Count);
  for (uint64_t I = 0; I < Count; ++I)
    Want[I] = First + I;
  EXPECT_EQ(Ran, Want) << "groups [" << First << ", " << First + Count << ") of "
                       << R.NumGroups[0] << "x" << R.NumGroups[1] << "x" << R.NumGroups[2];
  return Launches;
}

NDRange grid(uint64_t X, uint64_t Y, uint64_t Z) {
  NDRange R;
  R.WorkDim = Z > 1 ? 3 : Y > 1 ? 2 : 1;
  R.NumGroups = {X, Y, Z};
  R.LocalSize = {16, 4, 2};
  R.GlobalOffset = {3, 5, 7};
  return R;
}

/// first:XxYxZ per launch, with @x,y,z for a box's base.
std::string shape(const std::vector<RangeLaunch> &Launches) {
  std::string S;
  for (const RangeLaunch &L : Launches) {
    S += (S.empty() ? "" : " ") + std::to_string(L.First) + ":" + std::to_string(L.Grid[0]) +
         "x" + std::to_string(L.Grid[1]) + "x" + std::to_string(L.Grid[2]);
    if (L.F == RangeLaunch::Box)
      S += "@" + std::to_string(L.Base[0]) + "," + std::to_string(L.Base[1]) + "," +
           std::to_string(L.Base[2]);
  }
  return S;
}

} // namespace

TEST(NDRange, BoxesTakeA1DOr2DRangeWithoutTheRangeForm) {
  NDRange R = grid(10, 6, 1);
  // A partial row, rows 1-3, a partial row: three boxes.
  EXPECT_EQ(shape(checkSplit(R, 7, 40)), "7:3x1x1@7,0,0 10:10x3x1@0,1,0 40:7x1x1@0,4,0");
  // Whole rows alone: one box.
  EXPECT_EQ(shape(checkSplit(R, 20, 30)), "20:10x3x1@0,2,0");
  EXPECT_EQ(shape(checkSplit(R, 0, 60)), "0:10x6x1@0,0,0");
  EXPECT_EQ(shape(checkSplit(R, 10, 10)), "10:10x1x1@0,1,0");
  EXPECT_EQ(shape(checkSplit(R, 5, 20)), "5:5x1x1@5,0,0 10:10x1x1@0,1,0 20:5x1x1@0,2,0");
  // No whole row: a box for each partial row.
  EXPECT_EQ(shape(checkSplit(R, 12, 5)), "12:5x1x1@2,1,0");
  EXPECT_EQ(shape(checkSplit(R, 15, 10)), "15:5x1x1@5,1,0 20:5x1x1@0,2,0");
  EXPECT_TRUE(checkSplit(R, 30, 0).empty());
  // A 1-D grid is one box.
  EXPECT_EQ(shape(checkSplit(grid(1000, 1, 1), 123, 456)), "123:456x1x1@123,0,0");
  // Without the box form (older bundles), the range form alone.
  EXPECT_EQ(shape(checkSplit(R, 7, 40, {}, false)), "7:40x1x1");
}

TEST(NDRange, BoxesTakeWholePlanesOrTheRowsOfOnePlaneIn3D) {
  NDRange R = grid(4, 5, 6); // 20 groups a plane.
  // Whole planes 1-2 as a box; before and after them rows of two planes,
  // in the range form: at most three launches.
  EXPECT_EQ(shape(checkSplit(R, 14, 55)), "14:6x1x1 20:4x5x2@0,0,1 60:9x1x1");
  EXPECT_EQ(shape(checkSplit(R, 4, 40)), "4:16x1x1 20:4x5x1@0,0,1 40:4x1x1@0,0,2");
  // Rows inside one plane.
  EXPECT_EQ(shape(checkSplit(R, 25, 13)), "25:3x1x1@1,1,1 28:4x2x1@0,2,1 36:2x1x1@0,4,1");
  // No whole plane: the larger run of rows, here the first plane's.
  EXPECT_EQ(shape(checkSplit(R, 4, 20)), "4:4x4x1@0,1,0 20:4x1x1@0,0,1");
  EXPECT_EQ(shape(checkSplit(R, 15, 21)), "15:5x1x1 20:4x4x1@0,0,1");
  EXPECT_EQ(shape(checkSplit(R, 0, 120)), "0:4x5x6@0,0,0");
  // One row a plane: planes are boxes too.
  EXPECT_EQ(shape(checkSplit(grid(8, 1, 10), 3, 47)), "3:5x1x1@3,0,0 8:8x1x5@0,0,1 48:2x1x1@0,0,6");
}

TEST(NDRange, BoxesStayWithinTheGridLimits) {
  GridLimits Small;
  Small.Max = {100, 2, 2};
  // Three rows in boxes of at most two.
  EXPECT_EQ(shape(checkSplit(grid(10, 6, 1), 7, 40, Small)),
            "7:3x1x1@7,0,0 10:10x2x1@0,1,0 30:10x1x1@0,3,0 40:7x1x1@0,4,0");
  // Planes of more rows than a launch may have are no box; the rows of one
  // plane are.
  EXPECT_EQ(shape(checkSplit(grid(2, 3, 4), 0, 24, Small)), "0:24x1x1");
  EXPECT_EQ(shape(checkSplit(grid(2, 3, 4), 2, 9, Small)), "2:2x2x1@0,1,0 6:5x1x1");
  // Too wide a grid for a box: range-form launches of at most the limit.
  Small.Max = {5, 65535, 65535};
  EXPECT_EQ(shape(checkSplit(grid(10, 6, 1), 7, 13, Small)), "7:5x1x1 12:5x1x1 17:3x1x1");
  EXPECT_EQ(shape(checkSplit(grid(100, 1, 1), 7, 13, Small)),
            "7:5x1x1@7,0,0 12:5x1x1@12,0,0 17:3x1x1@17,0,0");
}

TEST(NDRange, LaunchesRunEveryRangeExactlyOnce) {
  std::mt19937_64 Rng(22);
  for (int I = 0; I < 20000 && !testing::Test::HasFailure(); ++I) {
    NDRange R = grid(1 + Rng() % 9, 1 + Rng() % 7, 1 + Rng() % 5);
    uint64_t Total = R.totalGroups();
    uint64_t First = Rng() % (Total + 1), Count = Rng() % (Total - First + 1);
    // Within CUDA's limits, at most three launches, and in 1-D and 2-D
    // every one a box.
    auto Launches = checkSplit(R, First, Count);
    EXPECT_LE(Launches.size(), 3u);
    if (R.NumGroups[2] == 1)
      for (const RangeLaunch &L : Launches)
        EXPECT_EQ(L.F, RangeLaunch::Box) << shape(Launches);
    GridLimits Small;
    Small.Max = {1 + Rng() % 12, 1 + Rng() % 4, 1 + Rng() % 4};
    checkSplit(R, First, Count, Small);
    checkSplit(R, First, Count, Small, false);
  }
}
