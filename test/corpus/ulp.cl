// corpus-targets: x86 (test/unit/CpuUlpTest.cpp measures the x86 library's accuracy on the CPU)
// One math builtin per kernel, straight-line, so that the work-group
// function's loop over the work-items vectorizes as it does in programs
// (a switch over functions, as in math.cl, keeps it scalar and would hide
// the vectorizer's choice of functions). Each function in float, float4,
// float8 and float16, and in double and double4; the relaxed forms in
// float only.

#define divide(x, y) ((x) / (y))

#define UNARY_WIDTH(F, T, N)                                                   \
  __kernel void F##_##T##N(__global const T *x, __global T *y) {               \
    size_t i = get_global_id(0);                                               \
    vstore##N(F(vload##N(i, x)), i, y);                                        \
  }
#define UNARY_TYPE(F, T)                                                       \
  __kernel void F##_##T(__global const T *x, __global T *y) {                  \
    size_t i = get_global_id(0);                                               \
    y[i] = F(x[i]);                                                            \
  }
#define UNARY_FLOAT(F)                                                         \
  UNARY_TYPE(F, float)                                                         \
  UNARY_WIDTH(F, float, 4) UNARY_WIDTH(F, float, 8) UNARY_WIDTH(F, float, 16)
#define UNARY(F) UNARY_FLOAT(F) UNARY_TYPE(F, double) UNARY_WIDTH(F, double, 4)

#define BINARY_WIDTH(F, T, N)                                                  \
  __kernel void F##_##T##N(__global const T *x, __global const T *y,           \
                           __global T *z) {                                    \
    size_t i = get_global_id(0);                                               \
    vstore##N(F(vload##N(i, x), vload##N(i, y)), i, z);                        \
  }
#define BINARY_TYPE(F, T)                                                      \
  __kernel void F##_##T(__global const T *x, __global const T *y,              \
                        __global T *z) {                                       \
    size_t i = get_global_id(0);                                               \
    z[i] = F(x[i], y[i]);                                                      \
  }
#define BINARY_FLOAT(F)                                                        \
  BINARY_TYPE(F, float)                                                        \
  BINARY_WIDTH(F, float, 4) BINARY_WIDTH(F, float, 8) BINARY_WIDTH(F, float, 16)
#define BINARY(F) BINARY_FLOAT(F) BINARY_TYPE(F, double) BINARY_WIDTH(F, double, 4)

// pown and rootn: the second operand an int.
#define WITH_INT_WIDTH(F, T, N)                                                \
  __kernel void F##_##T##N(__global const T *x, __global const int *n,         \
                           __global T *z) {                                    \
    size_t i = get_global_id(0);                                               \
    vstore##N(F(vload##N(i, x), vload##N(i, n)), i, z);                        \
  }
#define WITH_INT_TYPE(F, T)                                                    \
  __kernel void F##_##T(__global const T *x, __global const int *n,            \
                        __global T *z) {                                       \
    size_t i = get_global_id(0);                                               \
    z[i] = F(x[i], n[i]);                                                      \
  }
#define WITH_INT(F)                                                            \
  WITH_INT_TYPE(F, float) WITH_INT_WIDTH(F, float, 4)                          \
  WITH_INT_WIDTH(F, float, 8) WITH_INT_WIDTH(F, float, 16)                     \
  WITH_INT_TYPE(F, double) WITH_INT_WIDTH(F, double, 4)

UNARY(exp)
UNARY(exp2)
UNARY(exp10)
UNARY(expm1)
UNARY(log)
UNARY(log2)
UNARY(log10)
UNARY(log1p)
UNARY(sqrt)
UNARY(rsqrt)
UNARY(cbrt)
UNARY(sin)
UNARY(cos)
UNARY(tan)
UNARY(asin)
UNARY(acos)
UNARY(atan)
UNARY(sinh)
UNARY(cosh)
UNARY(tanh)
UNARY(asinh)
UNARY(acosh)
UNARY(atanh)
UNARY(erf)
UNARY(erfc)
UNARY(tgamma)
UNARY(lgamma)
BINARY(pow)
BINARY(powr)
BINARY(atan2)
BINARY(hypot)
BINARY(fmod)
BINARY(remainder)
BINARY(divide)
WITH_INT(pown)
WITH_INT(rootn)

UNARY_FLOAT(half_exp)
UNARY_FLOAT(half_exp2)
UNARY_FLOAT(half_exp10)
UNARY_FLOAT(half_log)
UNARY_FLOAT(half_log2)
UNARY_FLOAT(half_log10)
UNARY_FLOAT(half_sqrt)
UNARY_FLOAT(half_rsqrt)
UNARY_FLOAT(half_recip)
UNARY_FLOAT(half_sin)
UNARY_FLOAT(half_cos)
UNARY_FLOAT(half_tan)
BINARY_FLOAT(half_divide)
BINARY_FLOAT(half_powr)
UNARY_FLOAT(native_exp)
UNARY_FLOAT(native_exp2)
UNARY_FLOAT(native_exp10)
UNARY_FLOAT(native_log)
UNARY_FLOAT(native_log2)
UNARY_FLOAT(native_log10)
UNARY_FLOAT(native_sqrt)
UNARY_FLOAT(native_rsqrt)
UNARY_FLOAT(native_recip)
UNARY_FLOAT(native_sin)
UNARY_FLOAT(native_cos)
UNARY_FLOAT(native_tan)
BINARY_FLOAT(native_divide)
BINARY_FLOAT(native_powr)
