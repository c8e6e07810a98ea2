/* An ADI-style solver: tridiagonal sweeps along rows (one work-item per
   row, a loop along it), then along columns one row at a time (one
   work-item per column, the row a scalar argument). */
__kernel void adi_row_forward(__global float *x, __global const float *a, __global float *b,
                              int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  for (int j = 1; j < n; ++j) {
    x[i * n + j] -= x[i * n + j - 1] * a[i * n + j] / b[i * n + j - 1];
    b[i * n + j] -= a[i * n + j] * a[i * n + j] / b[i * n + j - 1];
  }
}

__kernel void adi_row_back(__global float *x, __global const float *a, __global const float *b,
                           int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  x[i * n + n - 1] /= b[i * n + n - 1];
  for (int j = n - 2; j >= 0; --j)
    x[i * n + j] = (x[i * n + j] - a[i * n + j + 1] * x[i * n + j + 1]) / b[i * n + j];
}

__kernel void adi_col_forward(__global float *x, __global const float *a, __global float *b,
                              int n, int row) {
  int j = get_global_id(0);
  if (j < n) {
    x[row * n + j] -= x[(row - 1) * n + j] * a[row * n + j] / b[(row - 1) * n + j];
    b[row * n + j] -= a[row * n + j] * a[row * n + j] / b[(row - 1) * n + j];
  }
}

__kernel void adi_col_last(__global float *x, __global const float *b, int n) {
  int j = get_global_id(0);
  if (j < n)
    x[(n - 1) * n + j] /= b[(n - 1) * n + j];
}

__kernel void adi_col_back(__global float *x, __global const float *a, __global const float *b,
                           int n, int row) {
  int j = get_global_id(0);
  if (j < n)
    x[row * n + j] = (x[row * n + j] - a[(row + 1) * n + j] * x[(row + 1) * n + j]) /
                     b[row * n + j];
}
