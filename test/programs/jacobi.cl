/* Jacobi 1-D and 2-D: each step averages neighbours from one grid into
   the other; borders stay fixed. */
__kernel void jacobi1d_step(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  if (i >= 1 && i < n - 1)
    out[i] = 0.33333f * (in[i - 1] + in[i] + in[i + 1]);
}

__kernel void jacobi2d_step(__global const float *in, __global float *out, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    out[i * n + j] = 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1] +
                             in[(i + 1) * n + j] + in[(i - 1) * n + j]);
}

/* Copies the interior of SRC over DST (PolyBench's second kernel). */
__kernel void jacobi2d_copy(__global const float *src, __global float *dst, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    dst[i * n + j] = src[i * n + j];
}
