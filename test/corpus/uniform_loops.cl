// Kernels whose inner loop every work-item runs alike and which carry a
// float: the x86 variant runs their work-items inside the loop
// (skmd-implicit-loop-barriers), with per-group loop counters.

// y = A x, one row per work-item; a tail group runs partly.
__kernel void matvec(__global const float *a, __global const float *x,
                     __global float *y, int rows, int cols) {
  int r = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k)
    sum += a[min(r, rows - 1) * cols + k] * x[k];
  if (r < rows)
    y[r] = sum;
}

// Pairwise attraction of float4 points (w is a weight), all pairs, in
// loops over tiles that the work-items stage together: a loop with
// barriers around a uniform loop without.
__kernel void attraction(__global const float4 *p, __global float4 *force,
                         __local float4 *tile, uint n) {
  uint i = get_global_id(0), l = get_local_id(0), size = get_local_size(0);
  float4 me = p[i];
  float3 f = (float3)(0.0f);
  for (uint base = 0; base < n; base += size) {
    tile[l] = p[base + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < size; ++j) {
      float3 d = tile[j].xyz - me.xyz;
      float inv = rsqrt(dot(d, d) + 0.01f);
      f += tile[j].w * inv * inv * inv * d;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  force[i] = (float4)(f, 0.0f);
}
