// Inclusive prefix sums of a large float array (as the AMD SDK's
// ScanLargeArrays): scan_blocks scans each block of 2 * L elements (L = the
// local size, a power of two) in __local memory and writes the block's
// total to sums[group]; the totals are scanned the same way, level by
// level, until one block holds them all; add_offsets then adds to each
// block the scanned total of the blocks before it, from the top level down.
// Elements at or past n read as 0 and are not written.

// Blelloch's work-efficient scan of the 2 * L values in `tmp`, leaving
// each one's inclusive prefix sum.
static void scan_local(__local float *tmp, uint lid, uint lsize) {
  uint two_l = 2 * lsize;
  uint offset = 1;
  for (uint d = lsize; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      uint a = offset * (2 * lid + 1) - 1, b = offset * (2 * lid + 2) - 1;
      tmp[b] += tmp[a];
    }
    offset <<= 1;
  }
  // tmp[two_l - 1] holds the total; the down-sweep makes exclusive sums.
  barrier(CLK_LOCAL_MEM_FENCE);
  float total = tmp[two_l - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    tmp[two_l - 1] = 0;
  for (uint d = 1; d < two_l; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      uint a = offset * (2 * lid + 1) - 1, b = offset * (2 * lid + 2) - 1;
      float t = tmp[a];
      tmp[a] = tmp[b];
      tmp[b] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Exclusive to inclusive: shift left by one, the total last.
  float mine0 = lid + 1 < two_l ? tmp[lid + 1] : total;
  float mine1 = lid + lsize + 1 < two_l ? tmp[lid + lsize + 1] : total;
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[lid] = mine0;
  tmp[lid + lsize] = mine1;
  barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void scan_blocks(__global const float *in, __global float *out,
                          __global float *sums, __local float *tmp, uint n) {
  uint lid = get_local_id(0), lsize = get_local_size(0);
  uint base = get_group_id(0) * 2 * lsize;
  uint i0 = base + lid, i1 = base + lid + lsize;
  tmp[lid] = i0 < n ? in[i0] : 0.0f;
  tmp[lid + lsize] = i1 < n ? in[i1] : 0.0f;
  scan_local(tmp, lid, lsize);
  if (i0 < n)
    out[i0] = tmp[lid];
  if (i1 < n)
    out[i1] = tmp[lid + lsize];
  if (lid == 0)
    sums[get_group_id(0)] = tmp[2 * lsize - 1];
}

__kernel void add_offsets(__global float *data, __global const float *scanned_sums,
                          uint n) {
  uint group = get_group_id(0);
  if (group == 0)
    return;
  uint lid = get_local_id(0), lsize = get_local_size(0);
  uint base = group * 2 * lsize;
  float offset = scanned_sums[group - 1];
  if (base + lid < n)
    data[base + lid] += offset;
  if (base + lid + lsize < n)
    data[base + lid + lsize] += offset;
}
