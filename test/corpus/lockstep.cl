// Kernels that count on the work-items of a group running in step where
// OpenCL C promises nothing: each zeroes or fills a whole __local buffer,
// then writes its own slot, and only then waits at a barrier. PoCL keeps
// every slot, other drivers need not (test/unit/CpuBarrierTest.cpp).

// The zeroing loop becomes a memset.
__kernel void zero_then_slot(__global int *out, __local int *buf) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  for (size_t i = 0; i < n; ++i)
    buf[i] = 0;
  buf[lid] = (int)lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[n - 1 - lid];
}

// A fill that stays a loop (-1.5f is no repeated byte).
__kernel void fill_then_slot(__global float *out) {
  __local float buf[64];
  size_t lid = get_local_id(0);
  for (int i = 0; i < 64; ++i)
    buf[i] = -1.5f;
  if (lid < 64)
    buf[lid] = (float)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[63 - lid % 64];
}

// A Haar wavelet transform of each group's values: per level, every
// work-item zeroes the buffer, the first `width` write their values, and
// after the barrier the first half take the pairs' averages, the second
// half their half-differences.
__kernel void haar_levels(__global const float *in, __global float *out,
                          __local float *buf) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  size_t base = get_group_id(0) * n;
  float v = in[base + lid];
  for (size_t width = n; width > 1; width /= 2) {
    for (size_t i = 0; i < n; ++i)
      buf[i] = 0.0f;
    if (lid < width)
      buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t pairs = width / 2;
    if (lid < pairs)
      v = (buf[2 * lid] + buf[2 * lid + 1]) * 0.5f;
    else if (lid < width)
      v = (buf[2 * (lid - pairs)] - buf[2 * (lid - pairs) + 1]) * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[base + lid] = v;
}
