//===- CpuConversionsTest.cpp - convert_* and half storage vs C++ ----------===//
//
// test/corpus/conversions.cl on the CPU device, over the whole range and
// random splits, against references that do not share the library's
// method: directed rounding from the host FPU's rounding modes, half
// rounding from a sorted table of every half value.
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "common/RandomSplit.h"
#include "devices/cpu/SharedObject.h"
#include "devices/cpu/WorkGroupRunner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace skmd;

namespace {

using Bytes = std::vector<uint8_t>;

template <typename T> Bytes toBytes(const std::vector<T> &V) {
  Bytes B(V.size() * sizeof(T));
  std::memcpy(B.data(), V.data(), B.size());
  return B;
}

template <typename T> std::vector<T> fromBytes(const Bytes &B) {
  std::vector<T> V(B.size() / sizeof(T));
  std::memcpy(V.data(), B.data(), B.size());
  return V;
}

/// Runs one kernel of conversions.skmd, one work-item per input, over the
/// whole range and over random splits in random order; every run must give
/// the same bytes, which are returned.
std::vector<Bytes> runConversions(const std::string &Kernel,
                                  const std::vector<Bytes> &Buffers,
                                  uint64_t Items) {
  static ThreadPool Pool(3);
  auto B = Bundle::fromFile(std::string(SKMD_CORPUS_DIR) + "/conversions.skmd");
  EXPECT_TRUE(B.ok()) << B.error().message();
  const KernelInfo *K = B->metadata().findKernel(Kernel);
  EXPECT_NE(K, nullptr) << Kernel;
  auto Lib = SharedObject::load(B->variant(TargetKind::X86));
  EXPECT_TRUE(Lib.ok()) << Lib.error().message();
  auto Sym = Lib->symbol(K->Symbols.at(TargetKind::X86).Kernel);
  EXPECT_TRUE(Sym.ok()) << Sym.error().message();
  auto Fn = reinterpret_cast<skmd_wg_fn>(*Sym);

  const uint64_t Local = 8;
  CpuLaunch Launch;
  Launch.NumGroups = {Items / Local, 1, 1};
  Launch.LocalSize = {Local, 1, 1};
  auto Run = [&](std::vector<Bytes> &Bufs, uint64_t First, uint64_t Count) {
    std::vector<void *> Ptrs(Bufs.size()), Args(Bufs.size());
    for (size_t I = 0; I < Bufs.size(); ++I) {
      Ptrs[I] = Bufs[I].data();
      Args[I] = &Ptrs[I];
    }
    Status S = runWorkGroups(Pool, Fn, Args, std::vector<uint64_t>(Bufs.size()),
                             Launch, {K->Cpu.LocalMemBytes, K->Cpu.StateBytesPerItem},
                             First, Count);
    EXPECT_TRUE(S.ok()) << S.error().message();
  };
  std::vector<Bytes> Whole = Buffers;
  Run(Whole, 0, Launch.NumGroups[0]);
  std::mt19937 Rng(11);
  for (int Trial = 0; Trial < 2; ++Trial) {
    std::vector<Bytes> Split = Buffers;
    for (auto [First, Count] : test::randomPieces(Launch.NumGroups[0], 5, Rng))
      Run(Split, First, Count);
    EXPECT_TRUE(Split == Whole) << Kernel << ": a split run differs";
  }
  return Whole;
}

/// Values that stress rounding and saturation, then random ones of every
/// magnitude; \p N is a multiple of 64.
std::vector<float> floatInputs(size_t N) {
  const float Inf = std::numeric_limits<float>::infinity();
  std::vector<float> V = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f,
                          0.49999997f, 1e-30f, -1e-30f, 255.5f, 256.0f,
                          -128.5f, -129.0f, 32767.5f, -32768.5f, 2147483520.0f,
                          2147483648.0f, -2147483648.0f, -2147483904.0f, 1e20f,
                          -1e20f, 18446744073709551616.0f, Inf, -Inf,
                          std::nanf(""), 65504.0f, 65519.99f, 65520.0f,
                          6.1e-5f, 5.96e-8f, 2.98e-8f, 1.0f + 0x1p-11f,
                          1.0f + 0x1p-12f, 1.0f + 0x1.8p-12f};
  std::mt19937 Rng(5);
  std::uniform_real_distribution<float> Mantissa(-2.0f, 2.0f);
  std::uniform_int_distribution<int> Exponent(-30, 70);
  while (V.size() < N)
    V.push_back(std::ldexp(Mantissa(Rng), Exponent(Rng)));
  V.resize(N);
  return V;
}

std::vector<int64_t> integerInputs(size_t N) {
  std::vector<int64_t> V = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767,
                            32768, -32768, -32769, 65535, 65536,
                            INT32_MAX, int64_t(INT32_MAX) + 1, INT32_MIN,
                            int64_t(INT32_MIN) - 1, UINT32_MAX,
                            int64_t(UINT32_MAX) + 1, INT64_MAX, INT64_MIN,
                            (int64_t(1) << 53) + 1, (int64_t(1) << 24) + 1,
                            16777217, -16777217, (int64_t(1) << 62) + 12345};
  std::mt19937_64 Rng(9);
  while (V.size() < N) {
    int Shift = static_cast<int>(Rng() % 64);
    V.push_back(static_cast<int64_t>(Rng() >> Shift));
  }
  V.resize(N);
  return V;
}

/// Converts with the host FPU in rounding mode \p Mode: the reference for
/// directed rounding, independent of the library's ulp-stepping.
template <typename To, typename From> To convertIn(int Mode, From X) {
  volatile From In = X;
  std::fesetround(Mode);
  volatile To Out = static_cast<To>(In);
  std::fesetround(FE_TONEAREST);
  return Out;
}

constexpr int Modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

template <typename To> To saturate(double Y) {
  if (std::isnan(Y))
    return 0;
  if (Y <= static_cast<double>(std::numeric_limits<To>::min()))
    return std::numeric_limits<To>::min();
  if (Y >= std::ldexp(1.0, std::numeric_limits<To>::digits))
    return std::numeric_limits<To>::max();
  return static_cast<To>(Y);
}

double roundIn(int Mode, double X) {
  switch (Mode) {
  case FE_TOWARDZERO:
    return std::trunc(X);
  case FE_UPWARD:
    return std::ceil(X);
  case FE_DOWNWARD:
    return std::floor(X);
  default:
    return std::nearbyint(X);
  }
}

bool sameBits(float A, float B) { return std::memcmp(&A, &B, 4) == 0; }

TEST(CpuConversions, FloatToIntInEveryModeAndSaturated) {
  const size_t N = 4096;
  std::vector<float> In = floatInputs(N);
  auto Out = fromBytes<int32_t>(runConversions(
      "float_to_int", {toBytes(In), Bytes(N * 8 * 4)}, N)[1]);
  for (size_t I = 0; I < N; ++I) {
    double X = In[I];
    int32_t Want[8] = {saturate<int32_t>(std::trunc(X)),
                       saturate<int32_t>(roundIn(FE_TONEAREST, X)),
                       saturate<int32_t>(std::trunc(X)),
                       saturate<int32_t>(std::ceil(X)),
                       saturate<int32_t>(std::floor(X))};
    if (!std::isnan(X)) {
      double R = std::clamp(X, -1.0e9, 1.0e9);
      Want[5] = static_cast<int32_t>(std::nearbyint(R));
      Want[6] = static_cast<int32_t>(std::ceil(R));
      Want[7] = static_cast<int32_t>(std::floor(R));
    }
    for (int K = 0; K < (std::isnan(X) ? 5 : 8); ++K)
      ASSERT_EQ(Out[8 * I + K], Want[K]) << "input " << In[I] << ", slot " << K;
  }
}

TEST(CpuConversions, Float4ToNarrowAndWideIntegers) {
  const size_t N = 1024;
  std::vector<float> In = floatInputs(4 * N);
  auto Out = runConversions("float4_to_integers",
                            {toBytes(In), Bytes(4 * N), Bytes(4 * N),
                             Bytes(8 * N), Bytes(32 * N)},
                            N);
  auto U8 = fromBytes<uint8_t>(Out[1]);
  auto S8 = fromBytes<int8_t>(Out[2]);
  auto S16 = fromBytes<int16_t>(Out[3]);
  auto U64 = fromBytes<uint64_t>(Out[4]);
  for (size_t I = 0; I < 4 * N; ++I) {
    double X = In[I];
    ASSERT_EQ(U8[I], saturate<uint8_t>(std::nearbyint(X))) << X;
    ASSERT_EQ(S8[I], saturate<int8_t>(std::trunc(X))) << X;
    ASSERT_EQ(S16[I], saturate<int16_t>(std::floor(X))) << X;
    ASSERT_EQ(U64[I], saturate<uint64_t>(std::ceil(X))) << X;
  }
}

TEST(CpuConversions, IntegersToFloatAndDoubleInEveryMode) {
  const size_t N = 4096;
  std::vector<int64_t> In = integerInputs(N);
  auto Out = runConversions("integers_to_float",
                            {toBytes(In), Bytes(N * 12 * 4), Bytes(N * 3 * 8)}, N);
  auto F = fromBytes<float>(Out[1]);
  auto D = fromBytes<double>(Out[2]);
  for (size_t I = 0; I < N; ++I) {
    int64_t X = In[I];
    uint64_t U = static_cast<uint64_t>(X);
    int32_t W = static_cast<int32_t>(U); // The kernel's (int)x: low bits.
    for (int M = 0; M < 4; ++M) {
      ASSERT_TRUE(sameBits(F[12 * I + M], convertIn<float>(Modes[M], X)))
          << "long " << X << " mode " << M << ": " << F[12 * I + M];
      ASSERT_TRUE(sameBits(F[12 * I + 4 + M], convertIn<float>(Modes[M], U)))
          << "ulong " << U << " mode " << M << ": " << F[12 * I + 4 + M];
      ASSERT_TRUE(sameBits(F[12 * I + 8 + M], convertIn<float>(Modes[M], W)))
          << "int " << W << " mode " << M;
    }
    ASSERT_EQ(D[3 * I], convertIn<double>(FE_TOWARDZERO, X)) << X;
    ASSERT_EQ(D[3 * I + 1], convertIn<double>(FE_UPWARD, U)) << U;
    ASSERT_EQ(D[3 * I + 2], convertIn<double>(FE_DOWNWARD, X)) << X;
  }
}

TEST(CpuConversions, DoubleToFloatInEveryMode) {
  const size_t N = 4096;
  std::vector<double> In;
  for (float F : floatInputs(N))
    In.push_back(static_cast<double>(F) * (1.0 + 0x1p-35)); // Inexact in float.
  In[0] = 1e300;
  In[1] = -1e300;
  In[2] = 1e-50;
  In[3] = -1e-50;
  auto Out = fromBytes<float>(
      runConversions("double_to_float", {toBytes(In), Bytes(N * 16)}, N)[1]);
  for (size_t I = 0; I < N; ++I)
    for (int M = 0; M < 4; ++M)
      ASSERT_TRUE(sameBits(Out[4 * I + M], convertIn<float>(Modes[M], In[I])))
          << In[I] << " mode " << M << ": " << Out[4 * I + M];
}

TEST(CpuConversions, IntegerSaturation) {
  const size_t N = 4096;
  std::vector<int64_t> In = integerInputs(N);
  auto Out = runConversions("integer_saturation",
                            {toBytes(In), Bytes(N * 64), Bytes(N * 2)}, N);
  auto Wide = fromBytes<int64_t>(Out[1]);
  auto Narrow = fromBytes<int16_t>(Out[2]);
  auto Clamp = [](int64_t X, int64_t Lo, int64_t Hi) {
    return std::min(std::max(X, Lo), Hi);
  };
  for (size_t I = 0; I < N; ++I) {
    int64_t X = In[I];
    int64_t Want[8] = {Clamp(X, INT8_MIN, INT8_MAX),
                       Clamp(X, 0, UINT8_MAX),
                       Clamp(X, INT16_MIN, INT16_MAX),
                       Clamp(X, 0, UINT16_MAX),
                       Clamp(X, INT32_MIN, INT32_MAX),
                       Clamp(X, 0, UINT32_MAX),
                       std::max<int64_t>(X, 0),
                       X < 0 ? INT64_MAX : X}; // x as ulong, into long.
    for (int K = 0; K < 8; ++K)
      ASSERT_EQ(Wide[8 * I + K], Want[K]) << "input " << X << ", slot " << K;
    ASSERT_EQ(Narrow[I], Clamp(X, INT16_MIN, INT16_MAX)) << X;
  }
}

/// Every finite half, ascending, with its bits; +-65536 stands for +-inf,
/// which round-to-nearest reaches from 65520 up.
struct HalfTable {
  std::vector<std::pair<double, uint16_t>> Values;
  HalfTable() {
    for (uint32_t H = 0; H < 0x10000; ++H) {
      int Exp = (H >> 10) & 31, Frac = H & 1023;
      if (Exp == 31)
        continue;
      double V = Exp ? std::ldexp(1024 + Frac, Exp - 25) : std::ldexp(Frac, -24);
      Values.push_back({H & 0x8000 ? -V : V, static_cast<uint16_t>(H)});
    }
    Values.push_back({65536.0, 0x7c00});
    Values.push_back({-65536.0, 0xfc00});
    std::sort(Values.begin(), Values.end(), [](auto &A, auto &B) {
      // -0 before +0, so each zero is reached from its own side.
      return A.first < B.first || (A.first == B.first && (A.second & 0x8000));
    });
  }

  /// The half that \p X rounds to in mode \p Mode.
  uint16_t round(double X, int Mode) const {
    if (std::isnan(X))
      return 0x7e00;
    if (X == 0 || std::isinf(X))
      return (std::signbit(X) ? 0x8000 : 0) | (X == 0 ? 0 : 0x7c00);
    bool Neg = X < 0;
    double A = std::fabs(X);
    // Magnitude neighbours on the positive side: Lo <= A < Hi.
    auto It = std::upper_bound(Values.begin(), Values.end(), A,
                               [](double V, auto &E) { return V < E.first; });
    auto Lo = std::prev(It);
    uint16_t Sign = Neg ? 0x8000 : 0;
    if (Lo->first == A)
      return Lo->second | Sign;
    if (It == Values.end()) // Beyond 65536.
      It = Lo;
    bool TowardZero = Mode == FE_TOWARDZERO || (Mode == FE_UPWARD && Neg) ||
                      (Mode == FE_DOWNWARD && !Neg);
    uint16_t Down = Lo->second, Up = It->second;
    if (TowardZero)
      return (Down == 0x7c00 ? 0x7bff : Down) | Sign;
    if (Mode != FE_TONEAREST)
      return Up | Sign;
    double DLo = A - Lo->first, DHi = It->first - A;
    if (DLo != DHi)
      return (DLo < DHi ? Down : Up) | Sign;
    return ((Down & 1) ? Up : Down) | Sign;
  }
};

float halfToFloat(uint16_t H) {
  int Exp = (H >> 10) & 31, Frac = H & 1023;
  float V = Exp == 31   ? (Frac ? std::nanf("") : INFINITY)
            : Exp == 0 ? std::ldexp(static_cast<float>(Frac), -24)
                       : std::ldexp(static_cast<float>(1024 + Frac), Exp - 25);
  return (H & 0x8000) ? -V : V;
}

TEST(CpuConversions, HalfStoresInEveryModeAndLoads) {
  const size_t N = 4096;
  std::vector<float> In = floatInputs(N);
  auto Out = runConversions("half_round_trip",
                            {toBytes(In), Bytes(N * 8), Bytes(N * 16), Bytes(N * 8)},
                            N);
  auto H = fromBytes<uint16_t>(Out[1]);
  auto Back = fromBytes<float>(Out[2]);
  auto FromDouble = fromBytes<uint16_t>(Out[3]);
  HalfTable Table;
  for (size_t I = 0; I < N; ++I) {
    double D = static_cast<double>(In[I]) * (1.0 + 0x1p-30);
    for (int M = 0; M < 4; ++M) {
      ASSERT_EQ(H[4 * I + M], Table.round(In[I], Modes[M]))
          << "float " << In[I] << " mode " << M;
      ASSERT_EQ(FromDouble[4 * I + M], Table.round(D, Modes[M]))
          << "double " << D << " mode " << M;
      float Want = halfToFloat(H[4 * I + M]) * (M == 0 ? 2.0f : 1.0f);
      ASSERT_TRUE(sameBits(Back[4 * I + M], Want) ||
                  (std::isnan(Want) && std::isnan(Back[4 * I + M])))
          << "vload_half of " << H[4 * I + M];
    }
  }
}

} // namespace
