// Barriers where CPU work-group functions find them hard: in loops, inside
// conditions that are uniform across the work-group, several in a row,
// around work-item-dependent loops, and scans in __local memory. Only the
// barrier-free kernel returns early.
#define WG 64

// out[i] = sum over all j of |x[i] - x[j]|, the x[j] staged through a
// __local tile given by the host: two barriers per trip of the tile loop.
// n must be a multiple of the local size.
__kernel void all_pairs_l1(__global const float *x, __global float *out,
                           __local float *tile, int n) {
  int i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  float xi = x[i], acc = 0.0f;
  for (int t = 0; t < n; t += ls) {
    tile[l] = x[t + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < ls; ++k)
      acc += fabs(xi - tile[k]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[i] = acc;
}

// A barrier in each branch of a condition on a kernel argument, which is
// the same for every work-item of the launch, then one after the join.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void uniform_branch(__global const int *in, __global int *out, int n) {
  __local int buf[WG];
  int g = get_global_id(0), l = get_local_id(0);
  int v = in[g];
  buf[l] = v;
  if (n > 16) {
    barrier(CLK_LOCAL_MEM_FENCE);
    v += buf[(l + n) % WG];
  } else {
    barrier(CLK_LOCAL_MEM_FENCE);
    v -= buf[WG - 1 - l];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = v * 2 + buf[(l + 1) % WG];
}

// A barrier under a condition on the group id: uniform within each group,
// different between groups.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_branch(__global const int *in, __global int *out) {
  __local int buf[WG];
  int g = get_global_id(0), l = get_local_id(0);
  int v = in[g];
  if (get_group_id(0) % 3 == 0) {
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[WG - 1 - l] - v;
  }
  out[g] = v;
}

// Four phases, each ending in a barrier, through two static __local arrays.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void barrier_sequence(__global const int *in, __global int *out) {
  __local int a[WG], b[WG];
  int g = get_global_id(0), l = get_local_id(0);
  a[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[l] = a[(l + 1) % WG] - a[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[l] = b[WG - 1 - l] * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  b[l] = a[(l * 5) % WG] ^ a[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = b[(l + 7) % WG] + l;
}

// A barrier in a loop with a uniform trip count, around an inner loop whose
// trip count depends on the work-item.
__kernel void wi_dependent_loop(__global const int *in, __global int *out,
                                __local int *buf, int steps) {
  int g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  int acc = in[g];
  for (int s = 0; s < steps; ++s) {
    buf[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 1; k <= (l + s) % 5; ++k)
      acc += buf[(l + k) % ls];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = acc;
}

// Inclusive scan of each group's slice (Hillis-Steele), ping-ponging
// between two __local buffers given by the host; also each slice's total.
__kernel void scan_hillis_steele(__global const int *in, __global int *out,
                                 __global int *totals, __local int *a,
                                 __local int *b) {
  int g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  a[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 1; d < ls; d <<= 1) {
    b[l] = l >= d ? a[l] + a[l - d] : a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int *t = a;
    a = b;
    b = t;
  }
  out[g] = a[l];
  if (l == ls - 1)
    totals[get_group_id(0)] = a[l];
}

// Exclusive scan (Blelloch) of each group's SCAN elements, two per
// work-item, in a static __local array: an up-sweep and a down-sweep loop
// with a barrier per level.
#define SCAN 128
__kernel __attribute__((reqd_work_group_size(SCAN / 2, 1, 1)))
void scan_blelloch(__global const float *in, __global float *out) {
  __local float t[SCAN];
  int l = get_local_id(0), base = get_group_id(0) * SCAN;
  t[2 * l] = in[base + 2 * l];
  t[2 * l + 1] = in[base + 2 * l + 1];
  int offset = 1;
  for (int d = SCAN / 2; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d)
      t[offset * (2 * l + 2) - 1] += t[offset * (2 * l + 1) - 1];
    offset <<= 1;
  }
  if (l == 0)
    t[SCAN - 1] = 0.0f;
  for (int d = 1; d < SCAN; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;
      float v = t[ai];
      t[ai] = t[bi];
      t[bi] += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = t[2 * l];
  out[base + 2 * l + 1] = t[2 * l + 1];
}

// Barrier-free, so work-items may leave early: past the end of the data
// (the range is rounded up to whole groups) and from inside a search loop.
// first[i] is the first k < 8 with rows[8i + k] > limit, or -1.
__kernel void early_exit(__global const int *rows, __global int *first,
                         int limit, uint n) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  for (int k = 0; k < 8; ++k)
    if (rows[8 * i + k] > limit) {
      first[i] = k;
      return;
    }
  first[i] = -1;
}

// LU factorisation's shape: a uniform loop with a barrier around a branch
// only some work-items take, holding a loop whose own bound is uniform.
__kernel void lu_shape(__global float *a) {
  int tx = get_local_id(0);
  int base = get_group_id(0) * get_local_size(0) * 16;
  for (int i = 0; i < 3; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++)
        a[base + tx * 16 + i] += 1.0f;
      a[base + tx * 16 + i] *= 0.5f;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// Two barriers in a row, then one after an `if` the optimizer empties.
__kernel void barriers_in_a_row(__global int *a, __local int *t, int n) {
  int l = get_local_id(0), g = get_global_id(0), size = get_local_size(0);
  t[l] = a[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = t[(l + 1) % size];
  if (n > 100) {
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  t[l] = v * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[g] = t[(l + 2) % size] + n;
}

// A private array written in a loop with barriers, each pass through
// another element: clang's SROA turns h[d] into a PHI choosing between the
// pieces of h, a pointer live across the barrier. Each work-item has its
// own h, so that pointer differs per work-item (it was kept once for the
// group, and every item's stores after the barrier went to the last
// item's h). The shape of SHOC's radix-sort bottom_scan.
__kernel void private_array_across_barriers(__global int *out, __local int *t) {
  int l = get_local_id(0);
  int h[2] = {0, 4};
  for (int d = 0; d < 2; d++) {
    t[l] = h[d] + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    h[d] = t[(l + 1) % get_local_size(0)] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = h[0] * 1000 + h[1];
}

// A __local scalar one work-item updates between barriers, which the others
// read in the next pass (SHOC's top_scan seed). On x86 LLVM made it the
// kernel's own local: each work-item kept a private copy and only the
// updating item saw its updates.
__kernel void local_seed_across_passes(__global int *out, const int n) {
  __local int seed;
  seed = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int l = get_local_id(0);
  int last = l + 1 == n ? 1 : 0;
  for (int d = 0; d < 3; d++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < n)
      out[n * d + l] = l + seed;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (last)
      seed += l + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
