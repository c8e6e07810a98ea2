// Integer, relational, vload/vstore and atomic builtins, for the CPU
// device's builtins library.
__kernel void integers(__global const int *a, __global const int *b,
                       __global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  // Sums in uint: signed overflow would be undefined.
  out[8 * i + 0] = (int)((uint)min(x, y) + (uint)max(x, y));
  out[8 * i + 1] = clamp(x, -100, 100);
  out[8 * i + 2] = (int)abs(x) ^ (int)abs_diff(x, y);
  out[8 * i + 3] = add_sat(x, y) ^ sub_sat(x, y);
  out[8 * i + 4] = (int)((uint)hadd(x, y) + (uint)rhadd(x, y));
  out[8 * i + 5] = popcount(x) + clz(y) * 64;
  out[8 * i + 6] = rotate(x, y & 31) ^ mad24(x & 0xffff, y & 0xfff, 7);
  out[8 * i + 7] =
      (int)((uint)select(x, y, x < y) + (uint)select(7, 9, (uint)(x & 1)));
}

__kernel void vectors(__global const float *in, __global float *out,
                      __global int *flags) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  float4 w = select(v, -v, isless(v, (float4)(0.0f)));
  vstore4(w, i, out);
  float3 t = vload3(i, in);
  // (any() is left out: LLVM 22's SPIR-V backend emits an OpAny on an
  // integer vector, which SPIRV-Tools rejects.)
  flags[i] = isnan(v.x) + 2 * isinf(v.y) + 4 * (int)signbit(t.z) +
             8 * isgreater(v.w, 0.5f);
}

__kernel void histogram(__global const uint *data, __global uint *bins,
                        uint n) {
  __local uint local_bins[16];
  size_t l = get_local_id(0);
  if (l < 16)
    local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  if (i < n)
    atomic_inc(&local_bins[data[i] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16)
    atomic_add(&bins[l], local_bins[l]);
}

// The same counts, but each item looks at the count it saw: the value an
// atomic returns is used, so no split can combine the devices' copies.
__kernel void histogram_seen(__global const uint *data, __global uint *bins,
                             uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    uint seen = atomic_inc(&bins[data[i] % 16]);
    if (seen == 0xFFFFFFFFu)
      bins[16 + i] = seen; // Never: the counts stay far below.
  }
}
