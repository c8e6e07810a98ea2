// corpus-source: written here for SKMD: atomics and builtins in the shapes public code uses them (global atomic minima and maxima per bin, bit flags raised with atomic_or and cleared with atomic_and, counters counted down with atomic_sub and atomic_dec, local atomic minima and maxima, a group's items exchanging values through global memory behind a global fence, integer builtins (saturating, halving, 24-bit, high halves, upsample, bitselect), vector shuffles, conversions with explicit rounding, reinterpretation with as_type)
// corpus-run: bin_extremes --global=2048 --local=128 --arg=2048:0..1000000 --arg=2048:0..63 --arg=64:2000000 --arg=64:zero --arg=2000
// corpus-run: flag_bits --global=1024 --local=128 --arg=1024:0..255 --arg=8:zero --arg=8:4294967295 --arg=1024
// corpus-run: count_down --global=1024 --local=128 --arg=1024:0..9 --arg=1:100000 --arg=1:100000 --arg=1024
// corpus-run: local_extremes --global=1024 --local=128 --arg=1024:-500..500 --arg=8:zero --arg=8:zero
// corpus-run: exchange_through_global --global=1024 --local=64 --arg=1024 --arg=1024:zero --arg=1024:zero
// corpus-run: integer_builtins --global=512 --local=64 --arg=512:-100000..100000 --arg=512:0..60000 --arg=512:zero
// corpus-run: vector_shuffles --global=256 --local=64 --arg=256 --arg=256:0..7 --arg=256:zero --arg=256:zero
// corpus-run: rounding_conversions --global=512 --local=64 --arg=512:-300..300 --arg=512:zero --arg=512:zero --arg=512:zero
// corpus-run: reinterpret_bits --global=512 --local=64 --arg=512:-1000..1000 --arg=512:zero --arg=512:zero
// corpus-note: every kernel here was written for this corpus; the global atomics are commutative integer updates, so any order gives the same result

// The smallest and largest value seen per bin (global atomic_min and
// atomic_max; lo starts high, hi at zero).
__kernel void bin_extremes(__global const int *values, __global const int *bins,
                           __global int *lo, __global int *hi, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  atomic_min(&lo[bins[i]], values[i]);
  atomic_max(&hi[bins[i]], values[i]);
}

// Which bytes occur: a bit per value, raised with atomic_or in one table
// and cleared with atomic_and in another that starts all ones.
__kernel void flag_bits(__global const uint *values, __global uint *seen, __global uint *unseen,
                        int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  uint v = values[i];
  atomic_or(&seen[v / 32], 1u << (v % 32));
  atomic_and(&unseen[v / 32], ~(1u << (v % 32)));
}

// Two budgets counted down: by each value, and by one per non-zero value.
__kernel void count_down(__global const int *values, __global int *budget,
                         __global int *remaining, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  atomic_sub(budget, values[i]);
  if (values[i])
    atomic_dec(remaining);
}

// A group's minimum and maximum through local atomics, stored per group.
__kernel void local_extremes(__global const int *values, __global int *lo, __global int *hi) {
  __local int l, h;
  if (get_local_id(0) == 0) {
    l = INT_MAX;
    h = INT_MIN;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = values[get_global_id(0)];
  atomic_min(&l, v);
  atomic_max(&h, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    lo[get_group_id(0)] = l;
    hi[get_group_id(0)] = h;
  }
}

// A group's items exchange values through global memory: each stores its
// own, and after a barrier with a global fence reads its mirror's within
// the group.
__kernel void exchange_through_global(__global const float *in, __global float *scratch,
                                      __global float *out) {
  int i = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  int base = get_group_id(0) * size;
  scratch[i] = in[i] * 2.0f;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = scratch[base + size - 1 - lid] - in[i];
}

// Integer builtins on each pair.
__kernel void integer_builtins(__global const int *a, __global const int *b, __global int *out) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  int r = add_sat(x, y * 40000) ^ sub_sat(x, INT_MAX - y);
  r += hadd(x, y) + rhadd(x, -y) + mad24(x & 0xFFFF, y, 7) + mul24(y, 3);
  r += mul_hi(x, y * 1000) + mad_hi(x, y, 5);
  r ^= (int)upsample((short)x, (ushort)y);
  r += bitselect(x, y, 0x0F0F0F0F) + clamp(x, -1000, 1000) + abs_diff(x, y);
  out[i] = r;
}

// Lanes permuted by a mask and merged from two vectors.
__kernel void vector_shuffles(__global const float8 *in, __global const uint8 *mask,
                              __global float8 *picked, __global float4 *merged) {
  int i = get_global_id(0);
  float8 v = in[i];
  uint8 m = mask[i] & 7u;
  picked[i] = shuffle(v, m);
  merged[i] = shuffle2(v.lo, v.hi, m.s0123) + v.s7654;
}

// Conversions of the same values with each rounding mode and saturation.
__kernel void rounding_conversions(__global const float *in, __global int4 *ints,
                                   __global uchar4 *bytes, __global short4 *shorts) {
  int i = get_global_id(0);
  float x = in[i] * 0.37f;
  ints[i] = (int4)(convert_int_rte(x), convert_int_rtz(x), convert_int_rtp(x),
                   convert_int_rtn(x));
  float4 y = (float4)(x, -x, x * 3.0f, x + 0.5f);
  bytes[i] = convert_uchar4_sat_rte(y);
  shorts[i] = convert_short4_sat_rtn(y * 200.0f);
}

// Floats taken apart through their bits: exponent and mantissa, and the
// next float up built from the bits.
__kernel void reinterpret_bits(__global const float *in, __global int *fields,
                               __global float *next_up) {
  int i = get_global_id(0);
  float x = in[i] * 1.7f;
  uint bits = as_uint(x);
  fields[i] = (int)((bits >> 23) & 0xFF) * 1000 + (int)(bits & 0x3FF);
  next_up[i] = as_float(x >= 0.0f ? bits + 1 : bits - 1);
}
