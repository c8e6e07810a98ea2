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
// Atomics that are not combined but stay on one device's bytes: an update
// under a condition that never holds (AMD's copy1DCompletePath), a counter
// per group whose value is used. Tested at launch, and split.
__kernel void dead_atomic(__global const float *in, __global float *out) {
  int gid = get_global_id(0);
  if (gid < 0)
    atom_add((__global int *)out, 1);
  out[gid] = in[gid];
}
__kernel void group_counter(__global const int *in, __global int *out, __global int *count) {
  size_t i = get_global_id(0);
  int n = atomic_inc(&count[get_group_id(0)]);
  out[i] = in[i] * 1000 + n;
}
// Every group exchanges the same slot: pieces meet there.
__kernel void exchange(__global int *slots) {
  atomic_xchg(&slots[0], (int)get_global_id(0));
}
// A "something changed" flag (Rodinia's BFS): only set to 1, at one place.
__kernel void flag(__global const int *data, __global char *changed, int threshold) {
  if (data[get_global_id(0)] > threshold)
    *changed = 1;
}
