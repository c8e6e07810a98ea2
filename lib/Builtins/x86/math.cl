//===- math.cl - OpenCL math functions for SKMD's x86 variant -------------===//
//
// Each function maps to an LLVM intrinsic or libm call through Clang's
// elementwise builtins, which keeps vectors whole: after inlining into a
// work-group function the loop vectorizer widens them, and with the glibc
// vector math library (libmvec) transcendental functions stay vectorized.
// native_* and half_* forms share the full-precision implementations,
// which meet their (looser) error bounds.
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

UNARY_ELEMENTWISE(exp, exp)
UNARY_ELEMENTWISE(exp2, exp2)
UNARY_ELEMENTWISE(exp10, exp10)
UNARY_ELEMENTWISE(log, log)
UNARY_ELEMENTWISE(log2, log2)
UNARY_ELEMENTWISE(log10, log10)
UNARY_ELEMENTWISE(sin, sin)
UNARY_ELEMENTWISE(cos, cos)
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

UNARY_ALIASES(native_exp, exp)
UNARY_ALIASES(native_exp2, exp2)
UNARY_ALIASES(native_exp10, exp10)
UNARY_ALIASES(native_log, log)
UNARY_ALIASES(native_log2, log2)
UNARY_ALIASES(native_log10, log10)
UNARY_ALIASES(native_sin, sin)
UNARY_ALIASES(native_cos, cos)
UNARY_ALIASES(native_tan, tan)
UNARY_ALIASES(native_sqrt, sqrt)
UNARY_ALIASES(native_rsqrt, rsqrt)
UNARY_ALIASES(half_exp, exp)
UNARY_ALIASES(half_log, log)
UNARY_ALIASES(half_sin, sin)
UNARY_ALIASES(half_cos, cos)
UNARY_ALIASES(half_sqrt, sqrt)
UNARY_ALIASES(half_rsqrt, rsqrt)

#define NATIVE_RECIP(T) OVL T native_recip(T x) { return (T)1 / x; }
SKMD_ALL_WIDTHS(NATIVE_RECIP, float)

// Two and three operands, vector with vector, as OpenCL defines them.
#define BINARY(T)                                                              \
  OVL T pow(T x, T y) { return __builtin_elementwise_pow(x, y); }             \
  OVL T powr(T x, T y) { return __builtin_elementwise_pow(x, y); }            \
  OVL T native_powr(T x, T y) { return __builtin_elementwise_pow(x, y); }     \
  OVL T atan2(T y, T x) { return __builtin_elementwise_atan2(y, x); }         \
  OVL T fmin(T x, T y) { return __builtin_elementwise_min(x, y); }            \
  OVL T fmax(T x, T y) { return __builtin_elementwise_max(x, y); }            \
  OVL T fmod(T x, T y) { return __builtin_elementwise_fmod(x, y); }           \
  OVL T copysign(T x, T y) { return __builtin_elementwise_copysign(x, y); }   \
  OVL T hypot(T x, T y) { return sqrt(x * x + y * y); }                       \
  OVL T fdim(T x, T y) { return x > y ? x - y : (T)0; }                       \
  OVL T native_divide(T x, T y) { return x / y; }                             \
  OVL T fma(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }     \
  OVL T mad(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }     \
  OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                        \
  OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }              \
  OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                  \
  OVL T sign(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x; }                \
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
