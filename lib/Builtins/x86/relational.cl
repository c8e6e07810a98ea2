//===- relational.cl - OpenCL relational functions for SKMD's x86 ---------===//
//
// Scalars answer 0 or 1; vectors answer 0 or -1 per lane, which is what
// OpenCL C's own comparisons give, so each test is written as one.
//
//===----------------------------------------------------------------------===//
#include "builtins.h"

#define CLASSIFY(T, I)                                                         \
  OVL I isnan(T x) { return x != x; }                                          \
  OVL I isinf(T x) { return __builtin_elementwise_abs(x) == (T)INFINITY; }     \
  OVL I isfinite(T x) { return __builtin_elementwise_abs(x) < (T)INFINITY; }   \
  OVL I isnormal(T x) {                                                        \
    T a = __builtin_elementwise_abs(x);                                        \
    return a >= (T)MIN_NORMAL && a < (T)INFINITY;                              \
  }                                                                            \
  OVL I isequal(T a, T b) { return a == b; }                                   \
  OVL I isnotequal(T a, T b) { return a != b; }                                \
  OVL I isgreater(T a, T b) { return a > b; }                                  \
  OVL I isgreaterequal(T a, T b) { return a >= b; }                            \
  OVL I isless(T a, T b) { return a < b; }                                     \
  OVL I islessequal(T a, T b) { return a <= b; }

#define INFINITY __builtin_inff()
#define MIN_NORMAL 0x1.0p-126f
CLASSIFY(float, int)
CLASSIFY(float2, int2)
CLASSIFY(float3, int3)
CLASSIFY(float4, int4)
CLASSIFY(float8, int8)
CLASSIFY(float16, int16)
#undef MIN_NORMAL
#define MIN_NORMAL 0x1.0p-1022
CLASSIFY(double, int)
CLASSIFY(double2, long2)
CLASSIFY(double3, long3)
CLASSIFY(double4, long4)
CLASSIFY(double8, long8)
CLASSIFY(double16, long16)

OVL int signbit(float x) { return __builtin_signbit(x); }
OVL int signbit(double x) { return __builtin_signbit(x); }
#define SIGNBIT(T, I) OVL I signbit(T x) { return __builtin_astype(x, I) < (I)0; }
SIGNBIT(float2, int2)
SIGNBIT(float3, int3)
SIGNBIT(float4, int4)
SIGNBIT(float8, int8)
SIGNBIT(float16, int16)

// select(a, b, c): b where c is set (scalars) or its lane's top bit is set
// (vectors), a elsewhere.
#define SELECT_SCALAR(T, C) OVL T select(T a, T b, C c) { return c ? b : a; }
#define SELECT_VECTOR(T, C, S)                                                 \
  OVL T select(T a, T b, C c) {                                                \
    return __builtin_astype(c, S) < (S)0 ? b : a;                              \
  }
#define SELECT_ALL(T, SI, UI)                                                  \
  SELECT_SCALAR(T, SI) SELECT_SCALAR(T, UI)                                    \
  SELECT_VECTOR(T##2, SI##2, SI##2) SELECT_VECTOR(T##2, UI##2, SI##2)          \
  SELECT_VECTOR(T##3, SI##3, SI##3) SELECT_VECTOR(T##3, UI##3, SI##3)          \
  SELECT_VECTOR(T##4, SI##4, SI##4) SELECT_VECTOR(T##4, UI##4, SI##4)          \
  SELECT_VECTOR(T##8, SI##8, SI##8) SELECT_VECTOR(T##8, UI##8, SI##8)          \
  SELECT_VECTOR(T##16, SI##16, SI##16) SELECT_VECTOR(T##16, UI##16, SI##16)
SELECT_ALL(char, char, uchar)
SELECT_ALL(uchar, char, uchar)
SELECT_ALL(short, short, ushort)
SELECT_ALL(ushort, short, ushort)
SELECT_ALL(float, int, uint)
SELECT_ALL(int, int, uint)
SELECT_ALL(uint, int, uint)
SELECT_ALL(double, long, ulong)
SELECT_ALL(long, long, ulong)
SELECT_ALL(ulong, long, ulong)

// any / all: the top bit of any / every lane.
#define ANY_ALL(T)                                                             \
  OVL int any(T x) { return x < 0; }                                           \
  OVL int all(T x) { return x < 0; }                                           \
  OVL int any(T##2 x) { return (x.x | x.y) < 0; }                              \
  OVL int all(T##2 x) { return (x.x & x.y) < 0; }                              \
  OVL int any(T##3 x) { return (x.x | x.y | x.z) < 0; }                        \
  OVL int all(T##3 x) { return (x.x & x.y & x.z) < 0; }                        \
  OVL int any(T##4 x) { return (x.x | x.y | x.z | x.w) < 0; }                  \
  OVL int all(T##4 x) { return (x.x & x.y & x.z & x.w) < 0; }                  \
  OVL int any(T##8 x) { return any(x.lo | x.hi); }                             \
  OVL int all(T##8 x) { return all(x.lo & x.hi); }                             \
  OVL int any(T##16 x) { return any(x.lo | x.hi); }                            \
  OVL int all(T##16 x) { return all(x.lo & x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

// Ordered/unordered comparisons and bitselect on floating types.
#define ORDERING(T, I)                                                         \
  OVL I isordered(T a, T b) { return a == a && b == b; }                       \
  OVL I isunordered(T a, T b) { return a != a || b != b; }                     \
  OVL I islessgreater(T a, T b) { return a < b || a > b; }
#define FLOAT_BITSELECT(T, I)                                                  \
  OVL T bitselect(T a, T b, T c) {                                             \
    I ia = __builtin_astype(a, I), ib = __builtin_astype(b, I),                \
      ic = __builtin_astype(c, I);                                             \
    return __builtin_astype((ia & ~ic) | (ib & ic), T);                        \
  }
#define ORDERING_ALL(T, SI, VI)                                                \
  ORDERING(T, int) FLOAT_BITSELECT(T, SI)                                      \
  ORDERING(T##2, VI##2) FLOAT_BITSELECT(T##2, VI##2)                           \
  ORDERING(T##3, VI##3) FLOAT_BITSELECT(T##3, VI##3)                           \
  ORDERING(T##4, VI##4) FLOAT_BITSELECT(T##4, VI##4)                           \
  ORDERING(T##8, VI##8) FLOAT_BITSELECT(T##8, VI##8)                           \
  ORDERING(T##16, VI##16) FLOAT_BITSELECT(T##16, VI##16)
ORDERING_ALL(float, int, int)
ORDERING_ALL(double, long, long)
