//===- CpuWorkGroupTest.cpp - Kernels on the CPU device vs C++ -------------===//
//
// Runs corpus kernels' x86 work-group functions, over the whole range and
// over random splits run in random order, and compares with C++ references.
// The bundles are compiled by skmd-cc at build time.
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "common/RandomSplit.h"
#include "devices/cpu/SharedObject.h"
#include "devices/cpu/WorkGroupRunner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <functional>
#include <climits>
#include <cstdint>
#include <random>

using namespace skmd;

namespace {

/// One kernel run: buffers (as floats or ints), scalar values, a launch,
/// and what the outputs must be.
struct KernelRun {
  std::string Bundle, Kernel;
  CpuLaunch Launch;
  std::vector<std::vector<float>> Buffers;      ///< By argument index.
  std::vector<uint64_t> LocalBytes;             ///< By argument index.
  std::vector<std::array<uint8_t, 8>> Scalars;  ///< By argument index.
  std::function<void(std::vector<std::vector<float>> &)> Reference;
  float Tolerance = 0; ///< Relative; 0 means bit for bit.
};

template <typename T> std::array<uint8_t, 8> scalar(T V) {
  std::array<uint8_t, 8> S{};
  std::memcpy(S.data(), &V, sizeof(T));
  return S;
}

std::vector<float> randomFloats(size_t N, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> D(-1.0f, 1.0f);
  std::vector<float> V(N);
  for (float &X : V)
    X = D(Rng);
  return V;
}

class CpuDevice : public ::testing::Test {
protected:
  ThreadPool Pool{4};
  std::mt19937 Rng{7};

  /// Runs groups [First, First+Count) of R on Buffers.
  void runRange(const KernelRun &R, std::vector<std::vector<float>> &Buffers,
                const KernelInfo &K, skmd_wg_fn Fn, uint64_t First,
                uint64_t Count) {
    std::vector<void *> Args(K.Args.size(), nullptr);
    std::vector<void *> BufferPtrs(K.Args.size(), nullptr);
    std::vector<std::array<uint8_t, 8>> Scalars = R.Scalars;
    Scalars.resize(K.Args.size());
    for (size_t I = 0; I < K.Args.size(); ++I) {
      if (R.LocalBytes.size() > I && R.LocalBytes[I])
        continue;
      if (K.Args[I].Kind == ArgKind::Scalar) {
        Args[I] = Scalars[I].data();
      } else {
        BufferPtrs[I] = Buffers[I].data();
        Args[I] = &BufferPtrs[I];
      }
    }
    std::vector<uint64_t> Local = R.LocalBytes;
    Local.resize(K.Args.size(), 0);
    Status S = runWorkGroups(Pool, Fn, Args, Local, R.Launch,
                             {K.Cpu.LocalMemBytes, K.Cpu.StateBytesPerItem},
                             First, Count);
    ASSERT_TRUE(S.ok()) << S.error().message();
  }

  void expectMatches(const KernelRun &R, const std::vector<std::vector<float>> &Got,
                     const std::vector<std::vector<float>> &Want,
                     const std::string &How) {
    for (size_t B = 0; B < Want.size(); ++B)
      for (size_t I = 0; I < Want[B].size(); ++I) {
        float W = Want[B][I], G = Got[B][I];
        bool Ok = R.Tolerance == 0
                      ? std::memcmp(&W, &G, sizeof(float)) == 0
                      : std::fabs(W - G) <= R.Tolerance * std::max(1.0f, std::fabs(W));
        ASSERT_TRUE(Ok) << R.Kernel << " (" << How << "): buffer " << B
                        << "[" << I << "] is " << G << ", expected " << W;
      }
  }

  void check(const KernelRun &R) {
    auto B = Bundle::fromFile(std::string(SKMD_CORPUS_DIR) + "/" + R.Bundle + ".skmd");
    ASSERT_TRUE(B.ok()) << B.error().message();
    const KernelInfo *K = B->metadata().findKernel(R.Kernel);
    ASSERT_NE(K, nullptr);
    auto Lib = SharedObject::load(B->variant(TargetKind::X86));
    ASSERT_TRUE(Lib.ok()) << Lib.error().message();
    auto Sym = Lib->symbol(K->Symbols.at(TargetKind::X86).Kernel);
    ASSERT_TRUE(Sym.ok()) << Sym.error().message();
    auto Fn = reinterpret_cast<skmd_wg_fn>(*Sym);

    std::vector<std::vector<float>> Want = R.Buffers;
    R.Reference(Want);
    uint64_t Total = R.Launch.NumGroups[0] * R.Launch.NumGroups[1] *
                     R.Launch.NumGroups[2];

    std::vector<std::vector<float>> Whole = R.Buffers;
    runRange(R, Whole, *K, Fn, 0, Total);
    expectMatches(R, Whole, Want, "whole range");

    for (int Trial = 0; Trial < 3; ++Trial) {
      auto Pieces = test::randomPieces(Total, 4, Rng);
      std::vector<std::vector<float>> Split = R.Buffers;
      for (auto [First, Count] : Pieces)
        runRange(R, Split, *K, Fn, First, Count);
      expectMatches(R, Split, Want, std::to_string(Pieces.size()) + " pieces");
    }
  }
};

CpuLaunch launch(std::array<uint64_t, 3> Groups, std::array<uint64_t, 3> Local,
                 uint32_t Dims, std::array<uint64_t, 3> Offset = {0, 0, 0}) {
  CpuLaunch L;
  L.NumGroups = Groups;
  L.LocalSize = Local;
  L.WorkDim = Dims;
  L.GlobalOffset = Offset;
  return L;
}

TEST_F(CpuDevice, VectorAddWithATail) {
  const uint32_t N = 10000;
  KernelRun R{"vector_add", "vector_add", launch({(N + 63) / 64, 1, 1}, {64, 1, 1}, 1),
        {randomFloats(N, Rng), randomFloats(N, Rng), std::vector<float>(N, 0)},
        {}, {{}, {}, {}, scalar(N)},
        [&](auto &B) {
          for (uint32_t I = 0; I < N; ++I)
            B[2][I] = B[0][I] + B[1][I];
        }};
  check(R);
}

TEST_F(CpuDevice, TiledMatmulWithBarriersInALoop) {
  const int N = 64;
  KernelRun R{"matmul_tiled", "matmul_tiled", launch({4, 4, 1}, {16, 16, 1}, 2),
        {randomFloats(N * N, Rng), randomFloats(N * N, Rng),
         std::vector<float>(N * N, 0)},
        {}, {{}, {}, {}, scalar(N)},
        [&](auto &B) {
          for (int Row = 0; Row < N; ++Row)
            for (int Col = 0; Col < N; ++Col) {
              float Acc = 0;
              for (int K = 0; K < N; ++K)
                Acc += B[0][Row * N + K] * B[1][K * N + Col];
              B[2][Row * N + Col] = Acc;
            }
        },
        1e-5f};
  check(R);
}

TEST_F(CpuDevice, ReductionThroughALocalArgument) {
  const uint32_t N = 1000, L = 64, G = (N + L - 1) / L;
  KernelRun R{"reduction", "reduce_sum", launch({G, 1, 1}, {L, 1, 1}, 1),
        {randomFloats(N, Rng), std::vector<float>(G, 0), {}, {}},
        {0, 0, L * sizeof(float), 0}, {{}, {}, {}, scalar(N)},
        [&](auto &B) {
          for (uint32_t Group = 0; Group < G; ++Group) {
            std::vector<float> S(L);
            for (uint32_t I = 0; I < L; ++I)
              S[I] = Group * L + I < N ? B[0][Group * L + I] : 0.0f;
            for (uint32_t Step = L / 2; Step > 0; Step >>= 1)
              for (uint32_t I = 0; I < Step; ++I)
                S[I] += S[I + Step];
            B[1][Group] = S[0];
          }
        }};
  check(R);
}

TEST_F(CpuDevice, TransposeThroughALocalTile) {
  const int W = 64, H = 48;
  KernelRun R{"transpose", "transpose", launch({W / 16, H / 16, 1}, {16, 16, 1}, 2),
        {randomFloats(W * H, Rng), std::vector<float>(W * H, 0)},
        {}, {{}, {}, scalar(W), scalar(H)},
        [&](auto &B) {
          for (int Y = 0; Y < H; ++Y)
            for (int X = 0; X < W; ++X)
              B[1][X * H + Y] = B[0][Y * W + X];
        }};
  check(R);
}

TEST_F(CpuDevice, StencilWithAHaloLoop) {
  const uint32_t N = 4096;
  const int Radius = 2;
  KernelRun R{"stencil", "blur_radius", launch({N / 128, 1, 1}, {128, 1, 1}, 1),
        {randomFloats(N + 2 * Radius, Rng), std::vector<float>(N, 0)},
        {}, {{}, {}, scalar(Radius)},
        [&](auto &B) {
          for (uint32_t I = 0; I < N; ++I) {
            float S = 0;
            for (int K = 0; K <= 2 * Radius; ++K)
              S += B[0][I + K];
            B[1][I] = S / (2 * Radius + 1);
          }
        },
        1e-6f};
  check(R);
}

TEST_F(CpuDevice, ThreeDimensionalWithOffsets) {
  // out[linear id] = linear id, over a 3-D range with a global offset.
  KernelRun R{"volume", "number", launch({3, 2, 2}, {4, 2, 2}, 3, {5, 7, 1}),
        {std::vector<float>(12 * 4 * 4, -1.0f)},
        {}, {{}},
        [&](auto &B) {
          auto *Out = reinterpret_cast<uint32_t *>(B[0].data());
          for (uint32_t I = 0; I < B[0].size(); ++I)
            Out[I] = I;
        }};
  check(R);
}

TEST_F(CpuDevice, LoopsOverRows) {
  const int Rows = 96, Cols = 37;
  KernelRun R{"rows", "row_sum", launch({Rows / 32, 1, 1}, {32, 1, 1}, 1),
        {randomFloats(Rows * Cols, Rng), std::vector<float>(Rows, 0)},
        {}, {{}, {}, scalar(Cols)},
        [&](auto &B) {
          for (int Row = 0; Row < Rows; ++Row) {
            float S = 0;
            for (int C = 0; C < Cols; ++C)
              S += B[0][Row * Cols + C];
            B[1][Row] = S;
          }
        },
        1e-6f};
  check(R);
}

TEST_F(CpuDevice, Float4MathThroughTheBuiltinsLibrary) {
  // exp, sin, cos, sqrt, fabs, fma, mix and clamp on float4, from SKMD's
  // x86 builtins (and glibc's vector math), against double precision.
  const uint32_t N = 4096; // float4 elements
  const float Decay = 0.7f, Omega = 3.1f;
  KernelRun R{"float4_math", "damped_wave", launch({N / 64, 1, 1}, {64, 1, 1}, 1),
              {randomFloats(4 * N, Rng), randomFloats(4 * N, Rng),
               std::vector<float>(4 * N, 0)},
              {}, {{}, {}, {}, scalar(Decay), scalar(Omega)},
              [&](auto &B) {
                for (uint32_t I = 0; I < 4 * N; ++I) {
                  double X = B[0][I], P = B[1][I];
                  double Env = std::exp(-double(Decay) * X);
                  double Wave = std::sin(double(Omega) * X + P) +
                                0.5 * std::cos(double(Omega) * X);
                  double Res = Env * Wave + std::sqrt(std::fabs(Wave)) * 0.01;
                  double Mixed = Res + (Wave - Res) * 0.25;
                  B[2][I] = float(std::min(1.0, std::max(-1.0, Mixed)));
                }
              },
              1e-5f};
  check(R);
}

/// Integers travel in the float buffers bit for bit.
std::vector<float> fromInts(const std::vector<int32_t> &V) {
  std::vector<float> F(V.size());
  std::memcpy(F.data(), V.data(), V.size() * 4);
  return F;
}
int32_t &asInt(float &F) { return reinterpret_cast<int32_t &>(F); }

TEST_F(CpuDevice, IntegerBuiltins) {
  const uint32_t N = 1024;
  std::uniform_int_distribution<int32_t> Any(INT32_MIN, INT32_MAX);
  std::vector<int32_t> A(N), B(N);
  for (uint32_t I = 0; I < N; ++I) {
    A[I] = I % 7 == 0 ? INT32_MIN + int32_t(I) : Any(Rng);
    B[I] = I % 11 == 0 ? INT32_MAX - int32_t(I) : Any(Rng);
  }
  KernelRun R{"builtins_mix", "integers", launch({N / 64, 1, 1}, {64, 1, 1}, 1),
              {fromInts(A), fromInts(B), std::vector<float>(8 * N, 0)},
              {}, {},
              [&](auto &Buf) {
                auto Sat = [](int64_t V) {
                  return int32_t(std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, V)));
                };
                for (uint32_t I = 0; I < N; ++I) {
                  int64_t X = A[I], Y = B[I];
                  int32_t *O = &asInt(Buf[2][8 * I]);
                  O[0] = int32_t(uint32_t(std::min(X, Y)) + uint32_t(std::max(X, Y)));
                  O[1] = int32_t(std::min<int64_t>(100, std::max<int64_t>(-100, X)));
                  O[2] = int32_t(uint32_t(X < 0 ? -X : X) ^ uint32_t(X > Y ? X - Y : Y - X));
                  O[3] = Sat(X + Y) ^ Sat(X - Y);
                  O[4] = int32_t(uint32_t((X + Y) >> 1) + uint32_t((X + Y + 1) >> 1));
                  O[5] = __builtin_popcount(uint32_t(X)) +
                         (Y == 0 ? 32 : __builtin_clz(uint32_t(Y))) * 64;
                  uint32_t Rot = uint32_t(Y) & 31, UX = uint32_t(X);
                  O[6] = int32_t((Rot ? (UX << Rot) | (UX >> (32 - Rot)) : UX) ^
                                 ((uint32_t(X) & 0xffff) * (uint32_t(Y) & 0xfff) + 7));
                  O[7] = int32_t(uint32_t(X < Y ? Y : X) + ((X & 1) ? 9u : 7u));
                }
              }};
  check(R);
}

TEST_F(CpuDevice, VectorLoadsStoresAndRelationals) {
  const uint32_t N = 512; // float4 elements
  std::vector<float> In = randomFloats(4 * N + 4, Rng);
  for (uint32_t I = 0; I < In.size(); I += 37)
    In[I] = I % 2 ? NAN : -INFINITY;
  KernelRun R{"builtins_mix", "vectors", launch({N / 32, 1, 1}, {32, 1, 1}, 1),
              {In, std::vector<float>(4 * N, 0), std::vector<float>(N, 0)},
              {}, {},
              [&](auto &Buf) {
                for (uint32_t I = 0; I < N; ++I) {
                  for (int L = 0; L < 4; ++L) {
                    float V = In[4 * I + L];
                    Buf[1][4 * I + L] = V < 0 ? -V : V;
                  }
                  float VX = In[4 * I], VY = In[4 * I + 1], VW = In[4 * I + 3];
                  float TZ = In[3 * I + 2];
                  asInt(Buf[2][I]) = int(std::isnan(VX)) + 2 * int(std::isinf(VY)) +
                                     4 * int(std::signbit(TZ)) + 8 * int(VW > 0.5f);
                }
              }};
  check(R);
}

TEST_F(CpuDevice, HistogramWithLocalAndGlobalAtomics) {
  const uint32_t N = 1000, L = 64;
  std::vector<int32_t> Data(N);
  for (int32_t &D : Data)
    D = std::uniform_int_distribution<int32_t>(0, 1 << 20)(Rng);
  KernelRun R{"builtins_mix", "histogram", launch({(N + L - 1) / L, 1, 1}, {L, 1, 1}, 1),
              {fromInts(Data), std::vector<float>(16, 0), {}},
              {}, {{}, {}, scalar(N)},
              [&](auto &Buf) {
                for (int32_t D : Data)
                  ++asInt(Buf[1][D % 16]);
              }};
  check(R);
}

TEST(CpuDeviceErrors, BadLaunchesAreRefused) {
  ThreadPool Pool(2);
  auto Fn = [](void *const *, const skmd_wg_ctx *) {};
  CpuLaunch L;
  L.NumGroups = {4, 1, 1};
  L.LocalSize = {8, 1, 1};
  Status S = runWorkGroups(Pool, Fn, {}, {}, L, {}, 3, 2);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("outside the 4 groups"), std::string::npos);
  L.LocalSize = {0, 1, 1};
  EXPECT_FALSE(runWorkGroups(Pool, Fn, {}, {}, L, {}, 0, 1).ok());
  L.LocalSize = {8, 1, 1};
  S = runWorkGroups(Pool, Fn, {nullptr}, {0}, L, {}, 0, 1);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("argument 0 is not set"), std::string::npos);
  EXPECT_FALSE(SharedObject::load("not an ELF file").ok());
}

} // namespace
