// Partial sums: work-group g adds up the 2 * L floats starting at 2 * L * g
// (L = the local size, a power of two) and writes their sum to partial[g].
// Each work-item adds its two elements as it loads them, then the group
// halves the active items in a tree through `scratch`, L floats of __local
// memory given at launch.
__kernel void reduce_sum(__global const float *in, __global float *partial,
                         __local float *scratch, uint n) {
  uint lid = get_local_id(0), lsize = get_local_size(0);
  uint i = get_group_id(0) * lsize * 2 + lid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + lsize < n)
    sum += in[i + lsize];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint active = lsize / 2; active > 0; active /= 2) {
    if (lid < active)
      scratch[lid] += scratch[lid + active];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
