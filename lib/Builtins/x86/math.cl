//===- math.cl - OpenCL math functions for SKMD's x86 variant -------------===//
//
// Each function maps to an LLVM intrinsic or libm call through Clang's
// elementwise builtins, which keeps vectors whole: after inlining into a
// work-group function the loop vectorizer widens them, and with the glibc
// vector math library (libmvec) exp, log, sin, cos, tan and pow (those
// LLVM maps to it) stay vectorized. libmvec is accurate to 4 ulp, beyond
// OpenCL's 3 for exp and log: those two are our own, float's evaluated in
// double. native_* and half_* forms use libmvec's float functions or share
// the full-precision implementations, which meet their (looser) bounds.
//
//===----------------------------------------------------------------------===//
#include "builtins.h"

#define UNARY_ELEMENTWISE(NAME, BUILTIN)                                       \
  OVL float NAME(float x) { return __builtin_elementwise_##BUILTIN(x); }       \
  OVL double NAME(double x) { return __builtin_elementwise_##BUILTIN(x); }     \
  UNARY_VEC(NAME, BUILTIN, float) UNARY_VEC(NAME, BUILTIN, double)
#define UNARY_VEC(NAME, BUILTIN, T)                                            \
  OVL T##2 NAME(T##2 x) { return __builtin_elementwise_##BUILTIN(x); }         \
  OVL T##3 NAME(T##3 x) { return __builtin_elementwise_##BUILTIN(x); }         \
  OVL T##4 NAME(T##4 x) { return __builtin_elementwise_##BUILTIN(x); }         \
  OVL T##8 NAME(T##8 x) { return __builtin_elementwise_##BUILTIN(x); }         \
  OVL T##16 NAME(T##16 x) { return __builtin_elementwise_##BUILTIN(x); }

#define UNARY_ALIASES(NAME, IMPL)                                              \
  OVL float NAME(float x) { return IMPL(x); }                                  \
  OVL float2 NAME(float2 x) { return IMPL(x); }                                \
  OVL float3 NAME(float3 x) { return IMPL(x); }                                \
  OVL float4 NAME(float4 x) { return IMPL(x); }                                \
  OVL float8 NAME(float8 x) { return IMPL(x); }                                \
  OVL float16 NAME(float16 x) { return IMPL(x); }

// Scalar implementations lane by lane: ALL_LANES(LANES_1, NAME, T, IMPL)
// defines NAME for T and its vectors from IMPL on one T.
#define LANES_1(NAME, T, N, IMPL)                                              \
  OVL T##N NAME(T##N x) { SKMD_LANEWISE(T##N, N, IMPL(x[i])) }
#define LANES_2(NAME, T, N, IMPL)                                              \
  OVL T##N NAME(T##N x, T##N y) { SKMD_LANEWISE(T##N, N, IMPL(x[i], y[i])) }
#define ALL_LANES(M, NAME, T, IMPL)                                            \
  OVL_SCALAR_##M(NAME, T, IMPL) M(NAME, T, 2, IMPL) M(NAME, T, 3, IMPL)        \
  M(NAME, T, 4, IMPL) M(NAME, T, 8, IMPL) M(NAME, T, 16, IMPL)
#define OVL_SCALAR_LANES_1(NAME, T, IMPL) OVL T NAME(T x) { return IMPL(x); }
#define OVL_SCALAR_LANES_2(NAME, T, IMPL)                                      \
  OVL T NAME(T x, T y) { return IMPL(x, y); }

// exp and log, branch-free so that the work-item loop vectorizes them
// without a call. float's evaluate in double, their results within 2^-30
// before the one rounding to float.
#define LN2_D 0.693147180559945309417232121458176568
// exp(x) = 2^k exp(r), r = x - k ln2 in [-ln2/2, ln2/2], exp(r) by its
// Taylor polynomial to r^10. |x| clamped to 200: 2^k stays a normal
// double, and the result still rounds to float's 0 or infinity.
static inline float exp_f(float xf) {
  double x = __builtin_fmin(__builtin_fmax((double)xf, -200.0), 200.0);
  double k = __builtin_rint(x * (1 / LN2_D));
  double r = __builtin_fma(-k, LN2_D, x);
  double p = 1.0 / 3628800;
  p = __builtin_fma(p, r, 1.0 / 362880);
  p = __builtin_fma(p, r, 1.0 / 40320);
  p = __builtin_fma(p, r, 1.0 / 5040);
  p = __builtin_fma(p, r, 1.0 / 720);
  p = __builtin_fma(p, r, 1.0 / 120);
  p = __builtin_fma(p, r, 1.0 / 24);
  p = __builtin_fma(p, r, 1.0 / 6);
  p = __builtin_fma(p, r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  p = __builtin_fma(p, r, 1.0);
  double scale = __builtin_astype((long)(k + 1023) << 52, double);
  return xf != xf ? xf : (float)(p * scale);
}
// log(x) = e ln2 + log(m), x = m 2^e with m in [sqrt(1/2), sqrt(2)), and
// log(m) = 2 atanh(s), s = (m - 1) / (m + 1), by its series to s^15.
// Denormal floats are normal doubles.
static inline float log_f(float xf) {
  double x = xf;
  long bits = __builtin_astype(x, long);
  double e = (double)((bits >> 52) - 1023);
  double m = __builtin_astype((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L, double);
  bool high = m > 1.41421356237309504880;
  m = high ? m * 0.5 : m;
  e = high ? e + 1 : e;
  double s = (m - 1) / (m + 1), z = s * s;
  double p = 2.0 / 15;
  p = __builtin_fma(p, z, 2.0 / 13);
  p = __builtin_fma(p, z, 2.0 / 11);
  p = __builtin_fma(p, z, 2.0 / 9);
  p = __builtin_fma(p, z, 2.0 / 7);
  p = __builtin_fma(p, z, 2.0 / 5);
  p = __builtin_fma(p, z, 2.0 / 3);
  p = __builtin_fma(p, z, 2.0);
  float r = (float)__builtin_fma(e, LN2_D, s * p);
  float inf = __builtin_inff();
  return xf > 0 && xf < inf ? r
         : xf == 0          ? -inf
         : xf == inf        ? inf
                            : __builtin_nanf("");
}
// double exp and log likewise, with ln2 split in two (ln2_hi has its low
// bits zero, so k ln2_hi is exact) and more terms; log as fdlibm arranges
// it, f - s (f - z T(z)) with f = m - 1 exact, so that the rounding
// errors fall on the small correction.
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
static inline double exp_d(double x) {
  double xc = __builtin_fmin(__builtin_fmax(x, -746.0), 710.0);
  double k = __builtin_rint(xc * (1 / LN2_D));
  double r = __builtin_fma(-k, LN2_LO, __builtin_fma(-k, LN2_HI, xc));
  double p = 1.0 / 6227020800;
  p = __builtin_fma(p, r, 1.0 / 479001600);
  p = __builtin_fma(p, r, 1.0 / 39916800);
  p = __builtin_fma(p, r, 1.0 / 3628800);
  p = __builtin_fma(p, r, 1.0 / 362880);
  p = __builtin_fma(p, r, 1.0 / 40320);
  p = __builtin_fma(p, r, 1.0 / 5040);
  p = __builtin_fma(p, r, 1.0 / 720);
  p = __builtin_fma(p, r, 1.0 / 120);
  p = __builtin_fma(p, r, 1.0 / 24);
  p = __builtin_fma(p, r, 1.0 / 6);
  p = __builtin_fma(p, r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  p = __builtin_fma(p, r, 1.0);
  // 2^k in two normal factors: k reaches -1076 and 1024.
  double k1 = __builtin_floor(k * 0.5), k2 = k - k1;
  double s1 = __builtin_astype((long)(k1 + 1023) << 52, double);
  double s2 = __builtin_astype((long)(k2 + 1023) << 52, double);
  return x != x ? x : p * s1 * s2;
}
static inline double log_d(double x) {
  // Denormals scaled into the normal range first.
  bool tiny = x < 0x1p-1022;
  double xs = tiny ? x * 0x1p54 : x;
  long bits = __builtin_astype(xs, long);
  double e = (double)((bits >> 52) - 1023) - (tiny ? 54 : 0);
  double m = __builtin_astype((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L, double);
  bool high = m > 1.41421356237309504880;
  m = high ? m * 0.5 : m;
  e = high ? e + 1 : e;
  double f = m - 1, s = f / (2 + f), z = s * s;
  double t = 2.0 / 23;
  t = __builtin_fma(t, z, 2.0 / 21);
  t = __builtin_fma(t, z, 2.0 / 19);
  t = __builtin_fma(t, z, 2.0 / 17);
  t = __builtin_fma(t, z, 2.0 / 15);
  t = __builtin_fma(t, z, 2.0 / 13);
  t = __builtin_fma(t, z, 2.0 / 11);
  t = __builtin_fma(t, z, 2.0 / 9);
  t = __builtin_fma(t, z, 2.0 / 7);
  t = __builtin_fma(t, z, 2.0 / 5);
  t = __builtin_fma(t, z, 2.0 / 3);
  double logm = f - s * __builtin_fma(-z, t, f);
  double r = __builtin_fma(e, LN2_HI, __builtin_fma(e, LN2_LO, logm));
  double inf = __builtin_inf();
  return x > 0 && x < inf ? r
         : x == 0         ? -inf
         : x == inf       ? inf
                          : __builtin_nan("");
}
ALL_LANES(LANES_1, exp, float, exp_f)
ALL_LANES(LANES_1, log, float, log_f)
ALL_LANES(LANES_1, exp, double, exp_d)
ALL_LANES(LANES_1, log, double, log_d)
UNARY_ELEMENTWISE(sin, sin)
UNARY_ELEMENTWISE(cos, cos)
UNARY_ELEMENTWISE(exp2, exp2)
UNARY_ELEMENTWISE(exp10, exp10)
UNARY_ELEMENTWISE(log2, log2)
UNARY_ELEMENTWISE(log10, log10)
UNARY_ELEMENTWISE(tan, tan)
UNARY_ELEMENTWISE(asin, asin)
UNARY_ELEMENTWISE(acos, acos)
UNARY_ELEMENTWISE(atan, atan)
UNARY_ELEMENTWISE(sinh, sinh)
UNARY_ELEMENTWISE(cosh, cosh)
UNARY_ELEMENTWISE(tanh, tanh)
UNARY_ELEMENTWISE(sqrt, sqrt)
UNARY_ELEMENTWISE(fabs, abs)
UNARY_ELEMENTWISE(floor, floor)
UNARY_ELEMENTWISE(ceil, ceil)
UNARY_ELEMENTWISE(trunc, trunc)
UNARY_ELEMENTWISE(round, round)
UNARY_ELEMENTWISE(rint, rint)

#define RSQRT(T) OVL T rsqrt(T x) { return (T)1 / sqrt(x); }
SKMD_ALL_WIDTHS(RSQRT, float)
SKMD_ALL_WIDTHS(RSQRT, double)

// libmvec's float functions, within the relaxed bounds.
#define FLOAT_ELEMENTWISE(NAME, BUILTIN)                                       \
  OVL float NAME(float x) { return __builtin_elementwise_##BUILTIN(x); }       \
  UNARY_VEC(NAME, BUILTIN, float)
FLOAT_ELEMENTWISE(native_exp, exp)
FLOAT_ELEMENTWISE(native_log, log)
FLOAT_ELEMENTWISE(native_sin, sin)
FLOAT_ELEMENTWISE(native_cos, cos)
FLOAT_ELEMENTWISE(half_exp, exp)
FLOAT_ELEMENTWISE(half_log, log)
FLOAT_ELEMENTWISE(half_sin, sin)
FLOAT_ELEMENTWISE(half_cos, cos)
UNARY_ALIASES(native_exp2, exp2)
UNARY_ALIASES(native_exp10, exp10)
UNARY_ALIASES(native_log2, log2)
UNARY_ALIASES(native_log10, log10)
UNARY_ALIASES(native_tan, tan)
UNARY_ALIASES(native_sqrt, sqrt)
UNARY_ALIASES(native_rsqrt, rsqrt)
UNARY_ALIASES(half_sqrt, sqrt)
UNARY_ALIASES(half_rsqrt, rsqrt)

#define NATIVE_RECIP(T) OVL T native_recip(T x) { return (T)1 / x; }
SKMD_ALL_WIDTHS(NATIVE_RECIP, float)

// Two and three operands, vector with vector, as OpenCL defines them.
#define BINARY(T)                                                              \
  OVL T pow(T x, T y) { return __builtin_elementwise_pow(x, y); }             \
  OVL T powr(T x, T y) {                                                      \
    /* pow of |x| (-0 counts as +0), but NaN where pow picks a limit. */      \
    T ax = __builtin_elementwise_abs(x), inf = (T)__builtin_inf();            \
    return (x < 0 | x != x | y != y | (x == 0 & y == 0) |                     \
            (ax == inf & y == 0) | (x == 1 & __builtin_elementwise_abs(y) == inf)) \
               ? (T)__builtin_nan("")                                         \
               : __builtin_elementwise_pow(ax, y);                            \
  }                                                                            \
  OVL T native_powr(T x, T y) { return __builtin_elementwise_pow(x, y); }     \
  OVL T atan2(T y, T x) { return __builtin_elementwise_atan2(y, x); }         \
  OVL T fmin(T x, T y) { return __builtin_elementwise_min(x, y); }            \
  OVL T fmax(T x, T y) { return __builtin_elementwise_max(x, y); }            \
  OVL T min(T x, T y) { return __builtin_elementwise_min(x, y); }             \
  OVL T max(T x, T y) { return __builtin_elementwise_max(x, y); }             \
  OVL T fmod(T x, T y) { return __builtin_elementwise_fmod(x, y); }           \
  OVL T copysign(T x, T y) { return __builtin_elementwise_copysign(x, y); }   \
  OVL T fdim(T x, T y) { return x > y ? x - y : x <= y ? (T)0 : x + y; }      \
  OVL T native_divide(T x, T y) { return x / y; }                             \
  OVL T fma(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }     \
  OVL T mad(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }     \
  OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                        \
  OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }              \
  OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                  \
  OVL T sign(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x == x ? x : (T)0; } \
  OVL T degrees(T r) { return r * (T)57.295779513082320876798154814105; }     \
  OVL T radians(T d) { return d * (T)0.017453292519943295769236907684886; }   \
  OVL T smoothstep(T e0, T e1, T x) {                                         \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                            \
    return t * t * ((T)3 - (T)2 * t);                                         \
  }
SKMD_ALL_WIDTHS(BINARY, float)
SKMD_ALL_WIDTHS(BINARY, double)

// A vector with scalars, as OpenCL also allows.
#define WITH_SCALARS(V, S)                                                     \
  OVL V fmin(V x, S y) { return fmin(x, (V)y); }                              \
  OVL V fmax(V x, S y) { return fmax(x, (V)y); }                              \
  OVL V min(V x, S y) { return min(x, (V)y); }                                \
  OVL V max(V x, S y) { return max(x, (V)y); }                                \
  OVL V clamp(V x, S lo, S hi) { return clamp(x, (V)lo, (V)hi); }             \
  OVL V mix(V x, V y, S a) { return mix(x, y, (V)a); }                        \
  OVL V step(S edge, V x) { return step((V)edge, x); }                        \
  OVL V smoothstep(S e0, S e1, V x) { return smoothstep((V)e0, (V)e1, x); }
SKMD_VECTOR_WIDTHS(WITH_SCALARS, float)
SKMD_VECTOR_WIDTHS(WITH_SCALARS, double)

// Geometric functions (2, 3 and 4 lanes, and scalars).
#define GEOMETRIC(T, S, SUM)                                                   \
  OVL S dot(T a, T b) {                                                        \
    T p = a * b;                                                               \
    return SUM;                                                                \
  }                                                                            \
  OVL S length(T a) { return sqrt(dot(a, a)); }                               \
  OVL S distance(T a, T b) { return length(a - b); }                          \
  OVL T normalize(T a) { return a * rsqrt(dot(a, a)); }                       \
  OVL S fast_length(T a) { return length(a); }                                \
  OVL T fast_normalize(T a) { return normalize(a); }
#define SUM2 p.x + p.y
#define SUM3 p.x + p.y + p.z
#define SUM4 (p.x + p.y) + (p.z + p.w)
GEOMETRIC(float2, float, SUM2)
GEOMETRIC(float3, float, SUM3)
GEOMETRIC(float4, float, SUM4)
GEOMETRIC(double2, double, SUM2)
GEOMETRIC(double3, double, SUM3)
GEOMETRIC(double4, double, SUM4)
OVL float dot(float a, float b) { return a * b; }
OVL float length(float a) { return fabs(a); }
OVL float distance(float a, float b) { return fabs(a - b); }
OVL float normalize(float a) { return a > 0 ? 1.0f : a < 0 ? -1.0f : a; }

#define CROSS(T)                                                               \
  OVL T cross(T a, T b) {                                                      \
    T r = a.yzxw * b.zxyw - a.zxyw * b.yzxw;                                   \
    r.w = 0;                                                                   \
    return r;                                                                  \
  }
CROSS(float4)
CROSS(double4)
OVL float3 cross(float3 a, float3 b) { return a.yzx * b.zxy - a.zxy * b.yzx; }
OVL double3 cross(double3 a, double3 b) { return a.yzx * b.zxy - a.zxy * b.yzx; }

// Functions with no LLVM intrinsic call glibc's libm (loaded by the CPU
// device) lane by lane; in a work-group loop the vectorizer sees the same
// scalar calls it would see in C.
#define LIBM_1(NAME)                                                           \
  ALL_LANES(LANES_1, NAME, float, __builtin_##NAME##f)                         \
  ALL_LANES(LANES_1, NAME, double, __builtin_##NAME)
#define LIBM_2(NAME)                                                           \
  ALL_LANES(LANES_2, NAME, float, __builtin_##NAME##f)                         \
  ALL_LANES(LANES_2, NAME, double, __builtin_##NAME)

LIBM_1(acosh)
LIBM_1(asinh)
LIBM_1(atanh)
// glibc's double cbrt is off by up to 3 ulp (OpenCL allows 2): one Newton
// step on r^3 = x, its residual exact through fma, brings it within one.
// Tiny x is scaled up first, so that the residual is not a denormal.
static inline double cbrt_d(double x) {
  bool tiny = __builtin_fabs(x) < 0x1p-900;
  double s = tiny ? x * 0x1p300 : x;
  double r = __builtin_cbrt(s);
  if (r != 0 && __builtin_isfinite(r)) {
    double r2 = r * r;
    double r2lo = __builtin_fma(r, r, -r2);
    double residual = __builtin_fma(r2, r, -s) + r2lo * r;
    r -= residual / (3 * r2);
  }
  return tiny ? r * 0x1p-100 : r;
}
ALL_LANES(LANES_1, cbrt, float, __builtin_cbrtf)
ALL_LANES(LANES_1, cbrt, double, cbrt_d)
LIBM_1(erf)
LIBM_1(erfc)
LIBM_1(expm1)
LIBM_1(log1p)
LIBM_1(logb)
LIBM_1(lgamma)
LIBM_1(tgamma)
LIBM_2(nextafter)
LIBM_2(remainder)

// The *pi functions reduce exactly (fmod by 2 is exact) to |r| <= 1/2 and
// evaluate near zero, where sin and cos are well conditioned; float works
// in double, so its results are correctly rounded but for rare ties.
#define PI_D 3.141592653589793238462643383279502884
static inline double sinpi_reduced(double x) {
  double r = __builtin_fmod(x, 2.0); // (-2, 2), exact, sign of x.
  if (r > 1.0)
    r -= 2.0;
  else if (r < -1.0)
    r += 2.0;
  // sin(pi r) = sin(pi (sign(r) - r)): fold into [-1/2, 1/2].
  if (r > 0.5)
    r = 1.0 - r;
  else if (r < -0.5)
    r = -1.0 - r;
  return r == 0 ? __builtin_copysign(0.0, x) : __builtin_sin(PI_D * r);
}
static inline double cospi_reduced(double x) {
  double r = __builtin_fabs(__builtin_fmod(x, 2.0)); // [0, 2)
  if (r > 1.0)
    r = 2.0 - r; // cos is even and 2-periodic: [0, 1].
  if (r == 0.5)
    return 0.0;
  // cos(pi r) = sin(pi (1/2 - r)), well conditioned away from r = 0.
  return r < 0.25 ? __builtin_cos(PI_D * r) : __builtin_sin(PI_D * (0.5 - r));
}
static inline float sinpi_f(float x) { return (float)sinpi_reduced(x); }
static inline float cospi_f(float x) { return (float)cospi_reduced(x); }
static inline float tanpi_f(float x) {
  return (float)(sinpi_reduced(x) / cospi_reduced(x));
}
static inline double tanpi_d(double x) {
  return sinpi_reduced(x) / cospi_reduced(x);
}
static inline float asinpi_f(float x) { return (float)(__builtin_asin(x) / PI_D); }
static inline float acospi_f(float x) { return (float)(__builtin_acos(x) / PI_D); }
static inline float atanpi_f(float x) { return (float)(__builtin_atan(x) / PI_D); }
static inline float atan2pi_f(float y, float x) {
  return (float)(__builtin_atan2(y, x) / PI_D);
}
static inline double asinpi_d(double x) { return __builtin_asin(x) / PI_D; }
static inline double acospi_d(double x) { return __builtin_acos(x) / PI_D; }
static inline double atanpi_d(double x) { return __builtin_atan(x) / PI_D; }
static inline double atan2pi_d(double y, double x) {
  return __builtin_atan2(y, x) / PI_D;
}
ALL_LANES(LANES_1, sinpi, float, sinpi_f)
ALL_LANES(LANES_1, cospi, float, cospi_f)
ALL_LANES(LANES_1, tanpi, float, tanpi_f)
ALL_LANES(LANES_1, sinpi, double, sinpi_reduced)
ALL_LANES(LANES_1, cospi, double, cospi_reduced)
ALL_LANES(LANES_1, tanpi, double, tanpi_d)
ALL_LANES(LANES_1, asinpi, float, asinpi_f)
ALL_LANES(LANES_1, acospi, float, acospi_f)
ALL_LANES(LANES_1, atanpi, float, atanpi_f)
ALL_LANES(LANES_2, atan2pi, float, atan2pi_f)
ALL_LANES(LANES_1, asinpi, double, asinpi_d)
ALL_LANES(LANES_1, acospi, double, acospi_d)
ALL_LANES(LANES_1, atanpi, double, atanpi_d)
ALL_LANES(LANES_2, atan2pi, double, atan2pi_d)

// hypot must not overflow or underflow in between: float squares in
// double; double uses libm's scaled algorithm.
static inline float hypot_f(float x, float y) {
  return (float)__builtin_sqrt((double)x * x + (double)y * y);
}
ALL_LANES(LANES_2, hypot, float, hypot_f)
ALL_LANES(LANES_2, hypot, double, __builtin_hypot)

#define MAGNITUDE(T)                                                           \
  OVL T maxmag(T x, T y) {                                                     \
    T ax = fabs(x), ay = fabs(y);                                              \
    return ax > ay ? x : ay > ax ? y : fmax(x, y);                             \
  }                                                                            \
  OVL T minmag(T x, T y) {                                                     \
    T ax = fabs(x), ay = fabs(y);                                              \
    return ax < ay ? x : ay < ax ? y : fmin(x, y);                             \
  }
SKMD_ALL_WIDTHS(MAGNITUDE, float)
SKMD_ALL_WIDTHS(MAGNITUDE, double)

// With an integer operand: pown, rootn, ldexp; and ilogb, nan.
#define WITH_INT(T, I, N)                                                      \
  OVL T##N pown(T##N x, I##N n) { SKMD_LANEWISE(T##N, N, pown(x[i], n[i])) }   \
  OVL T##N rootn(T##N x, I##N n) {                                             \
    SKMD_LANEWISE(T##N, N, rootn(x[i], n[i]))                                  \
  }                                                                            \
  OVL T##N ldexp(T##N x, I##N n) {                                             \
    SKMD_LANEWISE(T##N, N, ldexp(x[i], n[i]))                                  \
  }                                                                            \
  OVL T##N ldexp(T##N x, int n) { return ldexp(x, (I##N)n); }                  \
  OVL I##N ilogb(T##N x) { SKMD_LANEWISE(I##N, N, ilogb(x[i])) }
// pown in double for float is exact enough (the float result rounds once);
// double uses pow, exact for the integer exponent's value.
OVL float pown(float x, int n) { return (float)__builtin_pow(x, (double)n); }
OVL double pown(double x, int n) { return __builtin_pow(x, (double)n); }
// rootn(x, n) = x^(1/n); odd roots keep x's sign, even roots of negatives
// are NaN. float computes in double. In double the exponent 1/n is
// rounded to f, which costs |ln x| / n times its error (over 100 ulp at
// the ends of the range): x^(1/n) = x^f * x^(1/n - f), where
// 1/n - f = (1 - n f) / n, its numerator exact through fma, is tiny.
static inline float root_magnitude_float(float a, int n) {
  return (float)__builtin_pow((double)a, 1.0 / n);
}
static inline double root_magnitude_double(double a, int n) {
  double f = 1.0 / n;
  double r = __builtin_pow(a, f);
  double c = r * (__builtin_fma(-(double)n, f, 1.0) / n) * __builtin_log(a);
  return __builtin_isfinite(c) ? r + c : r;
}
#define ROOTN(T, LDEXP_FN, ILOGB_FN)                                           \
  OVL T rootn(T x, int n) {                                                    \
    if (n == 0 || (x < 0 && !(n & 1)))                                         \
      return (T)__builtin_nan("");                                             \
    T r = root_magnitude_##T(__builtin_elementwise_abs(x), n);                 \
    return (n & 1) ? __builtin_elementwise_copysign(r, x) : r;                 \
  }                                                                            \
  OVL T ldexp(T x, int n) { return LDEXP_FN(x, n); }                           \
  OVL int ilogb(T x) { return ILOGB_FN(x); }
ROOTN(float, __builtin_ldexpf, __builtin_ilogbf)
ROOTN(double, __builtin_ldexp, __builtin_ilogb)
#define WITH_INT_WIDTHS(T, I)                                                  \
  WITH_INT(T, I, 2) WITH_INT(T, I, 3) WITH_INT(T, I, 4) WITH_INT(T, I, 8)      \
  WITH_INT(T, I, 16)
WITH_INT_WIDTHS(float, int)
WITH_INT_WIDTHS(double, int)

#define NAN_FN(T, U)                                                           \
  OVL T nan(U code) {                                                          \
    return __builtin_astype(code | __builtin_astype(__builtin_nan(""), U), T); \
  }
NAN_FN(double, ulong)
OVL float nan(uint code) {
  return __builtin_astype(code | __builtin_astype(__builtin_nanf(""), uint),
                          float);
}
// The vectors, lane by lane (the quiet-NaN bits or-ed into each code).
#define NAN_VECTOR(T, U, N, NAN)                                               \
  OVL T##N nan(U##N code) {                                                    \
    return __builtin_astype(code | (U##N)__builtin_astype(NAN, U), T##N);      \
  }
#define NAN_VECTORS(T, U, NAN)                                                 \
  NAN_VECTOR(T, U, 2, NAN) NAN_VECTOR(T, U, 3, NAN) NAN_VECTOR(T, U, 4, NAN)   \
  NAN_VECTOR(T, U, 8, NAN) NAN_VECTOR(T, U, 16, NAN)
NAN_VECTORS(float, uint, __builtin_nanf(""))
NAN_VECTORS(double, ulong, __builtin_nan(""))

// Results through a pointer (frexp, modf, fract, sincos, remquo,
// lgamma_r), in each address space a pointer may have. The scalar forms on
// private pointers do the work; the others and the vectors call them.
float libm_lgammaf_r(float, int *) __asm__("lgammaf_r");
double libm_lgamma_r(double, int *) __asm__("lgamma_r");
// frexp from the bits, not llvm.frexp: the vectorizers widen that
// intrinsic into a form LLVM 22's VectorCombine crashes on (frexp of a
// float4). Subnormals are scaled into the normal range first; zeros,
// infinities and NaNs come back as they are, with exponent 0.
#define FREXP_BITS(T, U, MANT_BITS, BIAS, SCALE_BITS)                          \
  OVL T frexp(T x, __private int *e) {                                         \
    U inf = (U)(2 * BIAS + 1) << MANT_BITS;                                    \
    U mag = __builtin_astype(x, U) << 1 >> 1;                                  \
    if (mag == 0 || mag >= inf) {                                              \
      *e = 0;                                                                  \
      return x;                                                                \
    }                                                                          \
    int shift = mag < ((U)1 << MANT_BITS) ? SCALE_BITS : 0;                    \
    U bits = __builtin_astype(x * (T)((U)1 << shift), U);                      \
    *e = (int)((bits << 1 >> 1) >> MANT_BITS) - (BIAS - 1) - shift;            \
    return __builtin_astype((bits & ~inf) | ((U)(BIAS - 1) << MANT_BITS), T);  \
  }
FREXP_BITS(float, uint, 23, 127, 24)
FREXP_BITS(double, ulong, 52, 1023, 54)
#define OUT_PRIVATE(T, SUFFIX, BELOW_ONE)                                      \
  OVL T modf(T x, __private T *ip) {                                           \
    *ip = __builtin_elementwise_trunc(x);                                      \
    return __builtin_isinf(x) ? __builtin_copysign((T)0, x) : x - *ip;         \
  }                                                                            \
  OVL T fract(T x, __private T *ip) {                                          \
    T f = __builtin_elementwise_floor(x);                                      \
    *ip = f;                                                                   \
    if (x != x)                                                                \
      return x;                                                                \
    if (__builtin_isinf(x))                                                    \
      return __builtin_copysign((T)0, x);                                      \
    /* x - floor(x) may round up to 1, which fract never returns. */          \
    return __builtin_elementwise_min(x - f, BELOW_ONE);                        \
  }                                                                            \
  OVL T sincos(T x, __private T *c) {                                          \
    *c = cos(x);                                                               \
    return sin(x);                                                             \
  }                                                                            \
  OVL T remquo(T x, T y, __private int *q) {                                   \
    return __builtin_remquo##SUFFIX(x, y, q);                                  \
  }                                                                            \
  OVL T lgamma_r(T x, __private int *s) { return libm_lgamma##SUFFIX##_r(x, s); }
OUT_PRIVATE(float, f, 0x1.fffffep-1f)
OUT_PRIVATE(double, , 0x1.fffffffffffffp-1)

// Vectors (and other address spaces) go through private temporaries.
#define OUT_VIA_PRIVATE(T, I, AS)                                              \
  OVL T frexp(T x, AS I *e) {                                                  \
    I k;                                                                       \
    T r = frexp(x, &k);                                                        \
    *e = k;                                                                    \
    return r;                                                                  \
  }                                                                            \
  OVL T modf(T x, AS T *ip) {                                                  \
    T i;                                                                       \
    T r = modf(x, &i);                                                         \
    *ip = i;                                                                   \
    return r;                                                                  \
  }                                                                            \
  OVL T fract(T x, AS T *ip) {                                                 \
    T i;                                                                       \
    T r = fract(x, &i);                                                        \
    *ip = i;                                                                   \
    return r;                                                                  \
  }                                                                            \
  OVL T sincos(T x, AS T *c) {                                                 \
    T k;                                                                       \
    T r = sincos(x, &k);                                                       \
    *c = k;                                                                    \
    return r;                                                                  \
  }                                                                            \
  OVL T remquo(T x, T y, AS I *q) {                                            \
    I k;                                                                       \
    T r = remquo(x, y, &k);                                                    \
    *q = k;                                                                    \
    return r;                                                                  \
  }                                                                            \
  OVL T lgamma_r(T x, AS I *s) {                                               \
    I k;                                                                       \
    T r = lgamma_r(x, &k);                                                     \
    *s = k;                                                                    \
    return r;                                                                  \
  }
#define OUT_VECTOR_PRIVATE(T, I, N)                                            \
  OVL T##N frexp(T##N x, __private I##N *e) {                                  \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      int k;                                                                   \
      r[i] = frexp(x[i], &k);                                                  \
      (*e)[i] = k;                                                             \
    }                                                                          \
    return r;                                                                  \
  }                                                                            \
  OVL T##N modf(T##N x, __private T##N *ip) {                                  \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      T k;                                                                     \
      r[i] = modf(x[i], &k);                                                   \
      (*ip)[i] = k;                                                            \
    }                                                                          \
    return r;                                                                  \
  }                                                                            \
  OVL T##N fract(T##N x, __private T##N *ip) {                                 \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      T k;                                                                     \
      r[i] = fract(x[i], &k);                                                  \
      (*ip)[i] = k;                                                            \
    }                                                                          \
    return r;                                                                  \
  }                                                                            \
  OVL T##N sincos(T##N x, __private T##N *c) {                                 \
    *c = cos(x);                                                               \
    return sin(x);                                                             \
  }                                                                            \
  OVL T##N remquo(T##N x, T##N y, __private I##N *q) {                         \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      int k;                                                                   \
      r[i] = remquo(x[i], y[i], &k);                                           \
      (*q)[i] = k;                                                             \
    }                                                                          \
    return r;                                                                  \
  }                                                                            \
  OVL T##N lgamma_r(T##N x, __private I##N *s) {                               \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      int k;                                                                   \
      r[i] = lgamma_r(x[i], &k);                                               \
      (*s)[i] = k;                                                             \
    }                                                                          \
    return r;                                                                  \
  }
#define OUT_ALL(T, I)                                                          \
  OUT_VIA_PRIVATE(T, I, __generic) OUT_VIA_PRIVATE(T, I, __global)             \
  OUT_VIA_PRIVATE(T, I, __local)
#define OUT_WIDTH(T, I, N)                                                     \
  OUT_VECTOR_PRIVATE(T, I, N) OUT_ALL(T##N, I##N)
OUT_ALL(float, int)
OUT_ALL(double, int)
OUT_WIDTH(float, int, 2)
OUT_WIDTH(float, int, 3)
OUT_WIDTH(float, int, 4)
OUT_WIDTH(float, int, 8)
OUT_WIDTH(float, int, 16)
OUT_WIDTH(double, int, 2)
OUT_WIDTH(double, int, 3)
OUT_WIDTH(double, int, 4)
OUT_WIDTH(double, int, 8)
OUT_WIDTH(double, int, 16)

// half_* forms: full precision meets their 8192-ulp bound.
UNARY_ALIASES(half_exp2, exp2)
UNARY_ALIASES(half_exp10, exp10)
UNARY_ALIASES(half_log2, log2)
UNARY_ALIASES(half_log10, log10)
UNARY_ALIASES(half_tan, tan)
UNARY_ALIASES(half_recip, native_recip)
#define HALF_BINARY(T)                                                         \
  OVL T half_divide(T x, T y) { return x / y; }                                \
  OVL T half_powr(T x, T y) { return powr(x, y); }
SKMD_ALL_WIDTHS(HALF_BINARY, float)
