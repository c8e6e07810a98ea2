//===- CpuDataTest.cpp - Vectors, integers, structs, private arrays -------===//
//
// test/corpus/vectors.cl, integers.cl, structs.cl and private_arrays.cl on
// the CPU device against C++. Everything here is exact.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <algorithm>
#include <cstddef>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuVectors = CpuKernelTest;
using CpuIntegers = CpuKernelTest;
using CpuStructs = CpuKernelTest;
using CpuPrivateArrays = CpuKernelTest;

TEST_F(CpuVectors, Float4Swizzles) {
  const uint32_t N = 512, L = 64;
  auto A = randomFloats(4 * N, Rng), B = randomFloats(4 * N, Rng);
  KernelRun R("vectors", "swizzle_float4", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(A).buffer(B).buffer(std::vector<float>(12 * N));
  R.Reference = [&](Args &Out) {
    View<float> O = Out.buffer<float>(2);
    for (uint32_t I = 0; I < N; ++I) {
      const float *X = &A[4 * I], *Y = &B[4 * I];
      float Rv[4] = {X[3] + Y[0], X[2] + Y[0], X[1] + Y[1], X[0] + Y[1]};
      Rv[0] = Rv[1] - X[2]; // r.xy = r.yx - x.zw; r.y is overwritten next
      Rv[1] = Rv[0] + Y[1]; // r.odd = r.even + y.odd
      Rv[3] = Rv[2] + Y[3];
      float Rows[3][4] = {{Rv[0], Rv[1], Rv[2], Rv[3]},
                          {X[2] * Y[0], X[3] * Y[1], X[3], X[1]},
                          {Y[2] - 1, X[1] - 1, Y[2] - 1, Rv[3] - 1}};
      for (int Row = 0; Row < 3; ++Row)
        for (int C = 0; C < 4; ++C)
          O[(3 * I + Row) * 4 + C] = Rows[Row][C];
    }
  };
  check(R);
}

TEST_F(CpuVectors, Int8Lanes) {
  const uint32_t N = 256, L = 32;
  auto In = randomInts<int32_t>(8 * N, Rng, -1000000, 1000000);
  KernelRun R("vectors", "int8_lanes", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<int32_t>(8 * N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      const int32_t *V = &In[8 * I];
      int32_t Rv[8];
      for (int K = 0; K < 8; ++K)
        Rv[K] = V[7 - K];
      for (int K = 0; K < 4; ++K)
        Rv[K] += V[4 + K];
      for (int K = 0; K < 4; ++K)
        Rv[2 * K] ^= V[2 * K + 1];
      int32_t S0 = Rv[7] * 3, S7 = Rv[0] * 3;
      Rv[0] = S0;
      Rv[7] = S7;
      for (int K = 0; K < 8; ++K)
        Rv[K] = V[K] > 0 ? Rv[K] : V[K] >> 2;
      Rv[3] = V[5] - V[2];
      std::copy(Rv, Rv + 8, &Out.buffer<int32_t>(1)[8 * I]);
    }
  };
  check(R);
}

TEST_F(CpuVectors, Uint16Lanes) {
  const uint32_t N = 128, L = 32;
  auto In = randomInts<uint32_t>(16 * N, Rng);
  KernelRun R("vectors", "uint16_lanes", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<uint32_t>(16 * N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      const uint32_t *V = &In[16 * I];
      uint32_t Rv[16];
      for (int K = 0; K < 16; ++K)
        Rv[K] = V[15 - K];
      for (int K = 0; K < 4; ++K)
        Rv[K] = V[10 + K] * 2u;
      for (int K = 0; K < 4; ++K)
        Rv[8 + K] = V[4 + K] + V[12 + K];
      for (int K = 0; K < 8; ++K)
        Rv[2 * K + 1] ^= V[2 * K] << 3;
      Rv[15] = V[0] + V[15];
      std::copy(Rv, Rv + 16, &Out.buffer<uint32_t>(1)[16 * I]);
    }
  };
  check(R);
}

TEST_F(CpuVectors, VloadVstoreEveryWidthMisaligned) {
  const uint32_t N = 64, L = 16;
  auto G = randomFloats(16 * N + 8, Rng);
  auto C = randomInts<int32_t>(4 * N + 1, Rng, -100000, 100000);
  KernelRun R("vectors", "vload_widths", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  // Exactly as long as the kernel's last stores reach.
  R.buffer(G)
      .buffer(C)
      .buffer(std::vector<float>(29 * N + 2))
      .buffer(std::vector<int32_t>(7 * N + 1));
  R.Reference = [&](Args &Out) {
    View<float> F = Out.buffer<float>(2);
    View<int32_t> I32 = Out.buffer<int32_t>(3);
    for (uint32_t I = 0; I < N; ++I) {
      const float *A = &G[1 + 2 * I], *B = &G[2 + 3 * I], *Q = &G[3 + 4 * I];
      const float *D = &G[5 + 8 * I], *E = &G[7 + 16 * I];
      for (int K = 0; K < 16; ++K)
        F[16 * I + K] = E[K] + D[K % 8];
      for (int K = 0; K < 8; ++K)
        F[16 * N + 1 + 8 * I + K] = D[K] - Q[K % 4];
      for (int K = 0; K < 3; ++K)
        F[24 * N + 1 + 3 * I + K] = B[K];
      for (int K = 0; K < 2; ++K)
        F[27 * N + 2 + 2 * I + K] = A[K];
      for (int K = 0; K < 4; ++K)
        I32[4 * I + K] = C[1 + 4 * I + K] * 2;
      for (int K = 0; K < 3; ++K)
        I32[4 * N + 1 + 3 * I + K] = C[3 * I + K] - C[1 + 4 * I + K];
    }
  };
  check(R);
}

TEST_F(CpuVectors, WideVectorsThroughLocalMemory) {
  const uint32_t N = 64, L = 16;
  auto G = randomFloats(12 * N, Rng);
  KernelRun R("vectors", "local_vectors", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(G).buffer(std::vector<float>(12 * N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      uint32_t Next = I / L * L + (I + 1) % L;
      for (uint32_t K = 0; K < 4; ++K)
        Out.buffer<float>(1)[4 * I + K] = G[4 * Next + K];
      for (uint32_t K = 0; K < 8; ++K)
        Out.buffer<float>(1)[4 * N + 8 * I + K] = G[4 * N + 8 * Next + K];
    }
  };
  check(R);
}

template <typename T> T rotl(T X, unsigned N) {
  constexpr unsigned Bits = sizeof(T) * 8;
  N %= Bits;
  return N ? T(X << N | X >> (Bits - N)) : X;
}

template <typename T> T clzOf(T X) {
  constexpr int Bits = sizeof(T) * 8;
  int N = 0;
  while (N < Bits && !(X >> (Bits - 1 - N) & 1))
    ++N;
  return T(N);
}

template <typename T> T popcountOf(T X) {
  return T(__builtin_popcountll(uint64_t(X)));
}

TEST_F(CpuIntegers, BuiltinsOnVectorsOf8To64BitLanes) {
  const uint32_t N = 128, L = 32;
  auto A8 = randomInts<uint8_t>(16 * N, Rng),
       B8 = randomInts<uint8_t>(16 * N, Rng);
  // mul24 / mad24 operands in the 24-bit range, products within 32 bits.
  auto A32 = randomInts<int32_t>(4 * N, Rng, -(1 << 23), (1 << 23) - 1);
  auto B32 = randomInts<int32_t>(4 * N, Rng, -127, 127);
  auto A64 = randomInts<uint64_t>(2 * N, Rng),
       B64 = randomInts<uint64_t>(2 * N, Rng);
  for (uint32_t I = 0; I < 2 * N; I += 9)
    B64[I] = I % 2 ? 0 : ~0ull; // saturation and clz(0)
  KernelRun R("integers", "int_vectors", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(A8)
      .buffer(B8)
      .buffer(A32)
      .buffer(B32)
      .buffer(A64)
      .buffer(B64)
      .buffer(std::vector<uint8_t>(32 * N))
      .buffer(std::vector<int16_t>(16 * N))
      .buffer(std::vector<int32_t>(8 * N))
      .buffer(std::vector<uint64_t>(6 * N));
  R.Reference = [&](Args &Out) {
    View<uint8_t> O8 = Out.buffer<uint8_t>(6);
    View<int16_t> O16 = Out.buffer<int16_t>(7);
    View<int32_t> O32 = Out.buffer<int32_t>(8);
    View<uint64_t> O64 = Out.buffer<uint64_t>(9);
    const int EvenOdd[16] = {0, 2, 4, 6, 8, 10, 12, 14,
                             1, 3, 5, 7, 9, 11, 13, 15};
    for (uint32_t I = 0; I < N; ++I) {
      const uint8_t *X = &A8[16 * I], *Y = &B8[16 * I];
      for (int K = 0; K < 16; ++K) {
        int P = EvenOdd[K];
        O8[32 * I + K] =
            uint8_t(((X[K] + Y[K]) >> 1) ^ ((X[P] + Y[P] + 1) >> 1));
        int D = int8_t(X[K]) - int8_t(Y[K]);
        O8[32 * I + 16 + K] = uint8_t((D < 0 ? -D : D) ^ clzOf(X[K]) ^
                                      rotl(X[K], Y[K]) ^ popcountOf(Y[K]));
      }
      for (int K = 0; K < 8; ++K) {
        int S = int16_t(X[2 * K] | X[2 * K + 1] << 8);
        int T = int16_t(Y[2 * K] | Y[2 * K + 1] << 8);
        auto Sat = [](int V) { return std::min(32767, std::max(-32768, V)); };
        O16[16 * I + K] = int16_t(Sat(S + T) ^ Sat(S - T));
        O16[16 * I + 8 + K] =
            int16_t(((S + T) >> 1) ^ ((S + T + 1) >> 1) ^ clzOf(uint16_t(T)));
      }
      for (int K = 0; K < 4; ++K) {
        int32_t P = A32[4 * I + K], Q = B32[4 * I + K];
        O32[8 * I + K] = P * Q;
        O32[8 * I + 4 + K] = P * Q + A32[4 * I + 3 - K];
      }
      for (int K = 0; K < 2; ++K) {
        uint64_t U = A64[2 * I + K], V = B64[2 * I + K];
        O64[6 * I + K] = popcountOf(U) | clzOf(V) << 8;
        O64[6 * I + 2 + K] = rotl(U, unsigned(V % 64));
        uint64_t AddSat = U + V < U ? ~0ull : U + V, SubSat = U < V ? 0 : U - V;
        uint64_t Hadd = (U >> 1) + (V >> 1) + (U & V & 1);
        uint64_t Rhadd = (U >> 1) + (V >> 1) + ((U | V) & 1);
        O64[6 * I + 4 + K] =
            AddSat ^ SubSat ^ (U > V ? U - V : V - U) ^ Hadd ^ Rhadd;
      }
    }
  };
  check(R);
}

TEST_F(CpuIntegers, MulHiAndUpsample) {
  const uint32_t N = 256, L = 64;
  auto A = randomInts<int32_t>(N, Rng), B = randomInts<int32_t>(N, Rng);
  A[0] = B[0] = INT32_MIN;
  A[1] = INT32_MAX;
  B[1] = -1;
  KernelRun R("integers", "wide_products", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(A)
      .buffer(B)
      .buffer(std::vector<int32_t>(N))
      .buffer(std::vector<uint32_t>(N))
      .buffer(std::vector<int64_t>(N))
      .buffer(std::vector<int32_t>(N))
      .buffer(std::vector<uint64_t>(N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      int64_t X = A[I], Y = B[I];
      Out.buffer<int32_t>(2)[I] = int32_t((X * Y) >> 32);
      Out.buffer<uint32_t>(3)[I] =
          uint32_t((uint64_t(uint32_t(X)) * uint32_t(Y)) >> 32);
      __int128 Wide = __int128(X * 1000003) * (Y * 999983);
      Out.buffer<int64_t>(4)[I] = int64_t(Wide >> 64);
      uint32_t Hi = uint16_t(int16_t(X >> 16));
      Out.buffer<int32_t>(5)[I] = int32_t(Hi << 16 | uint16_t(Y));
      Out.buffer<uint64_t>(6)[I] = uint64_t(uint32_t(X)) << 32 | uint32_t(Y);
    }
  };
  check(R);
}

/// The OpenCL struct of structs.cl, laid out as OpenCL lays it out.
struct alignas(16) Particle {
  float Pos[4];
  float Vel[4];
  int32_t Id;
  int32_t Bounces;
};
static_assert(sizeof(Particle) == 48 && offsetof(Particle, Id) == 32);

struct alignas(16) Float4 {
  float V[4];
};

TEST_F(CpuStructs, ParticlesAsAnArrayOfStructs) {
  // A tail: 300 particles in groups of 64, and a float4 passed by value.
  const int N = 300, L = 64;
  const Float4 Gravity = {{0.25f, -9.75f, 0.5f, 0.0f}};
  const float Dt = 1.0f / 64; // a power of two: products exact, fused or not
  std::vector<Particle> Ps(N);
  auto P = randomFloats(8 * N, Rng);
  for (int I = 0; I < N; ++I) {
    std::copy(&P[8 * I], &P[8 * I + 4], Ps[I].Pos);
    std::copy(&P[8 * I + 4], &P[8 * I + 8], Ps[I].Vel);
    Ps[I].Id = I;
    Ps[I].Bounces = I % 3;
  }
  KernelRun R("structs", "particles",
              launch({(N + L - 1) / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Ps).scalar(Gravity).scalar(Dt).scalar(N);
  R.Reference = [&](Args &Out) {
    for (Particle &Pt : Out.buffer<Particle>(0)) {
      float V[4], X[4];
      for (int K = 0; K < 4; ++K) {
        V[K] = Pt.Vel[K] + Gravity.V[K] * Dt;
        X[K] = Pt.Pos[K] + V[K] * Dt;
      }
      if (X[1] < 0) {
        X[1] = -X[1];
        V[1] = -V[1];
        Pt.Bounces += 1;
      }
      std::copy(X, X + 4, Pt.Pos);
      std::copy(V, V + 4, Pt.Vel);
    }
  };
  check(R);
}

/// The OpenCL struct Record of structs.cl: mixed scalars with padding.
struct Record {
  int8_t Tag;
  int16_t Count;
  int32_t Total;
  float Mean;
  int64_t Key;
  uint8_t Flags[3];
};
static_assert(sizeof(Record) == 32 && offsetof(Record, Key) == 16 &&
              offsetof(Record, Flags) == 24);

TEST_F(CpuStructs, MixedScalarRecordsThroughAPrivateCopy) {
  const int N = 256, L = 32, Per = 6;
  std::vector<Record> Recs(N);
  auto Tags = randomInts<int8_t>(N, Rng, -100, 100);
  auto Counts = randomInts<int16_t>(N, Rng, 0, 1000);
  auto Totals = randomInts<int32_t>(N, Rng, -1000000, 1000000);
  auto Keys = randomInts<int64_t>(N, Rng, -(1ll << 50), 1ll << 50);
  auto Flags = randomInts<uint8_t>(3 * N, Rng);
  for (int I = 0; I < N; ++I) {
    Recs[I].Tag = Tags[I];
    Recs[I].Count = Counts[I];
    Recs[I].Total = Totals[I];
    Recs[I].Mean = float(I);
    Recs[I].Key = Keys[I];
    std::copy(&Flags[3 * I], &Flags[3 * I + 3], Recs[I].Flags);
  }
  auto Samples = randomInts<int32_t>(N * Per, Rng, -100, 100);
  KernelRun R("structs", "records", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Recs).buffer(Samples).scalar(Per);
  R.Reference = [&](Args &Out) {
    View<Record> Rs = Out.buffer<Record>(0);
    for (int I = 0; I < N; ++I) {
      Record &Rec = Rs[I];
      int32_t S = 0;
      for (int K = 0; K < Per; ++K)
        S += Samples[I * Per + K];
      Rec.Count = int16_t(Rec.Count + Per);
      Rec.Total += S;
      Rec.Mean = float(S) * 0.5f;
      Rec.Key = Rec.Key * 31 + Rec.Tag;
      Rec.Flags[S & 1] |= uint8_t(1 << (Per & 7));
      Rec.Flags[2] = uint8_t(Rec.Count);
      Rec.Tag = int8_t(-Rec.Tag);
    }
  };
  check(R);
}

TEST_F(CpuPrivateArrays, SortEightValuesPerWorkItem) {
  const uint32_t N = 256, L = 64;
  auto In = randomInts<int32_t>(8 * N, Rng);
  KernelRun R("private_arrays", "sort8", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<int32_t>(8 * N));
  R.Reference = [&](Args &Out) {
    View<int32_t> O = Out.buffer<int32_t>(1);
    std::copy(In.begin(), In.end(), O.begin());
    for (uint32_t I = 0; I < N; ++I)
      std::sort(&O[8 * I], &O[8 * I] + 8);
  };
  check(R);
}

TEST_F(CpuPrivateArrays, HistogramPerWorkItem) {
  const int N = 192, L = 64, Per = 37;
  auto Data = randomInts<uint8_t>(N * Per, Rng);
  KernelRun R("private_arrays", "private_histogram",
              launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(Data).buffer(std::vector<uint32_t>(9 * N)).scalar(Per);
  R.Reference = [&](Args &Out) {
    View<uint32_t> H = Out.buffer<uint32_t>(1);
    for (int I = 0; I < N; ++I) {
      for (int K = 0; K < Per; ++K)
        ++H[9 * I + (Data[I * Per + K] >> 5)];
      uint32_t Best = 0;
      for (uint32_t B = 1; B < 8; ++B)
        if (H[9 * I + B] > H[9 * I + Best])
          Best = B;
      H[9 * I + 8] = Best;
    }
  };
  check(R);
}

TEST_F(CpuPrivateArrays, SlidingWindow) {
  const int Rows = 64, W = 40, L = 16;
  // Dyadic inputs: the weighted sums are exact, fused or not.
  auto In = dyadicFloats(Rows * (W + 4), Rng);
  KernelRun R("private_arrays", "window_stencil",
              launch({Rows / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<float>(2 * Rows * W)).scalar(W);
  R.Reference = [&](Args &Out) {
    for (int Row = 0; Row < Rows; ++Row)
      for (int X = 0; X < W; ++X) {
        const float *Win = &In[Row * (W + 4) + X];
        float M = Win[0], S = 0;
        for (int K = 0; K < 5; ++K) {
          M = std::max(M, Win[K]);
          S += Win[K] * float(K + 1);
        }
        Out.buffer<float>(1)[2 * (Row * W + X)] = M;
        Out.buffer<float>(1)[2 * (Row * W + X) + 1] = S;
      }
  };
  check(R);
}

} // namespace
