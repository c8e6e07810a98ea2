// Loops over rows with affine strides.
__kernel void row_sum(__global const float *m, __global float *sums, int cols) {
  size_t r = get_global_id(0);
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c)
    acc += m[r * cols + c];
  sums[r] = acc;
}

__kernel void every_fourth(__global float *a, int n) {
  size_t g = get_global_id(0);
  for (int k = 0; k < n; k += 4)
    a[g * 64 + k] = 0.0f;
}

static void store_pair(__global float2 *p, size_t i, float v) {
  p[i] = (float2)(v, -v);
}

__kernel void pairs(__global float2 *dst, __global const float *src) {
  __global float2 *d = dst;
  size_t i = get_global_id(0);
  store_pair(d, i, src[i]);
}
