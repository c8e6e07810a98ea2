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
  // One group in a dimension: no magic (the kernel uses the row itself).
  R.NumGroups = {1, 1, 64};
  EXPECT_EQ(partitionReadyArgs(R, 0)[7], 0u);
  EXPECT_EQ(partitionReadyArgs(R, 0)[8], 0u);
}
