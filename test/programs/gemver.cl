/* gemver: A += u1 v1^T + u2 v2^T; x = x + beta A^T y + z; w = alpha A x. */
__kernel void gemver_rank2(__global float *a, __global const float *u1,
                           __global const float *v1, __global const float *u2,
                           __global const float *v2, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < n && j < n)
    a[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

__kernel void gemver_x(__global const float *a, __global float *x, __global const float *y,
                       int n, float beta) {
  int i = get_global_id(0);
  if (i < n) {
    float sum = x[i];
    for (int j = 0; j < n; ++j)
      sum += beta * a[j * n + i] * y[j];
    x[i] = sum;
  }
}

__kernel void gemver_add(__global float *x, __global const float *z, int n) {
  int i = get_global_id(0);
  if (i < n)
    x[i] += z[i];
}

__kernel void gemver_w(__global const float *a, __global const float *x, __global float *w,
                       int n, float alpha) {
  int i = get_global_id(0);
  if (i < n) {
    float sum = w[i];
    for (int j = 0; j < n; ++j)
      sum += alpha * a[i * n + j] * x[j];
    w[i] = sum;
  }
}
