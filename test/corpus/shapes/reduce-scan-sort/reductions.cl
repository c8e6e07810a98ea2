// corpus-source: written here for SKMD: reductions and scans in the shapes public suites and SDK samples have (a tree in local memory with the first add during the load, float4 and int4 loads, grid-stride accumulation, arg-min and arg-max pairs, a local reduction finished by a global atomic, counts through local atomics, doubles, Welford pairs, a tile reduced per group of a 2-D range, Hillis-Steele and Blelloch-like block scans, adding block offsets, a scan of the block sums by one group, segmented scans, stream compaction within a block, running maxima)
// corpus-run: reduce_two_loads --global=1024 --local=128 --arg=2048 --arg=8:zero --arg=2000
// corpus-run: reduce_float4 --global=512 --local=64 --arg=512 --arg=8:zero --arg=2048
// corpus-run: reduce_grid_stride --global=256 --local=64 --arg=10000 --arg=4:zero --arg=10000
// corpus-run: argmin_argmax --global=512 --local=64 --arg=4000 --arg=8:zero --arg=8:zero --arg=8:zero --arg=8:zero --arg=4000
// corpus-run: dot_partials --global=1024 --local=256 --arg=3000 --arg=3000 --arg=4:zero --arg=3000
// corpus-run: sum_into_counter --global=2048 --local=128 --arg=2048:0..1000 --arg=1:zero --arg=2000
// corpus-run: count_matches --global=4096 --local=256 --arg=4096:0..20 --arg=4:zero --arg=7 --arg=4096
// corpus-run: reduce_double --global=512 --local=64 --arg=1000 --arg=8:zero --arg=1000
// corpus-run: welford --global=256 --local=64 --arg=5000 --arg=4:zero --arg=4:zero --arg=4:zero --arg=5000
// corpus-run: tile_sums --global=64,48 --local=16,16 --arg=60*45 --arg=4*3:zero --arg=60 --arg=45
// corpus-run: norm_pairs --global=512 --local=128 --arg=1000 --arg=4:zero --arg=1000
// corpus-run: scan_doubling --global=1024 --local=128 --arg=1024:0..9 --arg=1024:zero --arg=8:zero --arg=1000
// corpus-run: add_block_offsets --global=1024 --local=128 --arg=1024:0..50 --arg=8:0..500 --arg=1024:zero --arg=1000
// corpus-run: scan_int4 --global=256 --local=64 --arg=256:0..9 --arg=256:zero --arg=4:zero
// corpus-run: scan_block_sums_one_group --global=64 --local=64 --arg=300:0..100 --arg=300:zero --arg=300
// corpus-run: segmented_scan --global=1024 --local=128 --arg=1024 --arg=1024:0..4 --arg=1024:zero
// corpus-run: compact_in_block --global=1024 --local=128 --arg=1024:0..99 --arg=1024:zero --arg=8:zero --arg=50
// corpus-run: running_max --global=512 --local=64 --arg=512 --arg=512:zero
// corpus-note: every kernel here was written for this corpus; each group writes its own partial result, except sum_into_counter and count_matches, which end in global atomic adds

// The classic tree: each item adds two elements while loading, then the
// group halves the active range with a barrier per step.
__kernel void reduce_two_loads(__global const float *in, __global float *partial, int n) {
  __local float s[128];
  int lid = get_local_id(0), size = get_local_size(0);
  int i = get_group_id(0) * size * 2 + lid;
  float v = 0.0f;
  if (i < n)
    v = in[i];
  if (i + size < n)
    v += in[i + size];
  s[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// Four elements per item through one float4 load.
__kernel void reduce_float4(__global const float4 *in, __global float *partial, int n) {
  __local float s[64];
  int lid = get_local_id(0), i = get_global_id(0);
  float4 v = i < n / 4 ? in[i] : (float4)(0.0f);
  s[lid] = (v.x + v.y) + (v.z + v.w);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// Grid-stride accumulation, then the tree; the local buffer sized by the
// group size through a macro.
#define GROUP 64
__kernel void reduce_grid_stride(__global const float *in, __global float *partial, int n) {
  __local float s[GROUP];
  int lid = get_local_id(0);
  float v = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    v += in[i];
  s[lid] = v;
  for (int stride = GROUP / 2; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// The smallest and largest value of each group's part and where they are
// (the first index on ties).
__kernel void argmin_argmax(__global const float *in, __global float *lo, __global int *lo_at,
                            __global float *hi, __global int *hi_at, int n) {
  __local float lv[64], hv[64];
  __local int li[64], hi_i[64];
  int lid = get_local_id(0), i = get_global_id(0);
  float v = in[min(i, n - 1)];
  lv[lid] = hv[lid] = v;
  li[lid] = hi_i[lid] = min(i, n - 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) {
      if (lv[lid + s] < lv[lid] || (lv[lid + s] == lv[lid] && li[lid + s] < li[lid])) {
        lv[lid] = lv[lid + s];
        li[lid] = li[lid + s];
      }
      if (hv[lid + s] > hv[lid] || (hv[lid + s] == hv[lid] && hi_i[lid + s] < hi_i[lid])) {
        hv[lid] = hv[lid + s];
        hi_i[lid] = hi_i[lid + s];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    int g = get_group_id(0);
    lo[g] = lv[0];
    lo_at[g] = li[0];
    hi[g] = hv[0];
    hi_at[g] = hi_i[0];
  }
}

// Partial dot products, grid-stride, reduced in a local array sized for
// groups of 256.
__kernel void dot_partials(__global const float *x, __global const float *y,
                           __global float *partial, int n) {
  __local float s[256];
  int lid = get_local_id(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc = fma(x[i], y[i], acc);
  s[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// A group's integer sum, then one global atomic add per group.
__kernel void sum_into_counter(__global const int *in, __global int *total, int n) {
  __local int s[128];
  int lid = get_local_id(0), i = get_global_id(0);
  s[lid] = i < n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    atomic_add(total, s[0]);
}

// How many elements are below, equal to, above and near the key: local
// atomic counters, added to the global ones once per group.
__kernel void count_matches(__global const int *in, __global uint *counts, int key, int n) {
  __local uint c[4];
  int lid = get_local_id(0), i = get_global_id(0);
  if (lid < 4)
    c[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) {
    int v = in[i];
    atomic_inc(&c[v < key ? 0 : v == key ? 1 : 2]);
    if (abs(v - key) <= 2)
      atomic_inc(&c[3]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 4)
    atomic_add(&counts[lid], c[lid]);
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The tree on doubles converted from floats.
__kernel void reduce_double(__global const float *in, __global double *partial, int n) {
  __local double s[64];
  int lid = get_local_id(0), i = get_global_id(0);
  s[lid] = i < n ? (double)in[i] * in[i] : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 32; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// Mean and variance: each item's Welford (count, mean, M2) over its
// grid-stride elements, then pairs combined in local memory.
__kernel void welford(__global const float *in, __global float *count_out,
                      __global float *mean_out, __global float *m2_out, int n) {
  __local float cnt[64], mean[64], m2[64];
  int lid = get_local_id(0);
  float c = 0.0f, m = 0.0f, q = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    c += 1.0f;
    float d = in[i] - m;
    m += d / c;
    q += d * (in[i] - m);
  }
  cnt[lid] = c;
  mean[lid] = m;
  m2[lid] = q;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s) {
      float cb = cnt[lid + s], ca = cnt[lid], total = ca + cb;
      if (total > 0.0f) {
        float d = mean[lid + s] - mean[lid];
        mean[lid] += d * cb / total;
        m2[lid] += m2[lid + s] + d * d * ca * cb / total;
        cnt[lid] = total;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    count_out[get_group_id(0)] = cnt[0];
    mean_out[get_group_id(0)] = mean[0];
    m2_out[get_group_id(0)] = m2[0];
  }
}

// Each 16 x 16 group of a 2-D range sums its tile of a w x h matrix.
__kernel void tile_sums(__global const float *in, __global float *sums, int w, int h) {
  __local float s[256];
  int x = get_global_id(0), y = get_global_id(1);
  int lid = get_local_id(1) * 16 + get_local_id(0);
  s[lid] = (x < w && y < h) ? in[y * w + x] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = s[0];
}

// Squared norms of float2 pairs (length n of pairs) reduced per group.
__kernel void norm_pairs(__global const float2 *in, __global float *partial, int n) {
  __local float s[128];
  int lid = get_local_id(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n / 2; i += get_global_size(0))
    acc += dot(in[i], in[i]);
  s[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// An inclusive scan of each group's block by doubling (Hillis-Steele),
// two local buffers swapped each step; each block's total stored.
__kernel void scan_doubling(__global const int *in, __global int *out, __global int *block_sums,
                            int n) {
  __local int buf[2][128];
  int lid = get_local_id(0), i = get_global_id(0), size = get_local_size(0);
  int cur = 0;
  buf[0][lid] = i < n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < size; off <<= 1) {
    int v = buf[cur][lid];
    if (lid >= off)
      v += buf[cur][lid - off];
    buf[1 - cur][lid] = v;
    cur = 1 - cur;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n)
    out[i] = buf[cur][lid];
  if (lid == size - 1)
    block_sums[get_group_id(0)] = buf[cur][lid];
}

// The second pass of a multi-block scan: each block adds the scanned total
// of the blocks before it.
__kernel void add_block_offsets(__global const int *scanned, __global const int *offsets,
                                __global int *out, int n) {
  __local int offset;
  int i = get_global_id(0);
  if (get_local_id(0) == 0)
    offset = offsets[get_group_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n)
    out[i] = scanned[i] + offset;
}

// An exclusive scan of four ints per item: the item's own four first, then
// the items' totals scanned in local memory.
__kernel void scan_int4(__global const int4 *in, __global int4 *out, __global int *block_sums) {
  __local int totals[64];
  int lid = get_local_id(0), size = get_local_size(0);
  int4 v = in[get_global_id(0)];
  int4 ex = (int4)(0, v.x, v.x + v.y, v.x + v.y + v.z);
  totals[lid] = ex.w + v.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < size; off <<= 1) {
    int add = lid >= off ? totals[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    totals[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int before = lid > 0 ? totals[lid - 1] : 0;
  out[get_global_id(0)] = ex + before;
  if (lid == size - 1)
    block_sums[get_group_id(0)] = totals[lid];
}

// The block sums' exclusive scan by a single group: chunks of the group's
// width in a loop, the running total carried in local memory.
__kernel void scan_block_sums_one_group(__global const int *sums, __global int *scanned, int n) {
  __local int chunk[64];
  __local int carry;
  int lid = get_local_id(0), size = get_local_size(0);
  if (lid == 0)
    carry = 0;
  for (int base = 0; base < n; base += size) {
    int v = base + lid < n ? sums[base + lid] : 0;
    chunk[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < size; off <<= 1) {
      int add = lid >= off ? chunk[lid - off] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      chunk[lid] += add;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (base + lid < n)
      scanned[base + lid] = carry + chunk[lid] - v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == size - 1)
      carry += chunk[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// An inclusive scan that restarts wherever a flag (a value of 0 in flags)
// starts a segment, within each group's block.
__kernel void segmented_scan(__global const float *in, __global const int *flags,
                             __global float *out) {
  __local float v[128];
  __local int head[128];
  int lid = get_local_id(0), i = get_global_id(0);
  v[lid] = in[i];
  head[lid] = flags[i] == 0 || lid == 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < 128; off <<= 1) {
    float add = 0.0f;
    int h = head[lid];
    if (lid >= off && !h) {
      add = v[lid - off];
      h = head[lid - off];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    v[lid] += add;
    head[lid] |= h;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[i] = v[lid];
}

// Stream compaction within each block: the kept values (those below the
// cut) packed to the front of the block's part of out in their order, the
// rest of that part -1; each block's count stored.
__kernel void compact_in_block(__global const int *in, __global int *out, __global int *counts,
                               int cut) {
  __local int pos[128];
  int lid = get_local_id(0), size = get_local_size(0), i = get_global_id(0);
  int base = get_group_id(0) * size;
  int v = in[i], keep = v < cut;
  pos[lid] = keep;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < size; off <<= 1) {
    int add = lid >= off ? pos[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    pos[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int kept = pos[size - 1];
  out[base + lid] = -1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (keep)
    out[base + pos[lid] - 1] = v;
  if (lid == 0)
    counts[get_group_id(0)] = kept;
}

// The running maximum of each group's block (an inclusive max-scan).
__kernel void running_max(__global const float *in, __global float *out) {
  __local float m[64];
  int lid = get_local_id(0);
  m[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < 64; off <<= 1) {
    float other = lid >= off ? m[lid - off] : -INFINITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    m[lid] = fmax(m[lid], other);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = m[lid];
}
