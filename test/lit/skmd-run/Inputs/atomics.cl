// Buffers that groups update only with commutative integer atomics are
// split: each device works on its own copy, combined afterwards.
__kernel void histogram(__global const uint *data, __global uint *bins, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    atomic_inc(&bins[data[i] % 16]);
}
__kernel void local_then_global(__global const uint *data, __global uint *bins) {
  __local uint lb[16];
  size_t l = get_local_id(0);
  if (l < 16) lb[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&lb[data[get_global_id(0)] % 16], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], lb[l]);
}
__kernel void extremes(__global const int *data, __global int *lo, __global int *hi,
                       __global uint *bits_or, __global uint *bits_and, __global uint *bits_xor) {
  int v = data[get_global_id(0)];
  atomic_min(lo, v);
  atomic_max(hi, v);
  atomic_or(bits_or, 1u << (v & 31));
  atomic_and(bits_and, ~(1u << (v & 31)));
  atomic_xor(bits_xor, (uint)v);
}
__kernel void counter(__global const int *data, __global uint *count) {
  if (data[get_global_id(0)] > 50) atomic_inc(count);
}
__kernel void slots(__global const int *data, __global int *out, __global uint *count) {
  int v = data[get_global_id(0)];
  if (v > 50) out[atomic_inc(count)] = v;
}
