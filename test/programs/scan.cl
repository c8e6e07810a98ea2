/* Exclusive prefix sum of ints in three kernels: each work-group scans its
   block in local memory (up-sweep and down-sweep), the block sums are
   scanned by one group, then added back. */
__kernel void scan_blocks(__global const int *in, __global int *out, __global int *block_sums,
                          __local int *temp, int n) {
  int lid = get_local_id(0), size = get_local_size(0), group = get_group_id(0);
  int base = group * size * 2;
  int a = base + lid, b = base + lid + size;
  temp[lid] = a < n ? in[a] : 0;
  temp[lid + size] = b < n ? in[b] : 0;
  int offset = 1;
  for (int d = size; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset <<= 1;
  }
  if (lid == 0) {
    if (block_sums)
      block_sums[group] = temp[2 * size - 1];
    temp[2 * size - 1] = 0;
  }
  for (int d = 1; d <= size; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (a < n)
    out[a] = temp[lid];
  if (b < n)
    out[b] = temp[lid + size];
}

__kernel void add_block_sums(__global int *out, __global const int *scanned_sums, int n) {
  int i = get_global_id(0), block = i / (2 * get_local_size(0));
  if (i < n)
    out[i] += scanned_sums[block];
}
