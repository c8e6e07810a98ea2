// Sum reduction: each work-group reduces its slice of `in` through a __local
// scratch array given by the host (a __local pointer argument) and writes one
// partial sum per group to `partial`.
__kernel void reduce_sum(__global const float *in, __global float *partial,
                         __local float *scratch, uint n) {
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  scratch[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
