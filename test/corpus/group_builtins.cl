// Work-group copies, shuffles and OpenCL 2.0 (C11) atomics.
// corpus-targets: x86 (libclc's PTX has only some forms of the C11 atomics,
// and the SPIR-V variant needs Int64Atomics for atomic_long, which SPIR-V
// 1.2's OpenCL profile does not allow; the copies' events are gone since
// skmd-lower-async-copies)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

// Each group stages its tile with async_work_group_copy, reverses it
// through a second tile, and writes it back with a strided copy (every
// other element of out, from the group's offset).
__kernel void staged_reverse(__global const int *in, __global int *out) {
  __local int tile[64];
  __local int reversed[64];
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  reversed[l] = tile[n - 1 - l] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + 2 * g * n, reversed, n, 2, 0);
  wait_group_events(1, &e);
}

__kernel void shuffles(__global const int4 *a, __global const float8 *b,
                       __global const uint4 *mask, __global int4 *s1,
                       __global float4 *s2) {
  size_t i = get_global_id(0);
  s1[i] = shuffle(a[i], mask[i]);
  s2[i] = shuffle2(b[i].lo, b[i].hi, mask[i] * 3u);
}

// Per-group counts in a __local atomic, a global sum, max and a 64-bit
// total, all through the C11-style functions.
__kernel void c11_counters(__global const int *in, __global int *per_group,
                           __global atomic_int *sum, __global atomic_int *max,
                           __global atomic_long *total) {
  __local atomic_int count;
  size_t l = get_local_id(0);
  int x = in[get_global_id(0)];
  if (l == 0)
    atomic_store_explicit(&count, 0, memory_order_relaxed,
                          memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x > 0)
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed,
                              memory_scope_work_group);
  atomic_fetch_add(sum, x);
  atomic_fetch_max_explicit(max, x, memory_order_relaxed);
  atomic_fetch_add_explicit(total, (long)x * 100000, memory_order_relaxed,
                            memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int expected = atomic_load(&count);
    // Succeeds: count holds `expected`; the group's slot gets it.
    atomic_compare_exchange_strong(&count, &expected, -expected);
    per_group[get_group_id(0)] = atomic_load(&count);
  }
}
