//===- CpuConversionsTest.cpp - convert_* and half storage vs C++ ----------===//
//
// test/corpus/conversions.cl on the CPU device, over the whole range and
// random splits, against references that do not share the library's
// method: directed rounding from the host FPU's rounding modes, half
// rounding from a sorted table of every half value.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuConversions = CpuKernelTest;

/// One work-item per input value, in groups of 8.
KernelRun conversionRun(const std::string &Kernel, uint64_t Items) {
  return KernelRun("conversions", Kernel, launch({Items / 8, 1, 1}, {8, 1, 1}, 1));
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

TEST_F(CpuConversions, FloatToIntInEveryModeAndSaturated) {
  const size_t N = 4096;
  KernelRun R = conversionRun("float_to_int", N);
  R.buffer(floatInputs(N)).buffer(std::vector<int32_t>(N * 8));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<float>(0);
    auto Out = A.buffer<int32_t>(1);
    for (size_t I = 0; I < N; ++I) {
      double X = In[I];
      // The kernel's clamp is fmin(fmax(x, lo), hi): NaN gives lo.
      double Clamped = std::fmin(std::fmax(X, -1.0e9), 1.0e9);
      int32_t Want[8] = {saturate<int32_t>(std::trunc(X)),
                         saturate<int32_t>(std::nearbyint(X)),
                         saturate<int32_t>(std::trunc(X)),
                         saturate<int32_t>(std::ceil(X)),
                         saturate<int32_t>(std::floor(X)),
                         static_cast<int32_t>(std::nearbyint(Clamped)),
                         static_cast<int32_t>(std::ceil(Clamped)),
                         static_cast<int32_t>(std::floor(Clamped))};
      for (int K = 0; K < 8; ++K)
        Out[8 * I + K] = Want[K];
    }
  };
  check(R);
}

TEST_F(CpuConversions, Float4ToNarrowAndWideIntegers) {
  const size_t N = 1024;
  KernelRun R = conversionRun("float4_to_integers", N);
  R.gpusDiffer("libclc's convert_ulong_sat_rtp gives 2^63, not 0, for NaN on PTX "
               "(H100, measured)");
  R.buffer(floatInputs(4 * N))
      .buffer(std::vector<uint8_t>(4 * N))
      .buffer(std::vector<int8_t>(4 * N))
      .buffer(std::vector<int16_t>(4 * N))
      .buffer(std::vector<uint64_t>(4 * N));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<float>(0);
    for (size_t I = 0; I < 4 * N; ++I) {
      double X = In[I];
      A.buffer<uint8_t>(1)[I] = saturate<uint8_t>(std::nearbyint(X));
      A.buffer<int8_t>(2)[I] = saturate<int8_t>(std::trunc(X));
      A.buffer<int16_t>(3)[I] = saturate<int16_t>(std::floor(X));
      A.buffer<uint64_t>(4)[I] = saturate<uint64_t>(std::ceil(X));
    }
  };
  check(R);
}

TEST_F(CpuConversions, IntegersToFloatAndDoubleInEveryMode) {
  const size_t N = 4096;
  KernelRun R = conversionRun("integers_to_float", N);
  R.buffer(integerInputs(N))
      .buffer(std::vector<float>(N * 12))
      .buffer(std::vector<double>(N * 3));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<int64_t>(0);
    auto F = A.buffer<float>(1);
    auto D = A.buffer<double>(2);
    for (size_t I = 0; I < N; ++I) {
      int64_t X = In[I];
      uint64_t U = static_cast<uint64_t>(X);
      int32_t W = static_cast<int32_t>(U); // The kernel's (int)x: low bits.
      for (int M = 0; M < 4; ++M) {
        F[12 * I + M] = convertIn<float>(Modes[M], X);
        F[12 * I + 4 + M] = convertIn<float>(Modes[M], U);
        F[12 * I + 8 + M] = convertIn<float>(Modes[M], W);
      }
      D[3 * I] = convertIn<double>(FE_TOWARDZERO, X);
      D[3 * I + 1] = convertIn<double>(FE_UPWARD, U);
      D[3 * I + 2] = convertIn<double>(FE_DOWNWARD, X);
    }
  };
  check(R);
}

TEST_F(CpuConversions, DoubleToFloatInEveryMode) {
  const size_t N = 4096;
  std::vector<double> In;
  for (float F : floatInputs(N))
    In.push_back(static_cast<double>(F) * (1.0 + 0x1p-35)); // Inexact in float.
  In[0] = 1e300;
  In[1] = -1e300;
  In[2] = 1e-50;
  In[3] = -1e-50;
  KernelRun R = conversionRun("double_to_float", N);
  R.buffer(In).buffer(std::vector<float>(N * 4));
  R.Reference = [&](Args &A) {
    auto Src = A.buffer<double>(0);
    auto Out = A.buffer<float>(1);
    for (size_t I = 0; I < N; ++I)
      for (int M = 0; M < 4; ++M)
        Out[4 * I + M] = convertIn<float>(Modes[M], Src[I]);
  };
  check(R);
}

TEST_F(CpuConversions, IntegerSaturation) {
  const size_t N = 4096;
  KernelRun R = conversionRun("integer_saturation", N);
  R.buffer(integerInputs(N))
      .buffer(std::vector<int64_t>(N * 8))
      .buffer(std::vector<int16_t>(N));
  R.Reference = [&](Args &A) {
    auto In = A.buffer<int64_t>(0);
    auto Wide = A.buffer<int64_t>(1);
    auto Narrow = A.buffer<int16_t>(2);
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
        Wide[8 * I + K] = Want[K];
      Narrow[I] = static_cast<int16_t>(Clamp(X, INT16_MIN, INT16_MAX));
    }
  };
  check(R);
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

TEST_F(CpuConversions, HalfStoresInEveryModeAndLoads) {
  const size_t N = 4096;
  KernelRun R = conversionRun("half_round_trip", N);
  // OpenCL lets a device flush single-precision denormals (CL_FP_DENORM is
  // optional); on PTX the results that are half denormals come out 0.
  R.gpusDiffer("half denormals flushed to zero on PTX (H100, measured)");
  R.buffer(floatInputs(N))
      .buffer(std::vector<uint16_t>(N * 4))
      .buffer(std::vector<float>(N * 4))
      .buffer(std::vector<uint16_t>(N * 4));
  R.Reference = [&](Args &A) {
    static const HalfTable Table;
    auto In = A.buffer<float>(0);
    auto H = A.buffer<uint16_t>(1);
    auto Back = A.buffer<float>(2);
    auto FromDouble = A.buffer<uint16_t>(3);
    for (size_t I = 0; I < N; ++I) {
      double D = static_cast<double>(In[I]) * (1.0 + 0x1p-30);
      for (int M = 0; M < 4; ++M) {
        H[4 * I + M] = Table.round(In[I], Modes[M]);
        FromDouble[4 * I + M] = Table.round(D, Modes[M]);
        // vload_half4 of the four, plus vload_half of the first again.
        Back[4 * I + M] = halfToFloat(H[4 * I + M]) * (M == 0 ? 2.0f : 1.0f);
      }
    }
  };
  check(R);
}

} // namespace
