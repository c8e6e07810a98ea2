/* A 3-D 7-point heat-diffusion step with fixed borders, and a kernel that
   sums each z-plane of the grid (one work-group per plane, a local tree). */
__kernel void heat_step(__global const float *in, __global float *out, int n, float alpha) {
  int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= n || j >= n || k >= n)
    return;
  int at = (k * n + j) * n + i;
  if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
    out[at] = in[at];
    return;
  }
  float lap = in[at - 1] + in[at + 1] + in[at - n] + in[at + n] + in[at - n * n] +
              in[at + n * n] - 6.0f * in[at];
  out[at] = in[at] + alpha * lap;
}

__kernel void plane_sums(__global const float *grid, __global float *sums, __local float *part,
                         int n) {
  int k = get_group_id(0), lid = get_local_id(0), size = get_local_size(0);
  float s = 0.0f;
  for (int at = lid; at < n * n; at += size)
    s += grid[k * n * n + at];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[k] = part[0];
}
