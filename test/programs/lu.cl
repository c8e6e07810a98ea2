/* LU decomposition without pivoting, one elimination step k at a time:
   the column below the pivot is scaled, then the trailing block updated. */
__kernel void lu_scale(__global float *a, int n, int k) {
  int i = k + 1 + get_global_id(0);
  if (i < n)
    a[i * n + k] /= a[k * n + k];
}

__kernel void lu_update(__global float *a, int n, int k) {
  int j = k + 1 + get_global_id(0), i = k + 1 + get_global_id(1);
  if (i < n && j < n)
    a[i * n + j] -= a[i * n + k] * a[k * n + j];
}
