//===- CpuUlpTest.cpp - Math builtins' worst error vs OpenCL's bounds -----===//
//
// Every math builtin of test/corpus/ulp.cl (one per kernel, straight-line,
// so the work-item loop vectorizes as it does in programs) on the CPU, in
// float, float4, float8, float16, double and double4, over inputs drawn
// across its whole domain: random bit patterns (every binade, denormals,
// huge and negative values, infinities and NaNs), uniform draws over the
// interval that matters, points close to where the function is delicate
// (1 for log, the poles of tan, ...), and the special values. The error of
// each result is measured in ulp of the exact result, which glibc's double
// functions stand for in float and its long double ones in double; the
// worst is held to the bound of the OpenCL C 1.2 specification's tables
// (7.5.1). A NaN must come out for a NaN, an infinity with its sign for an
// infinity. The relaxed half_* and native_* forms are held to half_*'s
// 8192 ulp, on finite results of their inputs' ranges.
//
// The test prints each function's worst error per form (ctest -V).
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include "bundle/Bundle.h"
#include "devices/cpu/HostCpu.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace skmd;
using namespace skmd::test;

namespace {

constexpr double Relaxed = 8192;
/// lgamma's bound in the table: undefined (measured, not held).
constexpr double Undefined = INFINITY;

/// Samples per function and form: enough for rare bad cases to show, few
/// enough for seconds in all.
constexpr size_t FloatSamples = 1 << 18, DoubleSamples = 1 << 15;

/// Where a function's inputs come from: an interval that matters, points
/// near which it is delicate, and whether random bit patterns and special
/// values belong (not for the relaxed forms, whose range is their own).
struct Domain {
  double Lo = -10, Hi = 10;
  std::vector<double> Near = {0};
  bool Everything = true;
};

enum class Operands { One, Two, WithInt };

struct Function {
  template <typename Ref>
  Function(const char *Name, Operands Ops, Ref R, double FloatUlp,
           double DoubleUlp, Domain X, Domain Y = {})
      : Name(Name), Ops(Ops), InFloat(R), InDouble(R), FloatUlp(FloatUlp),
        DoubleUlp(DoubleUlp), X(std::move(X)), Y(std::move(Y)) {}

  const char *Name;
  Operands Ops;
  double (*InFloat)(double, double);
  long double (*InDouble)(long double, long double);
  double FloatUlp, DoubleUlp; ///< DoubleUlp < 0: a float-only builtin.
  Domain X, Y;
};

/// Ulp of the exact result \p Ref in T (its spacing at |Ref|; the smallest
/// denormal's below the normal range).
template <typename T> long double ulpAt(long double Ref) {
  constexpr int Digits = std::numeric_limits<T>::digits;
  constexpr int MinExp = std::numeric_limits<T>::min_exponent;
  int E = 0;
  if (Ref != 0)
    std::frexp(Ref, &E);
  return std::ldexp(1.0L, std::max(E, MinExp) - Digits);
}

/// The error of \p Got in ulp of \p Ref; infinite for a wrong special value.
template <typename T> double ulpError(T Got, long double Ref) {
  if (std::isnan(Ref) || std::isnan(Got))
    return std::isnan(Ref) && std::isnan(Got) ? 0 : INFINITY;
  // Where the exact result is beyond T's range, its rounding is infinite.
  long double Rounded = static_cast<T>(Ref);
  if (std::isinf(Rounded) || std::isinf(Got))
    return Got == Rounded ? 0 : INFINITY;
  return double(std::fabs(Got - Ref) / ulpAt<T>(Ref));
}

template <typename T> class Inputs {
public:
  Inputs(std::mt19937 &Rng, const Domain &D, bool Int = false)
      : Rng(Rng), D(D), Int(Int) {}

  std::vector<T> draw(size_t N) {
    std::vector<T> V;
    V.reserve(N);
    if (D.Everything && !Int)
      for (T S : specials())
        V.push_back(S);
    for (size_t I = V.size(); I < N; ++I)
      V.push_back(one(I));
    return V;
  }

private:
  std::vector<T> specials() const {
    using L = std::numeric_limits<T>;
    std::vector<T> S = {T(0),         -T(0),       L::infinity(), -L::infinity(),
                        L::quiet_NaN(), T(1),       T(-1),         T(0.5),
                        T(2),          L::min(),    -L::min(),     L::denorm_min(),
                        -L::denorm_min(), L::max(), -L::max(),     T(D.Lo),
                        T(D.Hi)};
    for (double P : D.Near)
      S.push_back(T(P));
    return S;
  }

  T one(size_t I) {
    std::uniform_real_distribution<double> U(0, 1);
    if (Int) {
      // Small exponents and roots, now and then a large one.
      std::uniform_int_distribution<int> Small(-20, 20), Large(-1000, 1000);
      return T(I % 8 ? Small(Rng) : Large(Rng));
    }
    if (!D.Everything) {
      // Across the binades of a positive range, else uniformly.
      if (D.Lo > 0)
        return T(std::exp2(std::log2(D.Lo) + std::log2(D.Hi / D.Lo) * U(Rng)));
      return T(D.Lo + (D.Hi - D.Lo) * U(Rng));
    }
    switch (I % 4) {
    case 0: {
      using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      Bits B = std::uniform_int_distribution<Bits>()(Rng);
      T X;
      std::memcpy(&X, &B, sizeof(T));
      return X;
    }
    case 1:
    case 3:
      return T(D.Lo + (D.Hi - D.Lo) * U(Rng));
    default: {
      // A point of Near, moved by a relative 2^-k (an absolute one at 0),
      // k in [1, 60]: down to where T no longer tells them apart.
      double P = D.Near[std::uniform_int_distribution<size_t>(0, D.Near.size() - 1)(Rng)];
      int K = std::uniform_int_distribution<int>(1, 60)(Rng);
      double Step = std::ldexp(std::max(1.0, std::fabs(P)), -K);
      return T(U(Rng) < 0.5 ? P - Step : P + Step);
    }
    }
  }

  std::mt19937 &Rng;
  const Domain &D;
  bool Int;
};

/// rootn as the specification defines it at 0 and for negative x.
template <typename R> R rootn(R X, R N) {
  if (N == 0 || (X < 0 && std::fmod(N, R(2)) == 0))
    return std::numeric_limits<R>::quiet_NaN();
  bool Odd = std::fmod(N, R(2)) != 0;
  if (X == 0) {
    R Zero = Odd ? X : R(0);
    return N < 0 ? 1 / Zero : Zero;
  }
  if (X < 0)
    return -std::pow(-X, 1 / N);
  return std::pow(X, 1 / N);
}

/// powr: pow of x >= 0 (-0 as +0), NaN for any NaN and where pow picks a
/// limit.
template <typename R> R powr(R X, R Y) {
  if (X < 0 || std::isnan(X) || std::isnan(Y) || (X == 0 && Y == 0) ||
      (std::isinf(X) && Y == 0) || (X == 1 && std::isinf(Y)))
    return std::numeric_limits<R>::quiet_NaN();
  return std::pow(std::fabs(X), Y);
}

const std::vector<Function> &functions() {
  using O = Operands;
  const Domain Exp{-100, 100}, Exp2{-150, 130}, Exp10{-45, 39},
      Log{0, 1000, {0, 1, 2}}, Positive{0, 1000, {0, 1}},
      Trig{-1e4, 1e4, {0, 1.5707963267948966, 3.141592653589793, 4.71238898038469}},
      Unit{-1, 1, {-1, 0, 1}}, Hyper{-90, 90}, Wide{-1e6, 1e6, {0, 1, -1}},
      Acosh{1, 1000, {1}}, Gamma{-30, 36, {0, -1, -2, -2.5, 1, 2}},
      Erfc{-10, 30}, Bases{0, 100, {0, 1}}, Powers{-40, 40, {0, 1, 2, 3, -1, -2, -3}},
      Ten{-10, 10, {0, 1, -1}};
  auto RelaxedIn = [](double Lo, double Hi) { return Domain{Lo, Hi, {}, false}; };
  // clang-format off
  static const std::vector<Function> Fs = {
    {"exp", O::One, [](auto X, auto) { return std::exp(X); }, 3, 3, Exp},
    {"exp2", O::One, [](auto X, auto) { return std::exp2(X); }, 3, 3, Exp2},
    {"exp10", O::One, [](auto X, auto) { return std::pow(decltype(X)(10), X); }, 3, 3, Exp10},
    {"expm1", O::One, [](auto X, auto) { return std::expm1(X); }, 3, 3, Exp},
    {"log", O::One, [](auto X, auto) { return std::log(X); }, 3, 3, Log},
    {"log2", O::One, [](auto X, auto) { return std::log2(X); }, 3, 3, Log},
    {"log10", O::One, [](auto X, auto) { return std::log10(X); }, 3, 3, Log},
    {"log1p", O::One, [](auto X, auto) { return std::log1p(X); }, 2, 2, Domain{-1, 1000, {-1, 0}}},
    // Correctly rounded in double; in float the table allows 3 ulp.
    {"sqrt", O::One, [](auto X, auto) { return std::sqrt(X); }, 3, 0, Positive},
    {"rsqrt", O::One, [](auto X, auto) { return 1 / std::sqrt(X); }, 2, 2, Positive},
    {"cbrt", O::One, [](auto X, auto) { return std::cbrt(X); }, 2, 2, Wide},
    {"sin", O::One, [](auto X, auto) { return std::sin(X); }, 4, 4, Trig},
    {"cos", O::One, [](auto X, auto) { return std::cos(X); }, 4, 4, Trig},
    {"tan", O::One, [](auto X, auto) { return std::tan(X); }, 5, 5, Trig},
    {"asin", O::One, [](auto X, auto) { return std::asin(X); }, 4, 4, Unit},
    {"acos", O::One, [](auto X, auto) { return std::acos(X); }, 4, 4, Unit},
    {"atan", O::One, [](auto X, auto) { return std::atan(X); }, 5, 5, Wide},
    {"sinh", O::One, [](auto X, auto) { return std::sinh(X); }, 4, 4, Hyper},
    {"cosh", O::One, [](auto X, auto) { return std::cosh(X); }, 4, 4, Hyper},
    {"tanh", O::One, [](auto X, auto) { return std::tanh(X); }, 5, 5, Ten},
    {"asinh", O::One, [](auto X, auto) { return std::asinh(X); }, 4, 4, Wide},
    {"acosh", O::One, [](auto X, auto) { return std::acosh(X); }, 4, 4, Acosh},
    {"atanh", O::One, [](auto X, auto) { return std::atanh(X); }, 5, 5, Unit},
    {"erf", O::One, [](auto X, auto) { return std::erf(X); }, 16, 16, Ten},
    {"erfc", O::One, [](auto X, auto) { return std::erfc(X); }, 16, 16, Erfc},
    {"tgamma", O::One, [](auto X, auto) { return std::tgamma(X); }, 16, 16, Gamma},
    {"lgamma", O::One, [](auto X, auto) { return std::lgamma(X); }, Undefined, Undefined, Gamma},
    {"pow", O::Two, [](auto X, auto Y) { return std::pow(X, Y); }, 16, 16, Bases, Powers},
    {"powr", O::Two, [](auto X, auto Y) { return powr(X, Y); }, 16, 16, Bases, Powers},
    {"pown", O::WithInt, [](auto X, auto N) { return std::pow(X, N); }, 16, 16, Ten},
    {"rootn", O::WithInt, [](auto X, auto N) { return rootn(X, N); }, 16, 16, Wide},
    {"atan2", O::Two, [](auto Y, auto X) { return std::atan2(Y, X); }, 6, 6, Ten, Ten},
    {"hypot", O::Two, [](auto X, auto Y) { return std::hypot(X, Y); }, 4, 4, Wide, Wide},
    {"fmod", O::Two, [](auto X, auto Y) { return std::fmod(X, Y); }, 0, 0, Wide, Ten},
    {"remainder", O::Two, [](auto X, auto Y) { return std::remainder(X, Y); }, 0, 0, Wide, Ten},
    {"divide", O::Two, [](auto X, auto Y) { return X / Y; }, 2.5, 0, Wide, Wide},
    {"half_exp", O::One, [](auto X, auto) { return std::exp(X); }, Relaxed, -1, RelaxedIn(-80, 80)},
    {"half_exp2", O::One, [](auto X, auto) { return std::exp2(X); }, Relaxed, -1, RelaxedIn(-120, 120)},
    {"half_exp10", O::One, [](auto X, auto) { return std::pow(decltype(X)(10), X); }, Relaxed, -1, RelaxedIn(-35, 35)},
    {"half_log", O::One, [](auto X, auto) { return std::log(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"half_log2", O::One, [](auto X, auto) { return std::log2(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"half_log10", O::One, [](auto X, auto) { return std::log10(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"half_sqrt", O::One, [](auto X, auto) { return std::sqrt(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"half_rsqrt", O::One, [](auto X, auto) { return 1 / std::sqrt(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"half_recip", O::One, [](auto X, auto) { return 1 / X; }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    // half_sin, half_cos and half_tan: |x| <= 2^16.
    {"half_sin", O::One, [](auto X, auto) { return std::sin(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"half_cos", O::One, [](auto X, auto) { return std::cos(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"half_tan", O::One, [](auto X, auto) { return std::tan(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"half_divide", O::Two, [](auto X, auto Y) { return X / Y; }, Relaxed, -1, RelaxedIn(-1e30, 1e30), RelaxedIn(1e-20, 1e20)},
    {"half_powr", O::Two, [](auto X, auto Y) { return std::pow(X, Y); }, Relaxed, -1, RelaxedIn(1e-3, 1e3), RelaxedIn(-10, 10)},
    {"native_exp", O::One, [](auto X, auto) { return std::exp(X); }, Relaxed, -1, RelaxedIn(-80, 80)},
    {"native_exp2", O::One, [](auto X, auto) { return std::exp2(X); }, Relaxed, -1, RelaxedIn(-120, 120)},
    {"native_exp10", O::One, [](auto X, auto) { return std::pow(decltype(X)(10), X); }, Relaxed, -1, RelaxedIn(-35, 35)},
    {"native_log", O::One, [](auto X, auto) { return std::log(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_log2", O::One, [](auto X, auto) { return std::log2(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_log10", O::One, [](auto X, auto) { return std::log10(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_sqrt", O::One, [](auto X, auto) { return std::sqrt(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_rsqrt", O::One, [](auto X, auto) { return 1 / std::sqrt(X); }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_recip", O::One, [](auto X, auto) { return 1 / X; }, Relaxed, -1, RelaxedIn(1e-30, 1e30)},
    {"native_sin", O::One, [](auto X, auto) { return std::sin(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"native_cos", O::One, [](auto X, auto) { return std::cos(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"native_tan", O::One, [](auto X, auto) { return std::tan(X); }, Relaxed, -1, RelaxedIn(-65536, 65536)},
    {"native_divide", O::Two, [](auto X, auto Y) { return X / Y; }, Relaxed, -1, RelaxedIn(-1e30, 1e30), RelaxedIn(1e-20, 1e20)},
    {"native_powr", O::Two, [](auto X, auto Y) { return std::pow(X, Y); }, Relaxed, -1, RelaxedIn(1e-3, 1e3), RelaxedIn(-10, 10)},
  };
  // clang-format on
  return Fs;
}

/// The x86 variant of test/corpus/ulp.cl, loaded once.
class BuiltinUlp : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto B = Bundle::fromFile(corpusDir() + "/ulp.skmd");
    if (!B.ok())
      failHarness(B.error().message());
    Source = new Bundle(std::move(*B));
    auto Lib = loadX86Variant(*Source);
    if (!Lib.ok())
      failHarness(Lib.error().message());
    Variant = new SharedObject(std::move(*Lib));
  }
  static void TearDownTestSuite() {
    delete Variant;
    delete Source;
    Variant = nullptr;
    Source = nullptr;
  }

  /// Runs \p Kernel once over \p Items work-items, groups of 64, on
  /// \p Buffers (the kernel's arguments, in order).
  void run(const std::string &Kernel, uint64_t Items,
           const std::vector<void *> &Buffers) {
    const KernelInfo *K = Source->metadata().findKernel(Kernel);
    ASSERT_NE(K, nullptr) << "ulp.cl has no kernel " << Kernel;
    auto Sym = Variant->symbol(K->Symbols.at(TargetKind::X86).Kernel);
    ASSERT_TRUE(Sym.ok()) << Sym.error().message();
    std::vector<void *> Pointers = Buffers, Args;
    for (void *&P : Pointers)
      Args.push_back(&P);
    const uint64_t Local = 64;
    Status S = runWorkGroups(Pool, reinterpret_cast<skmd_wg_fn>(*Sym), Args,
                             std::vector<uint64_t>(Args.size(), 0),
                             launch({Items / Local, 1, 1}, {Local, 1, 1}, 1),
                             {K->Cpu.LocalMemBytes, K->Cpu.StateBytesPerItem}, 0,
                             Items / Local);
    ASSERT_TRUE(S.ok()) << S.error().message();
  }

  /// Measures \p F in T at every width of \p Widths against the
  /// reference; the worst error must be within \p Bound.
  template <typename T>
  void measure(const Function &F, double Bound, size_t N,
               std::initializer_list<int> Widths) {
    using Ref = std::conditional_t<sizeof(T) == 4, double, long double>;
    Inputs<T> XIn(Rng, F.X), YIn(Rng, F.Y, F.Ops == Operands::WithInt);
    std::vector<T> X = XIn.draw(N), Y = YIn.draw(N);
    std::vector<int> Ints(N);
    for (size_t I = 0; I < N; ++I)
      Ints[I] = int(Y[I]);
    std::vector<long double> Want(N);
    for (size_t I = 0; I < N; ++I) {
      Ref R = sizeof(T) == 4 ? F.InFloat(X[I], Y[I]) : F.InDouble(X[I], Y[I]);
      Want[I] = R;
    }
    const char *TypeName = sizeof(T) == 4 ? "float" : "double";
    for (int W : Widths) {
      std::string Kernel = std::string(F.Name) + "_" + TypeName +
                           (W > 1 ? std::to_string(W) : "");
      SCOPED_TRACE(Kernel);
      std::vector<T> Got(N);
      std::vector<void *> Buffers = {X.data()};
      if (F.Ops == Operands::Two)
        Buffers.push_back(Y.data());
      if (F.Ops == Operands::WithInt)
        Buffers.push_back(Ints.data());
      Buffers.push_back(Got.data());
      run(Kernel, N / W, Buffers);
      if (HasFatalFailure())
        return;
      double Worst = 0;
      size_t WorstAt = 0;
      for (size_t I = 0; I < N; ++I) {
        // The relaxed forms: finite results of their ranges only.
        if (!F.X.Everything && !std::isfinite(double(Want[I])))
          continue;
        double E = ulpError(Got[I], Want[I]);
        if (E > Worst || std::isnan(E)) {
          Worst = E;
          WorstAt = I;
        }
      }
      std::printf("%-14s %-8s max %8.3f ulp (bound %g)\n", F.Name,
                  (TypeName + (W > 1 ? std::to_string(W) : "")).c_str(), Worst,
                  Bound);
      // 0 in the table: correctly rounded, half an ulp from the exact.
      EXPECT_LE(Worst, std::max(Bound, 0.5))
          << Kernel << "(" << std::hexfloat << X[WorstAt]
          << (F.Ops == Operands::One ? "" : ", ")
          << (F.Ops == Operands::Two       ? std::to_string(double(Y[WorstAt]))
              : F.Ops == Operands::WithInt ? std::to_string(Ints[WorstAt])
                                           : "")
          << ") = " << Got[WorstAt] << ", exact " << double(Want[WorstAt])
          << std::defaultfloat;
    }
  }

  ThreadPool Pool{2};
  std::mt19937 Rng{11};
  static Bundle *Source;
  static SharedObject *Variant;
};

Bundle *BuiltinUlp::Source = nullptr;
SharedObject *BuiltinUlp::Variant = nullptr;

TEST_F(BuiltinUlp, EveryMathBuiltinWithinItsBound) {
  for (const Function &F : functions()) {
    measure<float>(F, F.FloatUlp, FloatSamples, {1, 4, 8, 16});
    if (F.DoubleUlp >= 0)
      measure<double>(F, F.DoubleUlp, DoubleSamples, {1, 4});
    if (HasFatalFailure())
      return;
  }
}

} // namespace
