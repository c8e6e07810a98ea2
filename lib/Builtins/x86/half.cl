//===- half.cl - vload_half/vstore_half for SKMD's x86 variant ------------===//
//
// half is a storage format for kernels without cl_khr_fp16: loads widen to
// float, stores narrow from float or double with a rounding mode. The
// library enables cl_khr_fp16 only to name the conversions; x86-64-v3 has
// F16C, so they are single instructions.
//
// Directed rounding starts from round-to-nearest and steps one ulp (one
// step of the bit pattern) when it went the wrong way, judged by comparing
// the widened half with the exact source value.
//
//===----------------------------------------------------------------------===//
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "builtins.h"

#define CORE static inline __attribute__((overloadable, always_inline))

SKMD_ULP_STEPS(half, ushort)

// double -> half in one rounding, without the __truncdfhf2 runtime call
// that LLVM would emit: round to float by "round to odd" (truncate, then
// set the last bit when inexact), which keeps enough bits that rounding
// that float to half gives the correctly rounded result.
CORE float to_float_odd(double x) {
  float f = (float)x;
  if ((double)f == x || x != x)
    return f;
  uint b = __builtin_astype(f, uint);
  if (__builtin_fabs((double)f) > __builtin_fabs(x))
    b -= 1; // Towards zero: the bits are sign and magnitude.
  return __builtin_astype(b | 1, float);
}
CORE half nearest_half(float x) { return (half)x; }
CORE half nearest_half(double x) { return (half)to_float_odd(x); }

#define TO_HALF(T)                                                             \
  CORE half to_half_rte(T x) { return nearest_half(x); }                       \
  CORE half to_half_rtz(T x) {                                                 \
    half h = nearest_half(x);                                                  \
    if (x > 0 && (T)h > x)                                                     \
      return step_down_half(h);                                                     \
    if (x < 0 && (T)h < x)                                                     \
      return step_up_half(h);                                                       \
    return h;                                                                  \
  }                                                                            \
  CORE half to_half_rtp(T x) {                                                 \
    half h = nearest_half(x);                                                  \
    return (T)h < x ? step_up_half(h) : h;                                          \
  }                                                                            \
  CORE half to_half_rtn(T x) {                                                 \
    half h = nearest_half(x);                                                  \
    return (T)h > x ? step_down_half(h) : h;                                        \
  }
TO_HALF(float)
TO_HALF(double)

// Loads: vload_half (offset in halfs), vload_halfN (offset in N-vectors),
// vloada_halfN (aligned to the vector size; vloada_half3 steps by 4).
#define LOAD_N(N, STRIDE, NAME, AS)                                            \
  OVL float##N NAME##N(size_t o, const AS half *p) {                           \
    SKMD_LANEWISE(float##N, N, (float)p[o * STRIDE + i])                       \
  }
#define LOADS(AS)                                                              \
  OVL float vload_half(size_t o, const AS half *p) { return (float)p[o]; }     \
  OVL float vloada_half(size_t o, const AS half *p) { return (float)p[o]; }    \
  LOAD_N(2, 2, vload_half, AS) LOAD_N(3, 3, vload_half, AS)                    \
  LOAD_N(4, 4, vload_half, AS) LOAD_N(8, 8, vload_half, AS)                    \
  LOAD_N(16, 16, vload_half, AS) LOAD_N(2, 2, vloada_half, AS)                 \
  LOAD_N(3, 4, vloada_half, AS) LOAD_N(4, 4, vloada_half, AS)                  \
  LOAD_N(8, 8, vloada_half, AS) LOAD_N(16, 16, vloada_half, AS)
LOADS(__generic)
LOADS(__global)
LOADS(__local)
LOADS(__constant)
LOADS(__private)

// Stores, for float and double sources and each rounding mode (the
// default is round to nearest even).
#define STORE_N(T, N, STRIDE, NAME, MODE, AS)                                  \
  OVL void NAME##N##MODE(T##N v, size_t o, AS half *p) {                       \
    for (int i = 0; i < N; ++i)                                                \
      p[o * STRIDE + i] = to_half##MODE(v[i]);                                 \
  }
#define STORES_MODE(T, NAME, MODE, AS)                                         \
  OVL void NAME##MODE(T v, size_t o, AS half *p) { p[o] = to_half##MODE(v); }  \
  STORE_N(T, 2, 2, NAME, MODE, AS) STORE_N(T, 4, 4, NAME, MODE, AS)            \
  STORE_N(T, 8, 8, NAME, MODE, AS) STORE_N(T, 16, 16, NAME, MODE, AS)
#define STORES_AS(T, MODE, AS)                                                 \
  STORES_MODE(T, vstore_half, MODE, AS) STORES_MODE(T, vstorea_half, MODE, AS) \
  STORE_N(T, 3, 3, vstore_half, MODE, AS)                                      \
  STORE_N(T, 3, 4, vstorea_half, MODE, AS)
#define STORES(T, MODE)                                                        \
  STORES_AS(T, MODE, __generic) STORES_AS(T, MODE, __global)                   \
  STORES_AS(T, MODE, __local) STORES_AS(T, MODE, __private)
#define to_half to_half_rte
#define STORES_ALL_MODES(T)                                                    \
  STORES(T, ) STORES(T, _rte) STORES(T, _rtz) STORES(T, _rtp) STORES(T, _rtn)
STORES_ALL_MODES(float)
STORES_ALL_MODES(double)
