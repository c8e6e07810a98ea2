// Integer builtins on vectors of 8-, 16-, 32- and 64-bit lanes. The 32-bit
// operands of mul24 / mad24 stay in their 24-bit range, with products
// that fit in 32 bits.

__kernel void int_vectors(__global const uchar16 *a8,
                          __global const uchar16 *b8, __global const int4 *a32,
                          __global const int4 *b32, __global const ulong2 *a64,
                          __global const ulong2 *b64, __global uchar16 *o8,
                          __global short8 *o16, __global int4 *o32,
                          __global ulong2 *o64) {
  size_t i = get_global_id(0);
  uchar16 x = a8[i], y = b8[i];
  o8[2 * i] = hadd(x, y) ^ rhadd(x, y).s02468ace13579bdf;
  o8[2 * i + 1] = abs_diff(as_char16(x), as_char16(y)) ^ clz(x) ^
                  rotate(x, y) ^ popcount(y);
  short8 s = as_short8(x), t = as_short8(y);
  o16[2 * i] = add_sat(s, t) ^ sub_sat(s, t);
  o16[2 * i + 1] = hadd(s, t) ^ rhadd(s, t) ^ clz(t);
  int4 p = a32[i], q = b32[i];
  o32[2 * i] = mul24(p, q);
  o32[2 * i + 1] = mad24(p, q, p.wzyx);
  ulong2 u = a64[i], v = b64[i];
  o64[3 * i] = popcount(u) | clz(v) << 8;
  o64[3 * i + 1] = rotate(u, v);
  o64[3 * i + 2] = add_sat(u, v) ^ sub_sat(u, v) ^ abs_diff(u, v) ^
                   hadd(u, v) ^ rhadd(u, v);
}

// mul_hi and upsample, which widen.
__kernel void wide_products(__global const int *a, __global const int *b,
                            __global int *hi, __global uint *uhi,
                            __global long *hi64, __global int *up32,
                            __global ulong *up64) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  hi[i] = mul_hi(x, y);
  uhi[i] = mul_hi((uint)x, (uint)y);
  hi64[i] = mul_hi((long)x * 1000003, (long)y * 999983);
  up32[i] = upsample((short)(x >> 16), (ushort)y);
  up64[i] = upsample((uint)x, (uint)y);
}
