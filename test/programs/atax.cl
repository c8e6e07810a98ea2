/* atax: y = A^T (A x); bicg: s = A^T r, q = A p. */
__kernel void atax_ax(__global const float *a, __global const float *x, __global float *tmp,
                      int nx, int ny) {
  int i = get_global_id(0);
  if (i < nx) {
    float sum = 0.0f;
    for (int j = 0; j < ny; ++j)
      sum += a[i * ny + j] * x[j];
    tmp[i] = sum;
  }
}

__kernel void atax_aty(__global const float *a, __global const float *tmp, __global float *y,
                       int nx, int ny) {
  int j = get_global_id(0);
  if (j < ny) {
    float sum = 0.0f;
    for (int i = 0; i < nx; ++i)
      sum += a[i * ny + j] * tmp[i];
    y[j] = sum;
  }
}

__kernel void bicg_s(__global const float *a, __global const float *r, __global float *s,
                     int nx, int ny) {
  int j = get_global_id(0);
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; ++i)
      s[j] += r[i] * a[i * ny + j];
  }
}

__kernel void bicg_q(__global const float *a, __global const float *p, __global float *q,
                     int nx, int ny) {
  int i = get_global_id(0);
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; ++j)
      q[i] += a[i * ny + j] * p[j];
  }
}
