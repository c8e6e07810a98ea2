// corpus-source: written here for SKMD: sorting, searching and histogram kernels in the shapes public suites and SDK samples have (a bitonic sort of each group's block in local memory, one global bitonic step in place, odd-even transposition in local memory, radix-sort digit counts and a stable local split by one bit, a rank sort that scatters, merging sorted runs by binary search, lower bounds of keys, private and local histograms, sub-histograms merged per bin, keys and values sorted together)
// corpus-run: bitonic_block --global=1024 --local=128 --arg=2048 --arg=2048:zero
// corpus-run: bitonic_step --global=2048 --local=64 --arg=2048:0..100000 --arg=8 --arg=4
// corpus-run: bitonic_step --global=2048 --local=64 --arg=2048:0..100000 --arg=256 --arg=32
// corpus-run: bitonic_pairs --global=1024 --local=64 --arg=2048:0..100000 --arg=3 --arg=1
// corpus-run: odd_even_block --global=512 --local=64 --arg=512:0..1000 --arg=512:zero
// corpus-run: digit_counts --global=2048 --local=128 --arg=2048:0..65535 --arg=16*16:zero --arg=4
// corpus-run: split_by_bit --global=1024 --local=128 --arg=1024:0..255 --arg=1024:zero --arg=3
// corpus-run: rank_sort --global=512 --local=64 --arg=500 --arg=512:zero --arg=500
// corpus-run: merge_sorted_runs --global=1024 --local=64 --arg=600:iota --arg=424:iota --arg=1024:zero --arg=600 --arg=424
// corpus-run: lower_bounds --global=1024 --local=128 --arg=5000:iota --arg=1000:0..6000 --arg=1000:zero --arg=5000 --arg=1000
// corpus-run: histogram_private --global=256 --local=64 --arg=8192:0..1000 --arg=32:zero --arg=8192
// corpus-run: histogram_bytes --global=2048 --local=256 --arg=2048:0..255 --arg=8*256:zero --arg=2048
// corpus-run: merge_histograms --global=256 --local=64 --arg=8*256:0..100 --arg=256:zero --arg=8
// corpus-run: sort_pairs_block --global=256 --local=64 --arg=256:0..50 --arg=256:iota --arg=256:zero --arg=256:zero
// corpus-note: every kernel here was written for this corpus; the sorts sort each group's own block, except bitonic_step (a pass over the whole array, each pair owned by one work-item) and rank_sort (a permutation scattered from ranks)

// Sorts each group's 2 x size keys ascending with a full bitonic network
// in local memory.
__kernel void bitonic_block(__global const float *in, __global float *out) {
  __local float k[256];
  int lid = get_local_id(0), n = 2 * get_local_size(0);
  int base = get_group_id(0) * n;
  k[lid] = in[base + lid];
  k[lid + n / 2] = in[base + lid + n / 2];
  for (int size = 2; size <= n; size <<= 1)
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      int pos = 2 * lid - (lid & (stride - 1));
      bool ascending = ((pos & size) == 0) || size == n;
      float a = k[pos], b = k[pos + stride];
      if ((a > b) == ascending) {
        k[pos] = b;
        k[pos + stride] = a;
      }
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + lid] = k[lid];
  out[base + lid + n / 2] = k[lid + n / 2];
}

// One step (size, stride) of a bitonic sort over the whole array, in
// place: the item whose partner is above it compares and swaps the pair.
__kernel void bitonic_step(__global uint *keys, int size, int stride) {
  int i = get_global_id(0), j = i ^ stride;
  if (j <= i)
    return;
  uint a = keys[i], b = keys[j];
  bool ascending = (i & size) == 0;
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[j] = a;
  }
}

// The same step with one item per pair, the pair's places computed from
// the item's index (the stride's block and the place within it); stage
// s sorts runs of 2^(s+1), pass p compares keys 2^(s-p) apart.
__kernel void bitonic_pairs(__global uint *keys, int stage, int pass) {
  uint i = get_global_id(0);
  uint stride = 1u << (stage - pass), block = 2 * stride;
  uint left = (i % stride) + (i / stride) * block, right = left + stride;
  bool ascending = ((i >> stage) & 1) == 0;
  uint a = keys[left], b = keys[right];
  if ((a > b) == ascending) {
    keys[left] = b;
    keys[right] = a;
  }
}

// Odd-even transposition sort of each group's block, one key per item.
__kernel void odd_even_block(__global const int *in, __global int *out) {
  __local int k[64];
  int lid = get_local_id(0), n = get_local_size(0);
  k[lid] = in[get_global_id(0)];
  for (int phase = 0; phase < n; ++phase) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int partner = lid ^ 1;
    if (phase & 1)
      partner = (lid & 1) ? lid + 1 : lid - 1;
    int mine = k[lid];
    int other = (partner >= 0 && partner < n) ? k[partner] : mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (partner >= 0 && partner < n)
      k[lid] = (lid < partner) ? min(mine, other) : max(mine, other);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = k[lid];
}

// Radix sort's first pass: each group counts the 16 values of one 4-bit
// digit of its keys (local atomics) and stores them digit-major, so that
// one scan of counts gives every group's offsets.
__kernel void digit_counts(__global const uint *keys, __global uint *counts, int shift) {
  __local uint c[16];
  int lid = get_local_id(0);
  if (lid < 16)
    c[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&c[(keys[get_global_id(0)] >> shift) & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    counts[lid * get_num_groups(0) + get_group_id(0)] = c[lid];
}

// A stable split of each group's keys by one bit: zeros first, then ones,
// each in their order (a local scan of the bit gives the places).
__kernel void split_by_bit(__global const uint *in, __global uint *out, int bit) {
  __local uint ones[128];
  int lid = get_local_id(0), n = get_local_size(0);
  int base = get_group_id(0) * n;
  uint key = in[base + lid];
  uint mine = (key >> bit) & 1;
  ones[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    uint add = lid >= off ? ones[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ones[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint ones_before = ones[lid] - mine, total_ones = ones[n - 1];
  uint zeros = n - total_ones;
  int place = mine ? zeros + ones_before : lid - ones_before;
  out[base + place] = key;
}

// Rank sort: each value's place is the number of values below it (ties by
// index), and it is stored there.
__kernel void rank_sort(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float v = in[i];
  int rank = 0;
  for (int j = 0; j < n; ++j) {
    float w = in[j];
    rank += (w < v) || (w == v && j < i);
  }
  out[rank] = v;
}

// Merges two sorted runs: output element i finds how many of it come from
// a (a binary search along the cross diagonal) and takes the smaller head.
__kernel void merge_sorted_runs(__global const int *a, __global const int *b, __global int *out,
                                int na, int nb) {
  int i = get_global_id(0);
  if (i >= na + nb)
    return;
  int lo = max(0, i - nb), hi = min(i, na);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] <= b[i - mid - 1])
      lo = mid + 1;
    else
      hi = mid;
  }
  int ia = lo, ib = i - lo;
  bool take_a = ib >= nb || (ia < na && a[ia] <= b[ib]);
  out[i] = take_a ? a[ia] : b[ib];
}

// The first place in a sorted array whose value is not below each key.
__kernel void lower_bounds(__global const int *sorted, __global const int *keys,
                           __global int *places, int n, int count) {
  int i = get_global_id(0);
  if (i >= count)
    return;
  int key = keys[i], lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  places[i] = lo;
}

// A private 32-bin histogram per work-item over its grid-stride part,
// merged into the global bins with atomic adds.
__kernel void histogram_private(__global const uint *values, __global uint *bins, int n) {
  uint mine[32];
  for (int b = 0; b < 32; ++b)
    mine[b] = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    ++mine[values[i] * 32 / 1001];
  for (int b = 0; b < 32; ++b)
    if (mine[b])
      atomic_add(&bins[b], mine[b]);
}

// 256 byte bins counted in local memory from four bytes per work-item
// (a uint read as uchar4); each group's sub-histogram stored in its row.
__kernel void histogram_bytes(__global const uchar4 *data, __global uint *sub, int n) {
  __local uint bins[256];
  int lid = get_local_id(0);
  bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0);
  if (i < n) {
    uchar4 p = data[i];
    atomic_inc(&bins[p.x]);
    atomic_inc(&bins[p.y]);
    atomic_inc(&bins[p.z]);
    atomic_inc(&bins[p.w]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  sub[get_group_id(0) * 256 + lid] = bins[lid];
}

// The groups' sub-histograms summed bin by bin.
__kernel void merge_histograms(__global const uint *sub, __global uint *bins, int groups) {
  int b = get_global_id(0);
  uint s = 0;
  for (int g = 0; g < groups; ++g)
    s += sub[g * 256 + b];
  bins[b] = s;
}

// Keys and their values sorted together within each group by insertion
// into local memory (each item finds its key's place, ties by index).
__kernel void sort_pairs_block(__global const int *keys, __global const int *values,
                               __global int *sorted_keys, __global int *sorted_values) {
  __local int k[64];
  int lid = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  k[lid] = keys[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  int mine = k[lid], place = 0;
  for (int j = 0; j < n; ++j)
    place += k[j] < mine || (k[j] == mine && j < lid);
  sorted_keys[base + place] = mine;
  sorted_values[base + place] = values[base + lid];
}
