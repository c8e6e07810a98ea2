//===- conversions.cl - convert_<type>[_sat][_<rounding>] for SKMD's x86 --===//
//
// Every OpenCL conversion: destination and source among the ten scalar
// types, widths 1 to 16, the rounding modes _rte/_rtz/_rtp/_rtn and, for
// integer destinations, _sat.
//
// Each is written once as a scalar "core", and vector forms apply the core
// per lane. That is the shape the work-group loops want: after inlining, the
// loop vectorizer widens the scalar code across work-items.
//
// Directed rounding to a floating type starts from the round-to-nearest
// conversion and steps one ulp when it went the wrong way. The comparison
// is exact: a floating source is compared in the wider type, an integer
// source by converting the result back (guarded against the one value,
// 2^bits, that does not fit).
//
//===----------------------------------------------------------------------===//
#include "builtins.h"

#define CORE static inline __attribute__((always_inline))

SKMD_ULP_STEPS(float, uint)
SKMD_ULP_STEPS(double, ulong)

#define ROUND_(x) __builtin_elementwise_trunc(x)
#define ROUND__rtz(x) __builtin_elementwise_trunc(x)
#define ROUND__rte(x) __builtin_elementwise_rint(x)
#define ROUND__rtp(x) __builtin_elementwise_ceil(x)
#define ROUND__rtn(x) __builtin_elementwise_floor(x)

// The public function for a scalar and every vector width, from a core.
#define PUBLIC_VEC(D, S, N, NAME, CORE_FN)                                     \
  OVL D##N convert_##D##N##NAME(S##N x) {                                      \
    SKMD_LANEWISE(D##N, N, CORE_FN(x[i]))                                      \
  }
#define PUBLIC(D, S, NAME, CORE_FN)                                            \
  OVL D convert_##D##NAME(S x) { return CORE_FN(x); }                          \
  PUBLIC_VEC(D, S, 2, NAME, CORE_FN) PUBLIC_VEC(D, S, 3, NAME, CORE_FN)        \
  PUBLIC_VEC(D, S, 4, NAME, CORE_FN) PUBLIC_VEC(D, S, 8, NAME, CORE_FN)        \
  PUBLIC_VEC(D, S, 16, NAME, CORE_FN)
#define PUBLIC_ALL_ROUNDINGS(D, S, NAME, CORE_FN)                              \
  PUBLIC(D, S, NAME, CORE_FN) PUBLIC(D, S, NAME##_rte, CORE_FN)                \
  PUBLIC(D, S, NAME##_rtz, CORE_FN) PUBLIC(D, S, NAME##_rtp, CORE_FN)          \
  PUBLIC(D, S, NAME##_rtn, CORE_FN)

// Integer to integer: rounding modes change nothing; _sat clamps.
#define INT_FROM_INT(D, S)                                                     \
  CORE D cvt_##D##_##S(S x) { return (D)x; }                                   \
  CORE D cvt_sat_##D##_##S(S x) {                                              \
    if (IS_SIGNED(S) && (long)x < (long)MIN_##D)                               \
      return MIN_##D;                                                          \
    if (x > (S)0 && (ulong)x > (ulong)MAX_##D)                                 \
      return MAX_##D;                                                          \
    return (D)x;                                                               \
  }                                                                            \
  PUBLIC_ALL_ROUNDINGS(D, S, , cvt_##D##_##S)                                  \
  PUBLIC_ALL_ROUNDINGS(D, S, _sat, cvt_sat_##D##_##S)

// Floating to integer: round as asked (toward zero by default), then
// convert; _sat sends NaN to 0 and clamps. (D)MAX_D is exact or rounds up to
// the first power of two out of range, so ">=" is right in both cases.
#define INT_FROM_FLOAT_MODE(D, S, MODE)                                        \
  CORE D cvt_##D##_##S##MODE(S x) { return (D)ROUND_##MODE(x); }               \
  CORE D cvt_sat_##D##_##S##MODE(S x) {                                        \
    S y = ROUND_##MODE(x);                                                     \
    if (y != y)                                                                \
      return (D)0;                                                             \
    if (y < (S)MIN_##D)                                                        \
      return MIN_##D;                                                          \
    if (y >= (S)MAX_##D)                                                       \
      return MAX_##D;                                                          \
    return (D)y;                                                               \
  }                                                                            \
  PUBLIC(D, S, MODE, cvt_##D##_##S##MODE)                                      \
  PUBLIC(D, S, _sat##MODE, cvt_sat_##D##_##S##MODE)
#define INT_FROM_FLOAT(D, S)                                                   \
  INT_FROM_FLOAT_MODE(D, S, ) INT_FROM_FLOAT_MODE(D, S, _rte)                  \
  INT_FROM_FLOAT_MODE(D, S, _rtz) INT_FROM_FLOAT_MODE(D, S, _rtp)              \
  INT_FROM_FLOAT_MODE(D, S, _rtn)

// To a floating type with directed rounding, from round-to-nearest f:
// ABOVE/BELOW say whether f is above/below the exact value x.
#define DIRECTED(D, S, ABOVE, BELOW)                                           \
  CORE D cvt_##D##_##S(S x) { return (D)x; }                                   \
  CORE D cvt_##D##_##S##_rtz(S x) {                                            \
    D f = (D)x;                                                                \
    if (x > (S)0 && ABOVE)                                                     \
      return step_down_##D(f);                                                 \
    if (x < (S)0 && BELOW)                                                     \
      return step_up_##D(f);                                                   \
    return f;                                                                  \
  }                                                                            \
  CORE D cvt_##D##_##S##_rtp(S x) {                                            \
    D f = (D)x;                                                                \
    return BELOW ? step_up_##D(f) : f;                                         \
  }                                                                            \
  CORE D cvt_##D##_##S##_rtn(S x) {                                            \
    D f = (D)x;                                                                \
    return ABOVE ? step_down_##D(f) : f;                                       \
  }                                                                            \
  PUBLIC(D, S, , cvt_##D##_##S)                                                \
  PUBLIC(D, S, _rte, cvt_##D##_##S)                                            \
  PUBLIC(D, S, _rtz, cvt_##D##_##S##_rtz)                                      \
  PUBLIC(D, S, _rtp, cvt_##D##_##S##_rtp)                                      \
  PUBLIC(D, S, _rtn, cvt_##D##_##S##_rtn)

// (D)MAX_S + 1 is 2^bits(S) when the conversion rounds (it is then a power
// of two), and unreachable otherwise; below it, (S)f is exact.
#define FLOAT_FROM_INT(D, S)                                                   \
  DIRECTED(D, S, (f >= (D)MAX_##S + (D)1 || (S)f > x),                         \
           (f < (D)MAX_##S + (D)1 && (S)f < x))
#define FLOAT_FROM_FLOAT(D, S) DIRECTED(D, S, (f > x), (f < x))

#define EACH_INT_SOURCE(M, D)                                                  \
  M(D, char) M(D, uchar) M(D, short) M(D, ushort) M(D, int) M(D, uint)         \
  M(D, long) M(D, ulong)
#define TO_INT(D)                                                              \
  EACH_INT_SOURCE(INT_FROM_INT, D)                                             \
  INT_FROM_FLOAT(D, float) INT_FROM_FLOAT(D, double)
#define TO_FLOAT(D)                                                            \
  EACH_INT_SOURCE(FLOAT_FROM_INT, D)                                           \
  FLOAT_FROM_FLOAT(D, float) FLOAT_FROM_FLOAT(D, double)

TO_INT(char)
TO_INT(uchar)
TO_INT(short)
TO_INT(ushort)
TO_INT(int)
TO_INT(uint)
TO_INT(long)
TO_INT(ulong)
TO_FLOAT(float)
TO_FLOAT(double)
