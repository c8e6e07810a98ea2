// Math, common and geometric builtins, one per run (op numbers as in
// test/unit/CpuMathTest.cpp), at several vector widths, for ULP checks.

float8 unary_op(int op, float8 x) {
  switch (op) {
  case 0: return exp(x);
  case 1: return exp2(x);
  case 2: return exp10(x);
  case 3: return log(x);
  case 4: return log2(x);
  case 5: return log10(x);
  case 6: return sin(x);
  case 7: return cos(x);
  case 8: return tan(x);
  case 9: return sqrt(x);
  case 10: return rsqrt(x);
  case 11: return asin(x);
  case 12: return acos(x);
  case 13: return atan(x);
  case 14: return sinh(x);
  case 15: return cosh(x);
  case 16: return tanh(x);
  case 17: return fabs(x);
  case 18: return floor(x);
  case 19: return ceil(x);
  case 20: return trunc(x);
  case 21: return round(x);
  case 22: return rint(x);
  case 23: return sign(x);
  case 24: return degrees(x);
  case 25: return radians(x);
  case 26: return native_exp(x);
  case 27: return native_exp2(x);
  case 28: return native_exp10(x);
  case 29: return native_log(x);
  case 30: return native_log2(x);
  case 31: return native_log10(x);
  case 32: return native_sin(x);
  case 33: return native_cos(x);
  case 34: return native_tan(x);
  case 35: return native_sqrt(x);
  case 36: return native_rsqrt(x);
  case 37: return native_recip(x);
  case 38: return half_exp(x);
  case 39: return half_log(x);
  case 40: return half_sin(x);
  case 41: return half_cos(x);
  case 42: return half_sqrt(x);
  case 43: return half_rsqrt(x);
  }
  return x;
}

__kernel void unary(__global const float *x, __global float *y, int op) {
  size_t i = get_global_id(0);
  vstore8(unary_op(op, vload8(i, x)), i, y);
}

// The half_ functions that unary leaves out.
float half_rest_op(int op, float x, float y) {
  switch (op) {
  case 0: return half_exp2(x);
  case 1: return half_exp10(x);
  case 2: return half_log2(x);
  case 3: return half_log10(x);
  case 4: return half_tan(x);
  case 5: return half_recip(x);
  case 6: return half_divide(x, y);
  case 7: return half_powr(x, y);
  }
  return x;
}

__kernel void half_rest(__global const float *x, __global const float *y,
                        __global float *out, int op) {
  size_t i = get_global_id(0);
  out[i] = half_rest_op(op, x[i], y[i]);
}

float4 binary_op(int op, float4 x, float4 y) {
  switch (op) {
  case 0: return pow(x, y);
  case 1: return powr(x, y);
  case 2: return atan2(x, y);
  case 3: return hypot(x, y);
  case 4: return fmod(x, y);
  case 5: return fmin(x, y);
  case 6: return fmax(x, y);
  case 7: return copysign(x, y);
  case 8: return fdim(x, y);
  case 9: return x / y;
  case 10: return native_divide(x, y);
  case 11: return native_powr(x, y);
  case 12: return step(x, y);
  case 13: return min(x, y);
  case 14: return max(x, y);
  case 15: return min(x, y.x);
  case 16: return max(x, y.w);
  }
  return x;
}

__kernel void binary(__global const float4 *x, __global const float4 *y,
                     __global float4 *out, int op) {
  size_t i = get_global_id(0);
  out[i] = binary_op(op, x[i], y[i]);
}

float ternary_op(int op, float a, float b, float c) {
  switch (op) {
  case 0: return fma(a, b, c);
  case 1: return mad(a, b, c);
  case 2: return clamp(a, b, c);
  case 3: return mix(a, b, c);
  case 4: return smoothstep(a, b, c);
  }
  return a;
}

__kernel void ternary(__global const float *a, __global const float *b,
                      __global const float *c, __global float *out, int op) {
  size_t i = get_global_id(0);
  out[i] = ternary_op(op, a[i], b[i], c[i]);
}

// Geometric functions on float4 vectors and on packed float3 ones.
__kernel void geometry4(__global const float4 *a, __global const float4 *b,
                        __global float *dots, __global float *lengths,
                        __global float *distances, __global float4 *crosses,
                        __global float4 *normals) {
  size_t i = get_global_id(0);
  float4 p = a[i], q = b[i];
  dots[i] = dot(p, q);
  lengths[i] = length(p);
  distances[i] = distance(p, q);
  crosses[i] = cross(p, q);
  normals[i] = normalize(p);
}

__kernel void geometry3(__global const float *a, __global const float *b,
                        __global float *dots, __global float *lengths,
                        __global float *distances, __global float *crosses,
                        __global float *normals) {
  size_t i = get_global_id(0);
  float3 p = vload3(i, a), q = vload3(i, b);
  dots[i] = dot(p, q);
  lengths[i] = length(p);
  distances[i] = distance(p, q);
  vstore3(cross(p, q), i, crosses);
  vstore3(normalize(p), i, normals);
}

// frexp with its exponents through a pointer into a buffer, on vectors:
// x86-64 passes a float2 as a double, and the exponents' private slot was
// made one int wide; frexp of a float4 crashed LLVM's VectorCombine.
__kernel void frexp_vectors(__global const float2 *x, __global const float4 *y,
                            __global float2 *m2, __global int2 *e2,
                            __global float4 *m4, __global int4 *e4) {
  size_t i = get_global_id(0);
  m2[i] = frexp(x[i], &e2[i]);
  m4[i] = frexp(y[i], &e4[i]);
}
