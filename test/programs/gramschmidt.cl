/* Modified Gram-Schmidt QR of an M x N matrix A (row-major), column k per
   step: the column's norm (one work-group, a local-memory tree), Q's
   column, then R's row and the remaining columns of A. */
__kernel void gs_norm(__global const float *a, __global float *r, __local float *partial,
                      int m, int n, int k) {
  int lid = get_local_id(0), size = get_local_size(0);
  float sum = 0.0f;
  for (int i = lid; i < m; i += size)
    sum += a[i * n + k] * a[i * n + k];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      partial[lid] += partial[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    r[k * n + k] = sqrt(partial[0]);
}

__kernel void gs_q(__global const float *a, __global const float *r, __global float *q, int m,
                   int n, int k) {
  int i = get_global_id(0);
  if (i < m)
    q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__kernel void gs_project(__global float *a, __global float *r, __global const float *q, int m,
                         int n, int k) {
  int j = k + 1 + get_global_id(0);
  if (j >= n)
    return;
  float dot = 0.0f;
  for (int i = 0; i < m; ++i)
    dot += q[i * n + k] * a[i * n + j];
  r[k * n + j] = dot;
  for (int i = 0; i < m; ++i)
    a[i * n + j] -= q[i * n + k] * dot;
}
