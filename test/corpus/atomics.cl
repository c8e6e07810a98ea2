// 32-bit atomics on __local and __global memory. Where the result depends
// on the order in which work-items got there, the kernels write it so that
// the set of values, not their places, is what is checked.

// Per bin (value mod nbins): count, minimum, maximum and xor of the values,
// gathered in two __local arrays given by the host (counts and xors in
// one, minima and maxima in the other), then merged into global bins.
__kernel void bin_stats(__global const int *values, __global uint *counts,
                        __global int *mins, __global int *maxs,
                        __global uint *xors, __local uint *lcount,
                        __local int *lext, int nbins, uint n) {
  size_t i = get_global_id(0);
  int l = get_local_id(0), ls = get_local_size(0);
  for (int b = l; b < nbins; b += ls) {
    lcount[b] = 0;
    lcount[nbins + b] = 0;
    lext[b] = INT_MAX;
    lext[nbins + b] = INT_MIN;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) {
    int v = values[i];
    int b = (uint)v % nbins;
    atomic_inc(&lcount[b]);
    atomic_xor(&lcount[nbins + b], (uint)v);
    atomic_min(&lext[b], v);
    atomic_max(&lext[nbins + b], v);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = l; b < nbins; b += ls) {
    atomic_add(&counts[b], lcount[b]);
    atomic_xor(&xors[b], lcount[nbins + b]);
    atomic_min(&mins[b], lext[b]);
    atomic_max(&maxs[b], lext[nbins + b]);
  }
}

// Stream compaction: the values above a threshold, packed at the front of
// out. Each group counts its own in __local memory, reserves that many
// slots with one global atomic_add, and fills them.
__kernel void compact(__global const int *in, __global int *out,
                      __global uint *count, int threshold, uint n) {
  __local uint group_count, base;
  size_t i = get_global_id(0);
  int v = i < n ? in[i] : threshold;
  bool keep = v > threshold;
  if (get_local_id(0) == 0)
    group_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint slot = keep ? atomic_inc(&group_count) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    base = atomic_add(count, group_count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (keep)
    out[base + slot] = v;
}

// Every work-item updates the same few global words: signed and unsigned
// minima and maxima, sums and counters, and bit masks.
__kernel void global_rmw(__global const int *v, __global int *ext,
                         __global uint *uext, __global int *counters,
                         __global uint *masks) {
  size_t i = get_global_id(0);
  int x = v[i];
  atomic_min(&ext[0], x);
  atomic_max(&ext[1], x);
  atomic_min(&uext[0], (uint)x);
  atomic_max(&uext[1], (uint)x);
  atomic_add(&counters[0], x & 0xff);
  atomic_sub(&counters[1], x & 0xff);
  atomic_inc(&counters[2]);
  atomic_dec(&counters[3]);
  // masks: [0, 8) bit i set where x is odd, [8, 16) bit i cleared where
  // x % 3 == 0, [16, 24) the xor of the values, by i % 8.
  uint bit = 1u << (i % 32);
  if (x & 1)
    atomic_or(&masks[i / 32], bit);
  if (x % 3 == 0)
    atomic_and(&masks[8 + i / 32], ~bit);
  atomic_xor(&masks[16 + i % 8], (uint)x);
}

// atomic_xchg hands tokens around. Globally: each work-item swaps its token
// into one of `slots` slots and keeps what it took out, at pool[slots + i].
// In __local memory: each group's work-items swap through one word, which
// starts as -1 - group id. Either way every token ends up somewhere in the
// buffer, once, with the slots' first values.
__kernel void xchg_pool(__global int *pool, __global int *lpool, int slots) {
  __local int held;
  size_t i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  size_t grp = get_group_id(0);
  int token = 1000 + (int)i;
  pool[slots + i] = atomic_xchg(&pool[i % slots], token);
  if (l == 0)
    held = -1 - (int)grp;
  barrier(CLK_LOCAL_MEM_FENCE);
  lpool[grp * (ls + 1) + l] = atomic_xchg(&held, token);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    lpool[grp * (ls + 1) + ls] = held;
}

// Read-modify-writes built from atomic_cmpxchg loops: a sum, and the
// maximum of floats kept as their bits in an int.
__kernel void cas_loops(__global const float *v, __global int *sum,
                        __global int *max_bits) {
  size_t i = get_global_id(0);
  int add = (int)(i % 7), old = 0, seen;
  while ((seen = atomic_cmpxchg(sum, old, old + add)) != old)
    old = seen;
  float x = v[i];
  int cur = as_int(-INFINITY);
  while (as_float(cur) < x) {
    int prev = atomic_cmpxchg(max_bits, cur, as_int(x));
    if (prev == cur)
      break;
    cur = prev;
  }
}
