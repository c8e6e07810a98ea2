//===- integer.cl - OpenCL integer functions for SKMD's x86 variant -------===//
#include "builtins.h"

// M(type, unsigned twin, element bits) for a scalar type and its vectors.
#define FOR_WIDTHS(M, S, U, BITS)                                              \
  M(S, U, BITS) M(S##2, U##2, BITS) M(S##3, U##3, BITS) M(S##4, U##4, BITS)    \
  M(S##8, U##8, BITS) M(S##16, U##16, BITS)

#define COMMON(T, U, BITS)                                                     \
  OVL T min(T a, T b) { return __builtin_elementwise_min(a, b); }             \
  OVL T max(T a, T b) { return __builtin_elementwise_max(a, b); }             \
  OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                \
  OVL T add_sat(T a, T b) { return __builtin_elementwise_add_sat(a, b); }     \
  OVL T sub_sat(T a, T b) { return __builtin_elementwise_sub_sat(a, b); }     \
  OVL T popcount(T x) { return __builtin_elementwise_popcount(x); }           \
  OVL T clz(T x) { return __builtin_elementwise_clzg(x, (T)BITS); }           \
  OVL T rotate(T x, T n) { return __builtin_elementwise_fshl(x, x, n); }      \
  OVL T hadd(T a, T b) { return (a >> 1) + (b >> 1) + (a & b & (T)1); }       \
  OVL T rhadd(T a, T b) { return (a >> 1) + (b >> 1) + ((a | b) & (T)1); }    \
  OVL U abs_diff(T a, T b) {                                                   \
    return __builtin_astype(max(a, b), U) - __builtin_astype(min(a, b), U);   \
  }

#define SIGNED(T, U, BITS)                                                     \
  COMMON(T, U, BITS)                                                           \
  OVL U abs(T x) { return __builtin_astype(__builtin_elementwise_abs(x), U); }
#define UNSIGNED(T, U, BITS)                                                   \
  COMMON(T, U, BITS)                                                           \
  OVL T abs(T x) { return x; }

FOR_WIDTHS(SIGNED, char, uchar, 8)
FOR_WIDTHS(UNSIGNED, uchar, uchar, 8)
FOR_WIDTHS(SIGNED, short, ushort, 16)
FOR_WIDTHS(UNSIGNED, ushort, ushort, 16)
FOR_WIDTHS(SIGNED, int, uint, 32)
FOR_WIDTHS(UNSIGNED, uint, uint, 32)
FOR_WIDTHS(SIGNED, long, ulong, 64)
FOR_WIDTHS(UNSIGNED, ulong, ulong, 64)

// 24-bit multiplies: exact for the operands OpenCL allows.
#define MUL24(T, U, BITS)                                                      \
  OVL T mul24(T a, T b) { return a * b; }                                      \
  OVL T mad24(T a, T b, T c) { return a * b + c; }
FOR_WIDTHS(MUL24, int, uint, 32)
FOR_WIDTHS(MUL24, uint, uint, 32)

// A vector with scalars.
#define INT_WITH_SCALARS(V, S, U, BITS)                                        \
  OVL V min(V a, S b) { return min(a, (V)b); }                                 \
  OVL V max(V a, S b) { return max(a, (V)b); }                                 \
  OVL V clamp(V x, S lo, S hi) { return clamp(x, (V)lo, (V)hi); }
#define INT_VECTOR_WIDTHS(M, S, U, BITS)                                       \
  M(S##2, S, U, BITS) M(S##3, S, U, BITS) M(S##4, S, U, BITS)                  \
  M(S##8, S, U, BITS) M(S##16, S, U, BITS)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, int, uint, 32)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, uint, uint, 32)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, long, ulong, 64)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, ulong, ulong, 64)
