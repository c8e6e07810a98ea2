/* gesummv: y = alpha A x + beta B x; mvt: x1 += A y1, x2 += A^T y2. */
__kernel void gesummv(__global const float *a, __global const float *b,
                      __global const float *x, __global float *y, __global float *tmp,
                      int n, float alpha, float beta) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float t = 0.0f, s = 0.0f;
  for (int j = 0; j < n; ++j) {
    t += a[i * n + j] * x[j];
    s += b[i * n + j] * x[j];
  }
  tmp[i] = t;
  y[i] = alpha * t + beta * s;
}

__kernel void mvt_x1(__global const float *a, __global float *x1, __global const float *y1,
                     int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; ++j)
      x1[i] += a[i * n + j] * y1[j];
}

__kernel void mvt_x2(__global const float *a, __global float *x2, __global const float *y2,
                     int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; ++j)
      x2[i] += a[j * n + i] * y2[j];
}
