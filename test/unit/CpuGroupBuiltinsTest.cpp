//===- CpuGroupBuiltinsTest.cpp - Group copies, shuffles, C11 atomics ------===//
//
// test/corpus/group_builtins.cl on the CPU device against C++ references:
// builtins whose x86 versions lean on the work-group function (async copies
// shared among work-items, completed by a barrier) or on real atomics
// between the threads running different groups.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

using namespace skmd;
using namespace skmd::test;

namespace {

using GroupBuiltins = CpuKernelTest;

TEST_F(GroupBuiltins, AsyncCopiesStageAndWriteBackTiles) {
  const uint64_t Groups = 37, Local = 64;
  KernelRun R("group_builtins", "staged_reverse",
              launch({Groups, 1, 1}, {Local, 1, 1}, 1));
  R.buffer(randomInts<int32_t>(Groups * Local, Rng, -1000, 1000))
      .buffer(std::vector<int32_t>(2 * Groups * Local, 7));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<int32_t>(0);
    auto Out = A.buffer<int32_t>(1);
    for (uint64_t G = 0; G < Groups; ++G)
      for (uint64_t L = 0; L < Local; ++L)
        Out[2 * G * Local + 2 * L] = In[G * Local + Local - 1 - L] * 2;
  };
  check(R);
}

TEST_F(GroupBuiltins, ShuffleAndShuffle2) {
  const uint64_t N = 256;
  KernelRun R("group_builtins", "shuffles", launch({N / 16, 1, 1}, {16, 1, 1}, 1));
  R.buffer(randomInts<int32_t>(4 * N, Rng))
      .buffer(randomFloats(8 * N, Rng))
      .buffer(randomInts<uint32_t>(4 * N, Rng)) // Only the low bits count.
      .buffer(std::vector<int32_t>(4 * N))
      .buffer(std::vector<float>(4 * N));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<int32_t>(0);
    auto B = A.buffer<float>(1);
    auto Mask = A.buffer<uint32_t>(2);
    auto S1 = A.buffer<int32_t>(3);
    auto S2 = A.buffer<float>(4);
    for (uint64_t I = 0; I < N; ++I)
      for (int Lane = 0; Lane < 4; ++Lane) {
        uint32_t M = Mask[4 * I + Lane];
        S1[4 * I + Lane] = In[4 * I + M % 4];
        // shuffle2 of (b.lo, b.hi): lanes 0-7 of b, by (mask * 3) % 8.
        S2[4 * I + Lane] = B[8 * I + (M * 3u) % 8];
      }
  };
  check(R);
}

TEST_F(GroupBuiltins, C11AtomicsInLocalAndGlobalMemory) {
  const uint64_t Groups = 53, Local = 32;
  std::vector<int32_t> In = randomInts<int32_t>(Groups * Local, Rng, -500, 500);
  KernelRun R("group_builtins", "c11_counters",
              launch({Groups, 1, 1}, {Local, 1, 1}, 1));
  R.buffer(In)
      .buffer(std::vector<int32_t>(Groups))
      .buffer(std::vector<int32_t>{0})
      .buffer(std::vector<int32_t>{INT32_MIN})
      .buffer(std::vector<int64_t>{0});
  R.Reference = [&](Args &A) {
    auto Src = A.buffer<int32_t>(0);
    auto PerGroup = A.buffer<int32_t>(1);
    int32_t Sum = 0, Max = INT32_MIN;
    int64_t Total = 0;
    for (uint64_t G = 0; G < Groups; ++G) {
      int32_t Positive = 0;
      for (uint64_t L = 0; L < Local; ++L) {
        int32_t X = Src[G * Local + L];
        Positive += X > 0;
        Sum += X;
        Max = std::max(Max, X);
        Total += int64_t(X) * 100000;
      }
      PerGroup[G] = -Positive;
    }
    A.buffer<int32_t>(2)[0] = Sum;
    A.buffer<int32_t>(3)[0] = Max;
    A.buffer<int64_t>(4)[0] = Total;
  };
  check(R);
}

} // namespace
