//===- CpuWorkGroupTest.cpp - Kernels on the CPU device vs C++ ------------===//
//
// The first corpus kernels (examples/ and test/corpus/) on the CPU device,
// through test/common/KernelHarness.h, and the runner's refusals. The other
// Cpu*Test.cpp files hold the rest of the corpus, by theme.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/SharedObject.h"

#include <cstring>

#include <climits>
#include <cmath>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuDevice = CpuKernelTest;

TEST_F(CpuDevice, VectorAddWithATail) {
  const uint32_t N = 10000;
  auto A = randomFloats(N, Rng), B = randomFloats(N, Rng);
  KernelRun R("vector_add", "vector_add",
              launch({(N + 63) / 64, 1, 1}, {64, 1, 1}, 1));
  R.buffer(A).buffer(B).buffer(std::vector<float>(N)).scalar(N);
  R.Reference = [&](Args &Out) {
    View<float> C = Out.buffer<float>(2);
    for (uint32_t I = 0; I < N; ++I)
      C[I] = A[I] + B[I];
  };
  check(R);
}

TEST_F(CpuDevice, TiledMatmulWithBarriersInALoop) {
  const int N = 64;
  // Dyadic inputs: every product and partial sum is exact, so the result
  // does not depend on the order of the sum or on fused multiply-adds.
  auto A = dyadicFloats(N * N, Rng), B = dyadicFloats(N * N, Rng);
  KernelRun R("matmul_tiled", "matmul_tiled",
              launch({4, 4, 1}, {16, 16, 1}, 2));
  R.buffer(A).buffer(B).buffer(std::vector<float>(N * N)).scalar(N);
  R.Reference = [&](Args &Out) {
    View<float> C = Out.buffer<float>(2);
    for (int Row = 0; Row < N; ++Row)
      for (int Col = 0; Col < N; ++Col) {
        float Acc = 0;
        for (int K = 0; K < N; ++K)
          Acc += A[Row * N + K] * B[K * N + Col];
        C[Row * N + Col] = Acc;
      }
  };
  check(R);
}

TEST_F(CpuDevice, ReductionThroughALocalArgument) {
  const uint32_t N = 1000, L = 64, G = (N + L - 1) / L;
  auto In = randomFloats(N, Rng);
  KernelRun R("reduction", "reduce_sum", launch({G, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<float>(G)).local(L * sizeof(float)).scalar(N);
  // The same tree of additions as the kernel's, so bit for bit.
  R.Reference = [&](Args &Out) {
    for (uint32_t Group = 0; Group < G; ++Group) {
      std::vector<float> S(L);
      for (uint32_t I = 0; I < L; ++I)
        S[I] = Group * L + I < N ? In[Group * L + I] : 0.0f;
      for (uint32_t Step = L / 2; Step > 0; Step >>= 1)
        for (uint32_t I = 0; I < Step; ++I)
          S[I] += S[I + Step];
      Out.buffer<float>(1)[Group] = S[0];
    }
  };
  check(R);
}

TEST_F(CpuDevice, TransposeThroughALocalTile) {
  const int W = 64, H = 48;
  auto In = randomFloats(W * H, Rng);
  KernelRun R("transpose", "transpose",
              launch({W / 16, H / 16, 1}, {16, 16, 1}, 2));
  R.buffer(In).buffer(std::vector<float>(W * H)).scalar(W).scalar(H);
  R.Reference = [&](Args &Out) {
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        Out.buffer<float>(1)[X * H + Y] = In[Y * W + X];
  };
  check(R);
}

TEST_F(CpuDevice, StencilWithAHaloLoop) {
  const uint32_t N = 4096;
  const int Radius = 2;
  auto In = randomFloats(N + 2 * Radius, Rng);
  KernelRun R("stencil", "blur_radius",
              launch({N / 128, 1, 1}, {128, 1, 1}, 1));
  // The sum is the kernel's, in its order; the division may be off by 2.5
  // ulp (OpenCL's bound without -cl-fp32-correctly-rounded-divide-sqrt).
  R.buffer(In).buffer(std::vector<float>(N), ulps(2.5)).scalar(Radius);
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      float S = 0;
      for (int K = 0; K <= 2 * Radius; ++K)
        S += In[I + K];
      Out.buffer<float>(1)[I] = float(double(S) / (2 * Radius + 1));
    }
  };
  check(R);
}

TEST_F(CpuDevice, ThreeDimensionalWithOffsets) {
  // out[linear id] = linear id, over a 3-D range with a global offset.
  KernelRun R("volume", "number", launch({3, 2, 2}, {4, 2, 2}, 3, {5, 7, 1}));
  R.buffer(std::vector<uint32_t>(12 * 4 * 4, ~0u));
  R.Reference = [&](Args &Out) {
    View<uint32_t> V = Out.buffer<uint32_t>(0);
    for (uint32_t I = 0; I < V.size(); ++I)
      V[I] = I;
  };
  check(R);
}

TEST_F(CpuDevice, LoopsOverRows) {
  const int Rows = 96, Cols = 37;
  auto M = randomFloats(Rows * Cols, Rng);
  KernelRun R("rows", "row_sum", launch({Rows / 32, 1, 1}, {32, 1, 1}, 1));
  // Each work-item adds its row in order, as the reference does: exact.
  R.buffer(M).buffer(std::vector<float>(Rows)).scalar(Cols);
  R.Reference = [&](Args &Out) {
    for (int Row = 0; Row < Rows; ++Row) {
      float S = 0;
      for (int C = 0; C < Cols; ++C)
        S += M[Row * Cols + C];
      Out.buffer<float>(1)[Row] = S;
    }
  };
  check(R);
}

TEST_F(CpuDevice, Float4MathThroughTheBuiltinsLibrary) {
  // exp, sin, cos, sqrt, fabs, fma, mix and clamp on float4, from SKMD's
  // x86 builtins (and glibc's vector math), against double precision.
  const uint32_t N = 4096; // float4 elements
  const float Decay = 0.7f, Omega = 3.1f;
  auto T = randomFloats(4 * N, Rng), Phase = randomFloats(4 * N, Rng);
  KernelRun R("float4_math", "damped_wave",
              launch({N / 64, 1, 1}, {64, 1, 1}, 1));
  // Ten or so float operations on values below 4 in magnitude, each within
  // its ulp bound: a first-order error analysis gives under 3e-6 absolute
  // on results in [-1, 1].
  R.buffer(T)
      .buffer(Phase)
      .buffer(std::vector<float>(4 * N), absolute(1e-5))
      .scalar(Decay)
      .scalar(Omega);
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < 4 * N; ++I) {
      double X = T[I], P = Phase[I];
      double Env = std::exp(-double(Decay) * X);
      double Wave =
          std::sin(double(Omega) * X + P) + 0.5 * std::cos(double(Omega) * X);
      double Res = Env * Wave + std::sqrt(std::fabs(Wave)) * 0.01;
      double Mixed = Res + (Wave - Res) * 0.25;
      Out.buffer<float>(2)[I] = float(std::min(1.0, std::max(-1.0, Mixed)));
    }
  };
  check(R);
}

TEST_F(CpuDevice, IntegerBuiltins) {
  const uint32_t N = 1024;
  auto A = randomInts<int32_t>(N, Rng), B = randomInts<int32_t>(N, Rng);
  for (uint32_t I = 0; I < N; ++I) {
    if (I % 7 == 0)
      A[I] = INT32_MIN + int32_t(I);
    if (I % 11 == 0)
      B[I] = INT32_MAX - int32_t(I);
  }
  KernelRun R("builtins_mix", "integers",
              launch({N / 64, 1, 1}, {64, 1, 1}, 1));
  R.buffer(A).buffer(B).buffer(std::vector<int32_t>(8 * N));
  R.Reference = [&](Args &Out) {
    auto Sat = [](int64_t V) {
      return int32_t(
          std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, V)));
    };
    View<int32_t> O = Out.buffer<int32_t>(2);
    for (uint32_t I = 0; I < N; ++I) {
      int64_t X = A[I], Y = B[I];
      O[8 * I + 0] =
          int32_t(uint32_t(std::min(X, Y)) + uint32_t(std::max(X, Y)));
      O[8 * I + 1] =
          int32_t(std::min<int64_t>(100, std::max<int64_t>(-100, X)));
      O[8 * I + 2] =
          int32_t(uint32_t(X < 0 ? -X : X) ^ uint32_t(X > Y ? X - Y : Y - X));
      O[8 * I + 3] = Sat(X + Y) ^ Sat(X - Y);
      O[8 * I + 4] =
          int32_t(uint32_t((X + Y) >> 1) + uint32_t((X + Y + 1) >> 1));
      O[8 * I + 5] = __builtin_popcount(uint32_t(X)) +
                     (Y == 0 ? 32 : __builtin_clz(uint32_t(Y))) * 64;
      uint32_t Rot = uint32_t(Y) & 31, UX = uint32_t(X);
      O[8 * I + 6] =
          int32_t((Rot ? (UX << Rot) | (UX >> (32 - Rot)) : UX) ^
                  ((uint32_t(X) & 0xffff) * (uint32_t(Y) & 0xfff) + 7));
      O[8 * I + 7] = int32_t(uint32_t(X < Y ? Y : X) + ((X & 1) ? 9u : 7u));
    }
  };
  check(R);
}

TEST_F(CpuDevice, VectorLoadsStoresAndRelationals) {
  const uint32_t N = 512; // float4 elements
  std::vector<float> In = randomFloats(4 * N + 4, Rng);
  for (uint32_t I = 0; I < In.size(); I += 37)
    In[I] = I % 2 ? NAN : -INFINITY;
  KernelRun R("builtins_mix", "vectors", launch({N / 32, 1, 1}, {32, 1, 1}, 1));
  R.buffer(In)
      .buffer(std::vector<float>(4 * N))
      .buffer(std::vector<int32_t>(N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      for (int L = 0; L < 4; ++L) {
        float V = In[4 * I + L];
        Out.buffer<float>(1)[4 * I + L] = V < 0 ? -V : V;
      }
      float VX = In[4 * I], VY = In[4 * I + 1], VW = In[4 * I + 3];
      float TZ = In[3 * I + 2];
      Out.buffer<int32_t>(2)[I] =
          int(std::isnan(VX)) + 2 * int(std::isinf(VY)) +
          4 * int(std::signbit(TZ)) + 8 * int(VW > 0.5f);
    }
  };
  check(R);
}

TEST_F(CpuDevice, HistogramWithLocalAndGlobalAtomics) {
  const uint32_t N = 1000, L = 64;
  auto Data = randomInts<uint32_t>(N, Rng, 0, 1 << 20);
  KernelRun R("builtins_mix", "histogram",
              launch({(N + L - 1) / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Data).buffer(std::vector<uint32_t>(16)).scalar(N);
  R.Reference = [&](Args &Out) {
    for (uint32_t D : Data)
      ++Out.buffer<uint32_t>(1)[D % 16];
  };
  check(R);
}

// Guards that hold for some items of a group and not others, or wrap,
// must take the work-item loop that tests every item (versioning decides
// per row); groups away from the edges take the copy without the tests.
TEST_F(CpuDevice, SobelBordersWithPartialGroups) {
  const uint32_t W = 37, H = 21;
  auto In = dyadicFloats(W * H, Rng);
  KernelRun R("guards", "border_2d",
              launch({(W + 7) / 8, (H + 3) / 4, 1}, {8, 4, 1}, 2));
  R.buffer(In).buffer(std::vector<float>(W * H)).scalar(W).scalar(H);
  R.Reference = [&](Args &Out) {
    View<float> O = Out.buffer<float>(1);
    for (uint32_t Y = 0; Y < H; ++Y)
      for (uint32_t X = 0; X < W; ++X) {
        uint32_t At = Y * W + X;
        O[At] = X == 0 || Y == 0 || X == W - 1 || Y == H - 1
                    ? -1.0f
                    : In[At - 1] + In[At + 1] + In[At - W] + In[At + W];
      }
  };
  check(R);
}

TEST_F(CpuDevice, GuardOnAnIdThatWrapsInsideAGroup) {
  // x runs 0xFFFFFFE0..0xFFFFFFFF, 0..31 in group 0: x < limit is true at
  // both ends of the group and false in the middle.
  const uint32_t N = 256, Start = 0xFFFFFFE0u, Limit = 0xFFFFFFF0u;
  KernelRun R("guards", "wrapping_id", launch({N / 64, 1, 1}, {64, 1, 1}, 1));
  R.buffer(std::vector<uint32_t>(N, 2)).scalar(Start).scalar(Limit);
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I)
      if (uint32_t(Start + I) < Limit)
        Out.buffer<uint32_t>(0)[I] = 1;
  };
  check(R);
}

TEST_F(CpuDevice, SignedWindowGuard) {
  const int N = 256, Shift = 40, Width = 150;
  KernelRun R("guards", "signed_window", launch({N / 64, 1, 1}, {64, 1, 1}, 1));
  R.buffer(std::vector<int32_t>(N, -7)).scalar(Shift).scalar(Width);
  R.Reference = [&](Args &Out) {
    for (int I = 0; I < N; ++I)
      if (int X = I - Shift; X >= 0 && X < Width)
        Out.buffer<int32_t>(0)[I] = X;
  };
  check(R);
}

TEST_F(CpuDevice, StridedInequalityAnd64BitGuards) {
  const uint32_t N = 320, Limit = 500, Skip = 77;
  const uint64_t Bound = 1000;
  KernelRun R("guards", "strided", launch({N / 32, 1, 1}, {32, 1, 1}, 1));
  R.buffer(std::vector<uint32_t>(N)).buffer(std::vector<uint32_t>(N));
  R.buffer(std::vector<uint32_t>(N)).scalar(Limit).scalar(Bound).scalar(Skip);
  R.Reference = [&](Args &Out) {
    for (uint64_t I = 0; I < N; ++I) {
      Out.buffer<uint32_t>(0)[I] = 3 * I < Limit ? 1 : 0;
      Out.buffer<uint32_t>(1)[I] = I != Skip ? 10 : 0;
      Out.buffer<uint32_t>(2)[I] = I * 5 + 2 <= Bound ? 100 : 0;
    }
  };
  check(R);
}

// Large host copies go over the device's threads in chunks; every byte
// lands, including a tail shorter than a chunk.
TEST(CpuDeviceCopies, LargeHostCopiesAreWhole) {
  auto Cpu = skmd::CpuDevice::create(3);
  for (uint64_t Bytes : {uint64_t(1000), uint64_t(8 << 20) + 13, uint64_t(21 << 20) + 1}) {
    std::vector<uint8_t> From(Bytes), To(Bytes, 0);
    for (uint64_t I = 0; I < Bytes; ++I)
      From[I] = uint8_t(I * 131 + (I >> 20));
    Cpu->copyHost(To.data(), From.data(), Bytes);
    ASSERT_EQ(std::memcmp(To.data(), From.data(), Bytes), 0) << Bytes;
  }
}

// The host memory probes (batch/Machine.h) read and fill every byte, at
// any alignment, a tail shorter than a chunk included.
TEST(CpuDeviceCopies, HostReadsAndFillsCoverEveryByte) {
  auto Cpu = skmd::CpuDevice::create(3);
  const uint64_t Bytes = (5 << 20) + 13;
  std::vector<uint8_t> Memory(Bytes + 8, 0);
  uint8_t *At = Memory.data() + 3; // not aligned
  EXPECT_EQ(Cpu->readHost(At, Bytes), 0u);
  for (uint64_t P : {uint64_t(0), uint64_t(4), uint64_t(2 << 20) + 5, Bytes - 1}) {
    At[P] = 1;
    EXPECT_NE(Cpu->readHost(At, Bytes), 0u) << P;
    At[P] = 0;
  }
  Cpu->fillHost(At, 7, Bytes);
  EXPECT_EQ(std::count(At, At + Bytes, 7), int64_t(Bytes));
  EXPECT_EQ(Memory[2], 0);
  EXPECT_EQ(At[Bytes], 0);
}

TEST(CpuDeviceErrors, BadLaunchesAreRefused) {
  ThreadPool Pool(2);
  auto Fn = [](void *const *, const skmd_wg_ctx *) {};
  NDRange L;
  L.NumGroups = {4, 1, 1};
  L.LocalSize = {8, 1, 1};
  Status S = runWorkGroups(Pool, Fn, {}, {}, L, {}, 3, 2);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("outside the 4 groups"),
            std::string::npos);
  L.LocalSize = {0, 1, 1};
  EXPECT_FALSE(runWorkGroups(Pool, Fn, {}, {}, L, {}, 0, 1).ok());
  L.LocalSize = {8, 1, 1};
  S = runWorkGroups(Pool, Fn, {nullptr}, {0}, L, {}, 0, 1);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("argument 0 is not set"),
            std::string::npos);
  EXPECT_FALSE(SharedObject::load("not an ELF file").ok());
}

} // namespace
