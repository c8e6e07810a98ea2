//===- CpuAtomicsTest.cpp - Atomics on the CPU device vs C++ --------------===//
//
// test/corpus/atomics.cl and atomics64.cl against C++: 32- and 64-bit
// atomics on __local and __global memory. Results that atomics place in a
// timing-dependent order are compared as multisets (anyOrder()).
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <climits>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuAtomics = CpuKernelTest;

TEST_F(CpuAtomics, BinStatisticsThroughTwoLocalArguments) {
  const uint32_t N = 1000, L = 64, G = (N + L - 1) / L;
  const int Bins = 24;
  auto Values = randomInts<int32_t>(N, Rng);
  KernelRun R("atomics", "bin_stats", launch({G, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Values)
      .buffer(std::vector<uint32_t>(Bins))
      .buffer(std::vector<int32_t>(Bins, INT_MAX))
      .buffer(std::vector<int32_t>(Bins, INT_MIN))
      .buffer(std::vector<uint32_t>(Bins))
      .local(2 * Bins * sizeof(uint32_t))
      .local(2 * Bins * sizeof(int32_t))
      .scalar(Bins)
      .scalar(N);
  R.Reference = [&](Args &Out) {
    for (int32_t V : Values) {
      uint32_t B = uint32_t(V) % Bins;
      ++Out.buffer<uint32_t>(1)[B];
      Out.buffer<int32_t>(2)[B] = std::min(Out.buffer<int32_t>(2)[B], V);
      Out.buffer<int32_t>(3)[B] = std::max(Out.buffer<int32_t>(3)[B], V);
      Out.buffer<uint32_t>(4)[B] ^= uint32_t(V);
    }
  };
  check(R);
}

TEST_F(CpuAtomics, CompactionThroughAGlobalCounter) {
  const uint32_t N = 1000, L = 64, G = (N + L - 1) / L;
  const int Threshold = 300;
  auto In = randomInts<int32_t>(N, Rng, -1000, 1000);
  KernelRun R("atomics", "compact", launch({G, 1, 1}, {L, 1, 1}, 1));
  // The kept values in any order, then zeros.
  R.buffer(In)
      .buffer(std::vector<int32_t>(N), anyOrder())
      .buffer(std::vector<uint32_t>(1))
      .scalar(Threshold)
      .scalar(N);
  R.Reference = [&](Args &Out) {
    uint32_t Kept = 0;
    for (int32_t V : In)
      if (V > Threshold)
        Out.buffer<int32_t>(1)[Kept++] = V;
    Out.buffer<uint32_t>(2)[0] = Kept;
  };
  check(R);
}

TEST_F(CpuAtomics, GlobalMinMaxCountersAndMasks) {
  const uint32_t N = 256, L = 32; // 8 mask words of 32 work-items
  auto V = randomInts<int32_t>(N, Rng);
  std::vector<uint32_t> Masks(24, 0);
  std::fill(Masks.begin() + 8, Masks.begin() + 16, ~0u);
  KernelRun R("atomics", "global_rmw", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(V)
      .buffer(std::vector<int32_t>{INT_MAX, INT_MIN})
      .buffer(std::vector<uint32_t>{UINT_MAX, 0})
      .buffer(std::vector<int32_t>(4))
      .buffer(Masks);
  R.Reference = [&](Args &Out) {
    View<int32_t> Ext = Out.buffer<int32_t>(1),
                  Counters = Out.buffer<int32_t>(3);
    View<uint32_t> UExt = Out.buffer<uint32_t>(2), M = Out.buffer<uint32_t>(4);
    for (uint32_t I = 0; I < N; ++I) {
      int32_t X = V[I];
      Ext[0] = std::min(Ext[0], X);
      Ext[1] = std::max(Ext[1], X);
      UExt[0] = std::min(UExt[0], uint32_t(X));
      UExt[1] = std::max(UExt[1], uint32_t(X));
      Counters[0] += X & 0xff;
      Counters[1] -= X & 0xff;
      Counters[2] += 1;
      Counters[3] -= 1;
      uint32_t Bit = 1u << (I % 32);
      if (X & 1)
        M[I / 32] |= Bit;
      if (X % 3 == 0)
        M[8 + I / 32] &= ~Bit;
      M[16 + I % 8] ^= uint32_t(X);
    }
  };
  check(R);
}

TEST_F(CpuAtomics, ExchangeHandsEveryTokenOnOnce) {
  const int Slots = 5, L = 64, G = 5, N = L * G;
  std::vector<int32_t> Pool(Slots + N);
  for (int S = 0; S < Slots; ++S)
    Pool[S] = -100 + S;
  KernelRun R("atomics", "xchg_pool", launch({G, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Pool, anyOrder())
      .buffer(std::vector<int32_t>(G * (L + 1)), anyOrder())
      .scalar(Slots);
  // As multisets: the slots' first values and every token, globally; each
  // group's first value and every token, in __local memory.
  R.Reference = [&](Args &Out) {
    View<int32_t> Global = Out.buffer<int32_t>(0),
                  Local = Out.buffer<int32_t>(1);
    for (int I = 0; I < N; ++I) {
      Global[Slots + I] = 1000 + I;
      Local[I] = 1000 + I;
    }
    for (int Grp = 0; Grp < G; ++Grp)
      Local[N + Grp] = -1 - Grp;
  };
  check(R);
}

TEST_F(CpuAtomics, CompareAndSwapLoops) {
  const uint32_t N = 640, L = 64;
  auto V = randomFloats(N, Rng, -100.0f, 100.0f);
  float Start = -1000.0f;
  int32_t StartBits;
  std::memcpy(&StartBits, &Start, 4);
  KernelRun R("atomics", "cas_loops", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(V)
      .buffer(std::vector<int32_t>(1))
      .buffer(std::vector<int32_t>{StartBits});
  R.Reference = [&](Args &Out) {
    float Max = Start;
    for (uint32_t I = 0; I < N; ++I) {
      Out.buffer<int32_t>(1)[0] += int32_t(I % 7);
      Max = std::max(Max, V[I]);
    }
    std::memcpy(&Out.buffer<int32_t>(2)[0], &Max, 4);
  };
  check(R);
}

TEST_F(CpuAtomics, SixtyFourBitAtomics) {
  const uint32_t N = 512, L = 64;
  auto V = randomInts<int64_t>(N, Rng, -(1 << 20), 1 << 20);
  std::vector<int64_t> Acc = {0, 0, INT64_MAX, INT64_MIN, 0, 0, -1, 0, 0, 1000};
  std::vector<int64_t> Pool(1 + N);
  Pool[0] = -7;
  KernelRun R("atomics64", "atomics64", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(V).buffer(Acc).buffer(Pool, anyOrder()).local(sizeof(int64_t));
  R.Reference = [&](Args &Out) {
    View<int64_t> A = Out.buffer<int64_t>(1);
    for (uint32_t I = 0; I < N; ++I) {
      int64_t X = V[I];
      A[0] += X * X;
      A[1] += 1;
      A[2] = std::min(A[2], X);
      A[3] = std::max(A[3], X);
      A[4] += X * 1048576;
      A[5] += X;
      A[6] &= X;
      A[7] |= X;
      A[8] ^= X;
      A[9] -= 1;
      Out.buffer<int64_t>(2)[1 + I] = X;
    }
  };
  check(R);
}

} // namespace
