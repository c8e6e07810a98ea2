/* Forward substitution L x = b, column by column: x[j] is solved, then the
   rows below it drop their part of it. The update runs with a global work
   offset of j + 1, so get_global_id(0) is the row itself. */
__kernel void trisolv_pivot(__global const float *l, __global float *x, int n, int j) {
  x[j] = x[j] / l[j * n + j];
}

__kernel void trisolv_update(__global const float *l, __global float *x, int n, int j) {
  int i = get_global_id(0);
  if (i < n)
    x[i] -= l[i * n + j] * x[j];
}
