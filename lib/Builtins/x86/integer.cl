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
  OVL T ctz(T x) { return __builtin_elementwise_ctzg(x, (T)BITS); }           \
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
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, char, uchar, 8)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, uchar, uchar, 8)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, short, ushort, 16)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, ushort, ushort, 16)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, int, uint, 32)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, uint, uint, 32)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, long, ulong, 64)
INT_VECTOR_WIDTHS(INT_WITH_SCALARS, ulong, ulong, 64)

// mul_hi: the high half of the full product, through the type twice as
// wide (for 64 bits, Clang's __int128); mad_hi and mad_sat build on it.
#define MUL_HI_LANE(T, WIDE, BITS) (T)(((WIDE)a * (WIDE)b) >> BITS)
#define MUL_HI(T, WIDE, BITS)                                                  \
  OVL T mul_hi(T a, T b) { return MUL_HI_LANE(T, WIDE, BITS); }                \
  OVL T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                     \
  OVL T mad_sat(T a, T b, T c) {                                               \
    WIDE p = (WIDE)a * (WIDE)b + (WIDE)c;                                      \
    WIDE lo = (WIDE)MIN_##T, hi = (WIDE)MAX_##T;                               \
    return (T)(p < lo ? lo : p > hi ? hi : p);                                 \
  }
#define MUL_HI_VEC(T, WIDE, BITS, N)                                           \
  OVL T##N mul_hi(T##N a, T##N b) {                                            \
    SKMD_LANEWISE(T##N, N, mul_hi(a[i], b[i]))                                 \
  }                                                                            \
  OVL T##N mad_hi(T##N a, T##N b, T##N c) { return mul_hi(a, b) + c; }         \
  OVL T##N mad_sat(T##N a, T##N b, T##N c) {                                   \
    SKMD_LANEWISE(T##N, N, mad_sat(a[i], b[i], c[i]))                          \
  }
#define MUL_HI_ALL(T, WIDE, BITS)                                              \
  MUL_HI(T, WIDE, BITS) MUL_HI_VEC(T, WIDE, BITS, 2)                           \
  MUL_HI_VEC(T, WIDE, BITS, 3) MUL_HI_VEC(T, WIDE, BITS, 4)                    \
  MUL_HI_VEC(T, WIDE, BITS, 8) MUL_HI_VEC(T, WIDE, BITS, 16)
typedef __int128 WIDEST;
typedef unsigned __int128 UWIDEST;
MUL_HI_ALL(char, short, 8)
MUL_HI_ALL(uchar, ushort, 8)
MUL_HI_ALL(short, int, 16)
MUL_HI_ALL(ushort, uint, 16)
MUL_HI_ALL(int, long, 32)
MUL_HI_ALL(uint, ulong, 32)
MUL_HI_ALL(long, WIDEST, 64)
MUL_HI_ALL(ulong, UWIDEST, 64)

// upsample(hi, lo): hi in the upper half of the twice-as-wide result.
#define UPSAMPLE(H, L, W, BITS)                                                \
  OVL W upsample(H hi, L lo) { return ((W)hi << BITS) | (W)lo; }               \
  OVL W##2 upsample(H##2 hi, L##2 lo) {                                        \
    return (__builtin_convertvector(hi, W##2) << BITS) |                       \
           __builtin_convertvector(lo, W##2);                                  \
  }                                                                            \
  OVL W##3 upsample(H##3 hi, L##3 lo) {                                        \
    return (__builtin_convertvector(hi, W##3) << BITS) |                       \
           __builtin_convertvector(lo, W##3);                                  \
  }                                                                            \
  OVL W##4 upsample(H##4 hi, L##4 lo) {                                        \
    return (__builtin_convertvector(hi, W##4) << BITS) |                       \
           __builtin_convertvector(lo, W##4);                                  \
  }                                                                            \
  OVL W##8 upsample(H##8 hi, L##8 lo) {                                        \
    return (__builtin_convertvector(hi, W##8) << BITS) |                       \
           __builtin_convertvector(lo, W##8);                                  \
  }                                                                            \
  OVL W##16 upsample(H##16 hi, L##16 lo) {                                     \
    return (__builtin_convertvector(hi, W##16) << BITS) |                      \
           __builtin_convertvector(lo, W##16);                                 \
  }
UPSAMPLE(char, uchar, short, 8)
UPSAMPLE(uchar, uchar, ushort, 8)
UPSAMPLE(short, ushort, int, 16)
UPSAMPLE(ushort, ushort, uint, 16)
UPSAMPLE(int, uint, long, 32)
UPSAMPLE(uint, uint, ulong, 32)

// bitselect(a, b, c): b's bits where c's are set, a's elsewhere.
#define BITSELECT(T) OVL T bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }
SKMD_ALL_WIDTHS(BITSELECT, char)
SKMD_ALL_WIDTHS(BITSELECT, uchar)
SKMD_ALL_WIDTHS(BITSELECT, short)
SKMD_ALL_WIDTHS(BITSELECT, ushort)
SKMD_ALL_WIDTHS(BITSELECT, int)
SKMD_ALL_WIDTHS(BITSELECT, uint)
SKMD_ALL_WIDTHS(BITSELECT, long)
SKMD_ALL_WIDTHS(BITSELECT, ulong)
