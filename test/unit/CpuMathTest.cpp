//===- CpuMathTest.cpp - Math builtins on the CPU device vs C++ -----------===//
//
// test/corpus/math.cl and doubles.cl against references computed in double
// (long double for the double builtins) and rounded once. Each builtin is
// held to its bound in the ULP table of the OpenCL C specification, with
// ±0, ±inf, NaN and ±1 among the inputs where its edge cases are defined.
// native_* accuracy is implementation-defined: SKMD's x86 library computes
// them at full precision, and we hold them to half_*'s 8192 ulp, which
// catches a wrong function yet leaves room for faster approximations.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <cfloat>
#include <cmath>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuMath = CpuKernelTest;

/// Where a case draws its inputs.
struct Domain {
  double Lo, Hi;
  /// Log-uniform in [Lo, Hi] (0 < Lo): every binade alike.
  bool Binades = false;
};

/// \p Edges puts ±0, ±inf, NaN and ±1 at the front.
template <typename T>
std::vector<T> draw(size_t N, std::mt19937 &Rng, Domain D, bool Edges) {
  std::vector<T> V(N);
  if (D.Binades) {
    std::uniform_real_distribution<double> E(std::log2(D.Lo), std::log2(D.Hi));
    for (T &X : V)
      X = T(std::exp2(E(Rng)));
  } else {
    std::uniform_real_distribution<double> U(D.Lo, D.Hi);
    for (T &X : V)
      X = T(U(Rng));
  }
  if (Edges) {
    const T S[] = {T(0), -T(0), T(INFINITY), -T(INFINITY), T(NAN), T(1), T(-1)};
    std::copy(std::begin(S), std::end(S), V.begin());
  }
  return V;
}

constexpr double Pi = 3.14159265358979323846;
constexpr double Relaxed = 8192; // half_* in the table; native_*: see above

struct UnaryCase {
  int Op; ///< unary_op's case in math.cl
  const char *Name;
  double (*Ref)(double);
  double SpecUlp;
  Domain In;
  bool Edges = false;
};

TEST_F(CpuMath, UnaryFunctionsOnFloat8) {
  const Domain Wide{-1000, 1000}, Positive{1e-37, 1e37, true};
  // clang-format off
  const UnaryCase Cases[] = {
      {0, "exp", [](double X) { return std::exp(X); }, 3, {-87, 88}, true},
      {1, "exp2", [](double X) { return std::exp2(X); }, 3, {-126, 127}, true},
      {2, "exp10", [](double X) { return std::pow(10.0, X); }, 3, {-37, 38},
       true},
      {3, "log", [](double X) { return std::log(X); }, 3, Positive, true},
      {4, "log2", [](double X) { return std::log2(X); }, 3, Positive, true},
      {5, "log10", [](double X) { return std::log10(X); }, 3, Positive, true},
      {6, "sin", [](double X) { return std::sin(X); }, 4, Wide, true},
      {7, "cos", [](double X) { return std::cos(X); }, 4, Wide, true},
      {8, "tan", [](double X) { return std::tan(X); }, 5, Wide, true},
      {9, "sqrt", [](double X) { return std::sqrt(X); }, 3, Positive, true},
      {10, "rsqrt", [](double X) { return 1 / std::sqrt(X); }, 2, Positive,
       true},
      {11, "asin", [](double X) { return std::asin(X); }, 4, {-1, 1}, true},
      {12, "acos", [](double X) { return std::acos(X); }, 4, {-1, 1}, true},
      {13, "atan", [](double X) { return std::atan(X); }, 5, Wide, true},
      {14, "sinh", [](double X) { return std::sinh(X); }, 4, {-88, 88}, true},
      {15, "cosh", [](double X) { return std::cosh(X); }, 4, {-88, 88}, true},
      {16, "tanh", [](double X) { return std::tanh(X); }, 5, {-10, 10}, true},
      {17, "fabs", [](double X) { return std::fabs(X); }, 0, Wide, true},
      {18, "floor", [](double X) { return std::floor(X); }, 0, Wide, true},
      {19, "ceil", [](double X) { return std::ceil(X); }, 0, Wide, true},
      {20, "trunc", [](double X) { return std::trunc(X); }, 0, Wide, true},
      {21, "round", [](double X) { return std::round(X); }, 0, Wide, true},
      {22, "rint", [](double X) { return std::rint(X); }, 0, Wide, true},
      // 1, -1, the zeros as they are, and 0 for NaN.
      {23, "sign",
       [](double X) { return X > 0 ? 1.0 : X < 0 ? -1.0 : X == 0 ? X : 0.0; },
       0, {-10, 10}, true},
      {24, "degrees", [](double X) { return X * (180 / Pi); }, 2, Wide, true},
      {25, "radians", [](double X) { return X * (Pi / 180); }, 2, Wide, true},
      {26, "native_exp", [](double X) { return std::exp(X); }, Relaxed,
       {-80, 80}},
      {27, "native_exp2", [](double X) { return std::exp2(X); }, Relaxed,
       {-120, 120}},
      {28, "native_exp10", [](double X) { return std::pow(10.0, X); }, Relaxed,
       {-35, 35}},
      {29, "native_log", [](double X) { return std::log(X); }, Relaxed,
       Positive},
      {30, "native_log2", [](double X) { return std::log2(X); }, Relaxed,
       Positive},
      {31, "native_log10", [](double X) { return std::log10(X); }, Relaxed,
       Positive},
      {32, "native_sin", [](double X) { return std::sin(X); }, Relaxed,
       {-10, 10}},
      {33, "native_cos", [](double X) { return std::cos(X); }, Relaxed,
       {-10, 10}},
      {34, "native_tan", [](double X) { return std::tan(X); }, Relaxed,
       {-10, 10}},
      {35, "native_sqrt", [](double X) { return std::sqrt(X); }, Relaxed,
       Positive},
      {36, "native_rsqrt", [](double X) { return 1 / std::sqrt(X); }, Relaxed,
       Positive},
      {37, "native_recip", [](double X) { return 1 / X; }, Relaxed, Positive},
      {38, "half_exp", [](double X) { return std::exp(X); }, Relaxed,
       {-80, 80}},
      {39, "half_log", [](double X) { return std::log(X); }, Relaxed, Positive},
      // half_sin and half_cos: |x| <= 2^16.
      {40, "half_sin", [](double X) { return std::sin(X); }, Relaxed, Wide},
      {41, "half_cos", [](double X) { return std::cos(X); }, Relaxed, Wide},
      {42, "half_sqrt", [](double X) { return std::sqrt(X); }, Relaxed,
       Positive},
      {43, "half_rsqrt", [](double X) { return 1 / std::sqrt(X); }, Relaxed,
       Positive},
  };
  // clang-format on
  const uint32_t N = 1024, L = 64; // float8 elements
  for (const UnaryCase &C : Cases) {
    SCOPED_TRACE(C.Name);
    auto X = draw<float>(8 * N, Rng, C.In, C.Edges);
    KernelRun R("math", "unary", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(X).buffer(std::vector<float>(8 * N), ulps(C.SpecUlp)).scalar(C.Op);
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < 8 * N; ++I)
        Out.buffer<float>(1)[I] = float(C.Ref(X[I]));
    };
    check(R);
  }
}

struct BinaryCase {
  int Op; ///< binary_op's case in math.cl
  const char *Name;
  double (*Ref)(double, double);
  double SpecUlp;
  Domain X, Y;
  bool Edges = false; ///< In x; y stays in its domain.
};

TEST_F(CpuMath, BinaryFunctionsOnFloat4) {
  const Domain Unit{-1, 1}, Ten{-10, 10}, Thousand{-1000, 1000};
  const Domain Bases{1e-3, 1e3, true};
  // clang-format off
  const BinaryCase Cases[] = {
      {0, "pow", [](double X, double Y) { return std::pow(X, Y); }, 16, Bases,
       Ten, true},
      {1, "powr", [](double X, double Y) { return std::pow(X, Y); }, 16, Bases,
       Ten},
      {2, "atan2", [](double X, double Y) { return std::atan2(X, Y); }, 6, Ten,
       Ten, true},
      {3, "hypot", [](double X, double Y) { return std::hypot(X, Y); }, 4,
       Thousand, Thousand, true},
      {4, "fmod", [](double X, double Y) { return std::fmod(X, Y); }, 0,
       {-100, 100}, Ten, true},
      {5, "fmin", [](double X, double Y) { return std::fmin(X, Y); }, 0, Unit,
       Unit, true},
      {6, "fmax", [](double X, double Y) { return std::fmax(X, Y); }, 0, Unit,
       Unit, true},
      {7, "copysign", [](double X, double Y) { return std::copysign(X, Y); }, 0,
       Ten, Ten, true},
      {8, "fdim", [](double X, double Y) { return std::fdim(X, Y); }, 0, Ten,
       Ten, true},
      {9, "divide", [](double X, double Y) { return X / Y; }, 2.5, Thousand,
       Ten, true},
      {10, "native_divide", [](double X, double Y) { return X / Y; }, Relaxed,
       Thousand, Ten},
      {11, "native_powr", [](double X, double Y) { return std::pow(X, Y); },
       Relaxed, Bases, Ten},
      {12, "step", [](double E, double X) { return X < E ? 0.0 : 1.0; }, 0,
       Unit, Unit, true},
      {13, "min", [](double X, double Y) { return std::fmin(X, Y); }, 0, Unit,
       Unit},
      {14, "max", [](double X, double Y) { return std::fmax(X, Y); }, 0, Unit,
       Unit},
  };
  // clang-format on
  const uint32_t N = 1024, L = 64; // float4 elements
  for (const BinaryCase &C : Cases) {
    SCOPED_TRACE(C.Name);
    auto X = draw<float>(4 * N, Rng, C.X, C.Edges);
    auto Y = draw<float>(4 * N, Rng, C.Y, false);
    if (C.Op == 0) {
      // Negative bases with whole exponents, odd and even.
      for (int I = 0; I < 8; ++I) {
        X[8 + I] = -0.75f * float(I + 1);
        Y[8 + I] = float(I - 4);
      }
    }
    if (C.Op == 3) {
      // Squares that overflow or underflow float: hypot must not.
      const float Big[] = {1e30f, -3e37f, 1e-30f, 3e-38f};
      for (int I = 0; I < 4; ++I) {
        X[8 + I] = Big[I];
        Y[8 + I] = Big[3 - I] * (I % 2 ? 1.0f : -2.0f);
      }
    }
    KernelRun R("math", "binary", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(X)
        .buffer(Y)
        .buffer(std::vector<float>(4 * N), ulps(C.SpecUlp))
        .scalar(C.Op);
    if (C.Op == 12)
      R.gpusDiffer("step with a NaN edge: 1 here (x < NaN is false), 0 from Intel's "
                   "OpenCL CPU runtime (SKMD's OpenCL device)");
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < 4 * N; ++I)
        Out.buffer<float>(2)[I] = float(C.Ref(X[I], Y[I]));
    };
    check(R);
  }
  // min and max of a vector and a scalar (the scalar y.x and y.w).
  for (int Op : {15, 16}) {
    SCOPED_TRACE(Op == 15 ? "min(float4, float)" : "max(float4, float)");
    auto X = draw<float>(4 * N, Rng, Unit, true);
    auto Y = draw<float>(4 * N, Rng, Unit, false);
    KernelRun R("math", "binary", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(X).buffer(Y).buffer(std::vector<float>(4 * N), ulps(0)).scalar(Op);
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < 4 * N; ++I) {
        float S = Y[I / 4 * 4 + (Op == 15 ? 0 : 3)];
        Out.buffer<float>(2)[I] = Op == 15 ? std::fmin(X[I], S) : std::fmax(X[I], S);
      }
    };
    check(R);
  }
}

TEST_F(CpuMath, TernaryFunctions) {
  const uint32_t N = 4096, L = 64;
  auto Run = [&](int Op, const std::vector<float> &A,
                 const std::vector<float> &B, const std::vector<float> &C,
                 Check Rule, double (*Ref)(float, float, float)) {
    KernelRun R("math", "ternary", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(A)
        .buffer(B)
        .buffer(C)
        .buffer(std::vector<float>(N), Rule)
        .scalar(Op);
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < N; ++I)
        Out.buffer<float>(3)[I] = float(Ref(A[I], B[I], C[I]));
    };
    check(R);
  };
  auto A = randomFloats(N, Rng), B = randomFloats(N, Rng),
       C = randomFloats(N, Rng);
  {
    SCOPED_TRACE("fma");
    // Correctly rounded: fmaf is, where fma in double then float would
    // round twice.
    Run(0, A, B, C, exact(),
        [](float X, float Y, float Z) { return double(std::fmaf(X, Y, Z)); });
  }
  {
    SCOPED_TRACE("mad");
    // mad may be fused or not. With 12-bit significands a * b is exact and
    // both are one rounding of a * b + c, so the result is exact.
    auto A12 = dyadicFloats(N, Rng, 11), B12 = dyadicFloats(N, Rng, 11);
    Run(1, A12, B12, C, exact(),
        [](float X, float Y, float Z) { return double(X * Y + Z); });
  }
  {
    SCOPED_TRACE("clamp");
    std::vector<float> Lo(N), Hi(N);
    for (uint32_t I = 0; I < N; ++I) {
      Lo[I] = std::min(B[I], C[I]);
      Hi[I] = std::max(B[I], C[I]);
    }
    Run(2, A, Lo, Hi, exact(), [](float X, float Lo, float Hi) {
      return double(std::fmin(std::fmax(X, Lo), Hi));
    });
  }
  {
    SCOPED_TRACE("mix");
    auto T = randomFloats(N, Rng, 0.0f, 1.0f);
    // The table's absolute tolerance for mix.
    Run(3, A, B, T, absolute(1e-3), [](float X, float Y, float T) {
      return double(X) + (double(Y) - X) * T;
    });
  }
  {
    SCOPED_TRACE("smoothstep");
    auto E0 = randomFloats(N, Rng, -1.0f, -0.1f),
         E1 = randomFloats(N, Rng, 0.1f, 1.0f);
    auto X = randomFloats(N, Rng, -1.5f, 1.5f);
    // The table's absolute tolerance for smoothstep.
    Run(4, E0, E1, X, absolute(1e-5), [](float E0, float E1, float X) {
      double T =
          std::min(1.0, std::max(0.0, (double(X) - E0) / (double(E1) - E0)));
      return T * T * (3 - 2 * T);
    });
  }
}

/// The geometric functions' bounds in the table, for width n and inputs in
/// [-1, 1] (so the "max * max" of dot's and cross's is at most 1).
TEST_F(CpuMath, GeometricFunctions) {
  const uint32_t N = 1024, L = 64;
  for (int Width : {3, 4}) {
    SCOPED_TRACE("float" + std::to_string(Width));
    const int Stride = Width; // float3 packed by vload3, float4 as it is
    auto A = randomFloats(Stride * N, Rng), B = randomFloats(Stride * N, Rng);
    KernelRun R("math", Width == 4 ? "geometry4" : "geometry3",
                launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(A)
        .buffer(B)
        .buffer(std::vector<float>(N), absolute((2 * Width - 1) * FLT_EPSILON))
        .buffer(std::vector<float>(N), ulps(2.75 + 0.5 * Width))
        .buffer(std::vector<float>(N), ulps(2.5 + 2 * Width))
        .buffer(std::vector<float>(Stride * N), absolute(3 * FLT_EPSILON))
        .buffer(std::vector<float>(Stride * N), ulps(2 + Width));
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < N; ++I) {
        const float *P = &A[Stride * I], *Q = &B[Stride * I];
        double Dot = 0, Len2 = 0, Dist2 = 0;
        for (int K = 0; K < Width; ++K) {
          Dot += double(P[K]) * Q[K];
          Len2 += double(P[K]) * P[K];
          double D = double(P[K]) - Q[K];
          Dist2 += D * D;
        }
        Out.buffer<float>(2)[I] = float(Dot);
        Out.buffer<float>(3)[I] = float(std::sqrt(Len2));
        Out.buffer<float>(4)[I] = float(std::sqrt(Dist2));
        double Cross[4] = {double(P[1]) * Q[2] - double(P[2]) * Q[1],
                           double(P[2]) * Q[0] - double(P[0]) * Q[2],
                           double(P[0]) * Q[1] - double(P[1]) * Q[0], 0};
        for (int K = 0; K < Width; ++K) {
          Out.buffer<float>(5)[Stride * I + K] = float(Cross[K]);
          Out.buffer<float>(6)[Stride * I + K] = float(P[K] / std::sqrt(Len2));
        }
      }
    };
    check(R);
  }
}

TEST_F(CpuMath, HalfFunctionsOnFloat) {
  const char *Names[] = {"half_exp2", "half_exp10", "half_log2",   "half_log10",
                         "half_tan",  "half_recip", "half_divide", "half_powr"};
  double (*Refs[])(double, double) = {
      [](double X, double) { return std::exp2(X); },
      [](double X, double) { return std::pow(10.0, X); },
      [](double X, double) { return std::log2(X); },
      [](double X, double) { return std::log10(X); },
      [](double X, double) { return std::tan(X); },
      [](double X, double) { return 1 / X; },
      [](double X, double Y) { return X / Y; },
      [](double X, double Y) { return std::pow(X, Y); }};
  const uint32_t N = 2048, L = 64;
  auto X = randomFloats(N, Rng, 0.5f, 10.0f),
       Y = randomFloats(N, Rng, 0.5f, 10.0f);
  for (int Op = 0; Op < 8; ++Op) {
    SCOPED_TRACE(Names[Op]);
    KernelRun R("math", "half_rest", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(X)
        .buffer(Y)
        .buffer(std::vector<float>(N), ulps(Relaxed))
        .scalar(Op);
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < N; ++I)
        Out.buffer<float>(2)[I] = float(Refs[Op](X[I], Y[I]));
    };
    check(R);
  }
}

TEST_F(CpuMath, DoubleArithmeticIsCorrectlyRounded) {
  const uint32_t N = 512, L = 64;
  auto A = randomDoubles(4 * N, Rng, -1000, 1000),
       B = randomDoubles(4 * N, Rng, -1000, 1000);
  KernelRun R("doubles", "double_arith", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  // +, -, *, /, sqrt and fma are correctly rounded in double: exact.
  R.buffer(A).buffer(B).buffer(std::vector<double>(10 * N));
  R.Reference = [&](Args &Out) {
    View<double> O = Out.buffer<double>(2);
    for (uint32_t I = 0; I < N; ++I) {
      double X = A[I], Y = B[I], Q = X / Y;
      double Row[6] = {
          X + Y, X - Y, X * Y, Q, std::sqrt(std::fabs(X)), std::fma(X, Y, Q)};
      std::copy(Row, Row + 6, &O[6 * I]);
      for (int K = 0; K < 4; ++K) {
        double S = A[4 * I + K] * B[4 * I + K];
        O[6 * N + 4 * I + K] = S - A[4 * I + K];
      }
    }
  };
  check(R);
}

TEST_F(CpuMath, KahanSumIsNotReassociated) {
  const int Rows = 64, Cols = 100, L = 16;
  // Magnitudes from 1e-8 to 1e8, so the compensation matters.
  std::vector<double> M = randomDoubles(Rows * Cols, Rng);
  auto Scales = randomInts<int>(Rows * Cols, Rng, -8, 8);
  for (int I = 0; I < Rows * Cols; ++I)
    M[I] *= std::pow(10.0, Scales[I]);
  KernelRun R("doubles", "kahan_rows", launch({Rows / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(M).buffer(std::vector<double>(Rows)).scalar(Cols);
  R.Reference = [&](Args &Out) {
    for (int Row = 0; Row < Rows; ++Row) {
      double S = 0, C = 0;
      for (int K = 0; K < Cols; ++K) {
        double Y = M[Row * Cols + K] - C;
        double T = S + Y;
        C = (T - S) - Y;
        S = T;
      }
      Out.buffer<double>(1)[Row] = S;
    }
  };
  check(R);
}

struct DoubleCase {
  int Op; ///< double_op's case in doubles.cl
  const char *Name;
  long double (*Ref)(long double, long double);
  double SpecUlp;
  Domain X, Y = {-10, 10};
};

TEST_F(CpuMath, DoubleFunctionsOnDouble2) {
  const Domain Wide{-1e4, 1e4}, Ten{-10, 10}, Positive{1e-300, 1e300, true};
  // clang-format off
  const DoubleCase Cases[] = {
      {0, "exp", [](long double X, long double) { return std::exp(X); }, 3,
       {-700, 700}},
      {1, "log", [](long double X, long double) { return std::log(X); }, 3,
       Positive},
      {2, "sin", [](long double X, long double) { return std::sin(X); }, 4,
       Wide},
      {3, "cos", [](long double X, long double) { return std::cos(X); }, 4,
       Wide},
      {4, "tan", [](long double X, long double) { return std::tan(X); }, 5,
       Wide},
      {5, "pow", [](long double X, long double Y) { return std::pow(X, Y); },
       16, {1e-3, 1e3, true}, {-50, 50}},
      {6, "atan2",
       [](long double X, long double Y) { return std::atan2(X, Y); }, 6, Ten,
       Ten},
      {7, "rsqrt", [](long double X, long double) { return 1 / std::sqrt(X); },
       2, Positive},
      // In double: IEEE's sqrt is correctly rounded there, while a long
      // double root rounded again to double is off by one ulp about once
      // in 2^11 (double rounding).
      {8, "sqrt",
       [](long double X, long double) -> long double {
         return std::sqrt(double(X));
       },
       0, Positive},
  };
  // clang-format on
  const uint32_t N = 1024, L = 64; // double2 elements
  for (const DoubleCase &C : Cases) {
    SCOPED_TRACE(C.Name);
    auto X = draw<double>(2 * N, Rng, C.X, false);
    auto Y = draw<double>(2 * N, Rng, C.Y, false);
    KernelRun R("doubles", "double_math", launch({N / L, 1, 1}, {L, 1, 1}, 1));
    R.buffer(X)
        .buffer(Y)
        .buffer(std::vector<double>(2 * N), ulps(C.SpecUlp))
        .scalar(C.Op);
    R.Reference = [&](Args &Out) {
      for (uint32_t I = 0; I < 2 * N; ++I)
        Out.buffer<double>(2)[I] = double(C.Ref(X[I], Y[I]));
    };
    check(R);
  }
}

// frexp on float2 and float4 with the exponents written into buffers, over
// normals, subnormals and zeros: mantissas and exponents exact.
TEST_F(CpuMath, FrexpOfVectorsIntoBuffers) {
  const uint32_t N = 256, L = 64; // float2 and float4 elements
  std::vector<float> X(2 * N), Y(4 * N);
  std::uniform_real_distribution<float> Mantissa(-1, 1);
  std::uniform_int_distribution<int> Exponent(-149, 127);
  auto Fill = [&](std::vector<float> &V) {
    for (float &F : V)
      F = std::ldexp(Mantissa(Rng), Exponent(Rng));
    V[0] = 0, V[1] = -0.0f, V[2] = FLT_TRUE_MIN, V[3] = -FLT_MIN;
  };
  Fill(X);
  Fill(Y);
  KernelRun R("math", "frexp_vectors", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(X).buffer(Y);
  R.buffer(std::vector<float>(2 * N)).buffer(std::vector<int32_t>(2 * N));
  R.buffer(std::vector<float>(4 * N)).buffer(std::vector<int32_t>(4 * N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < 2 * N; ++I)
      Out.buffer<float>(2)[I] = std::frexp(X[I], &Out.buffer<int32_t>(3)[I]);
    for (uint32_t I = 0; I < 4 * N; ++I)
      Out.buffer<float>(4)[I] = std::frexp(Y[I], &Out.buffer<int32_t>(5)[I]);
  };
  check(R);
}

} // namespace
