//===- builtins.h - Types and macros of SKMD's x86 OpenCL library ---------===//
//
// The library is OpenCL C compiled without Clang's OpenCL headers
// (-cl-no-stdinc), so it declares its own vector types; with
// __attribute__((overloadable)) the functions get exactly the mangled names
// kernels call (exp(float4) is _Z3expDv4_f).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUILTINS_X86_H
#define SKMD_BUILTINS_X86_H

#define OVL __attribute__((overloadable, always_inline))

#define SKMD_VECTOR_TYPES(T)                                                   \
  typedef T T##2 __attribute__((ext_vector_type(2)));                          \
  typedef T T##3 __attribute__((ext_vector_type(3)));                          \
  typedef T T##4 __attribute__((ext_vector_type(4)));                          \
  typedef T T##8 __attribute__((ext_vector_type(8)));                          \
  typedef T T##16 __attribute__((ext_vector_type(16)));

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
SKMD_VECTOR_TYPES(float)
SKMD_VECTOR_TYPES(double)
SKMD_VECTOR_TYPES(char)
SKMD_VECTOR_TYPES(uchar)
SKMD_VECTOR_TYPES(short)
SKMD_VECTOR_TYPES(ushort)
SKMD_VECTOR_TYPES(int)
SKMD_VECTOR_TYPES(uint)
SKMD_VECTOR_TYPES(long)
SKMD_VECTOR_TYPES(ulong)

/// The body of a vector function computed lane by lane: a VT whose lane i
/// is EXPR (which may use i). Scalar lanes are what the work-group loops
/// want: after inlining, the vectorizer widens them across work-items.
#define SKMD_LANEWISE(VT, N, EXPR)                                             \
  VT r_;                                                                       \
  for (int i = 0; i < N; ++i)                                                  \
    r_[i] = EXPR;                                                              \
  return r_;

// The range of each integer type, and whether it is signed.
#define MIN_char ((char)-128)
#define MAX_char ((char)127)
#define MIN_uchar ((uchar)0)
#define MAX_uchar ((uchar)255)
#define MIN_short ((short)-32768)
#define MAX_short ((short)32767)
#define MIN_ushort ((ushort)0)
#define MAX_ushort ((ushort)65535)
#define MIN_int (-2147483647 - 1)
#define MAX_int 2147483647
#define MIN_uint 0u
#define MAX_uint 4294967295u
#define MIN_long (-9223372036854775807L - 1)
#define MAX_long 9223372036854775807L
#define MIN_ulong 0ul
#define MAX_ulong 18446744073709551615ul

#define IS_SIGNED(T) ((T)-1 < (T)0)

// One ulp towards +infinity or -infinity, by stepping the bit pattern
// (BITS: the unsigned type of T's size); directed rounding steps
// round-to-nearest results this way. step_down is right for +-0 (to the
// smallest negative denormal); step_up is wrong only for -0, which a
// wrong-way round-to-nearest never gives when stepping up.
#define SKMD_ULP_STEPS(T, BITS)                                                \
  static inline __attribute__((always_inline)) T step_up_##T(T f) {            \
    BITS b = __builtin_astype(f, BITS);                                        \
    return __builtin_astype((BITS)(f < 0 ? b - 1 : b + 1), T);                 \
  }                                                                            \
  static inline __attribute__((always_inline)) T step_down_##T(T f) {          \
    BITS b = __builtin_astype(f, BITS);                                        \
    return __builtin_astype((BITS)(f > 0 ? b - 1 : b + 1), T);                 \
  }

/// Applies M(type) to a scalar type and each of its vector types.
#define SKMD_ALL_WIDTHS(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)
#define SKMD_VECTOR_WIDTHS(M, T) M(T##2, T) M(T##3, T) M(T##4, T) M(T##8, T) M(T##16, T)

#endif // SKMD_BUILTINS_X86_H
