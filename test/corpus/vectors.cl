// Vector types: swizzles (.xyzw, .s0-.sf, .lo/.hi/.even/.odd, on both
// sides of assignments), lane-wise operators, and vloadN/vstoreN of every
// width at offsets that break the vectors' alignment.

__kernel void swizzle_float4(__global const float4 *a, __global const float4 *b,
                             __global float4 *out) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  float4 r = x.wzyx + y.xxyy;
  r.xy = r.yx - x.zw;
  r.odd = r.even + y.odd;
  float2 h = x.hi * y.lo;
  out[3 * i] = r;
  out[3 * i + 1] = (float4)(h, x.s31);
  out[3 * i + 2] = (float4)(y.s2, x.lo.y, y.hi.x, r.w) - (float4)(1.0f);
}

__kernel void int8_lanes(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  int8 v = vload8(i, in);
  int8 r = v.s76543210;
  r.lo += v.hi;
  r.even ^= v.odd;
  r.s07 = r.s70 * 3;
  int8 m = v > (int8)(0);
  r = (r & m) | ((v >> 2) & ~m);
  r.s3 = v.s5 - v.s2;
  vstore8(r, i, out);
}

__kernel void uint16_lanes(__global const uint *in, __global uint *out) {
  size_t i = get_global_id(0);
  uint16 v = vload16(i, in);
  uint16 r = v.sfedcba9876543210;
  r.s0123 = v.sABCD * 2u;
  r.hi.lo = v.lo.hi + v.hi.hi;
  r.odd ^= v.even << 3;
  r.sF = v.s0 + v.sf;
  vstore16(r, i, out);
}

// vloadN from __global floats and __constant ints at offsets that break
// the vectors' alignment, vstoreN likewise. With n work-items, out_f holds
// four regions and out_i two; see the test.
__kernel void vload_widths(__global const float *g, __constant int *c,
                           __global float *out_f, __global int *out_i) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float2 a = vload2(i, g + 1);
  float3 b = vload3(i, g + 2);
  float4 q = vload4(i, g + 3);
  float8 d = vload8(i, g + 5);
  float16 e = vload16(i, g + 7);
  vstore16(e + (float16)(d, d), i, out_f);
  vstore8(d - (float8)(q, q), i, out_f + 16 * n + 1);
  vstore3(b, i, out_f + 24 * n + 1);
  vstore2(a, i, out_f + 27 * n + 2);
  int4 k = vload4(i, c + 1);
  int3 k3 = vload3(i, c);
  vstore4(k * 2, i, out_i);
  vstore3(k3 - k.xyz, i, out_i + 4 * n + 1);
}

// Staging float4 and float8 values through a static __local tile: each
// work-item reads its neighbour's, with vloadN / vstoreN on __local memory
// on both sides of a barrier. (Vectors of 32 bytes and more, passed to a
// builtin in a kernel with a barrier, once broke the x86 pipeline.)
#define LS 16
__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void local_vectors(__global const float *g, __global float *out) {
  __local float tile[12 * LS + 1];
  size_t i = get_global_id(0), n = get_global_size(0);
  int l = get_local_id(0);
  vstore4(vload4(i, g), l, tile + 1);
  vstore8(vload8(i, g + 4 * n), l, tile + 4 * LS + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  int next = (l + 1) % LS;
  vstore4(vload4(next, tile + 1), i, out);
  vstore8(vload8(next, tile + 4 * LS + 1), i, out + 4 * n);
}
