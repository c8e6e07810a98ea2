/* Kernels with optional buffers: OpenCL lets a program pass NULL for a
   __global argument, and the kernel tests the pointer. */
__kernel void axpy_bias(__global const float *x, __global float *y, __global const float *bias,
                        float a, int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i] + (bias ? bias[i % 16] : 0.0f);
}

/* Optional mask, and optional output of how many cells per row are
   scaled. */
__kernel void masked_scale(__global float *m, __global const int *mask, __global float *row_sums,
                           int width, int height, float s) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  if (!mask || mask[y * width + x])
    m[y * width + x] *= s;
  if (row_sums && x == 0) {
    float sum = 0.0f;
    for (int i = 0; i < width; ++i)
      sum += (!mask || mask[y * width + i]) ? 1.0f : 0.0f;
    row_sums[y] = sum;
  }
}
