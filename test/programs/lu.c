/* PolyBench-style LU: the same two kernels launched N-1 times each, every
   launch with a new global size (the trailing block shrinks, rounded up
   to the work-group size: the kernels guard) and a new scalar argument
   (the step). */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 96, 1);
  ocl_init("lu", NULL);
  size_t bytes = sizeof(float) * n * n;
  float *a = xmalloc(bytes);
  fill_random(a, (size_t)n * n, 100);
  /* Diagonally dominant, so no pivoting is needed. */
  for (int i = 0; i < n; ++i)
    a[i * n + i] += (float)n;
  cl_mem ma = ocl_buffer_from(a, bytes);
  cl_kernel ks = ocl_kernel("lu_scale"), ku = ocl_kernel("lu_update");
  ARG(ks, 0, ma); ARG(ks, 1, n);
  ARG(ku, 0, ma); ARG(ku, 1, n);
  for (int k = 0; k < n - 1; ++k) {
    size_t rest = (size_t)(n - k - 1);
    size_t g1 = round_up(rest, 64), l1 = 64;
    size_t g2[2] = {round_up(rest, 8), round_up(rest, 8)}, l2[2] = {8, 8};
    ARG(ks, 2, k);
    ARG(ku, 2, k);
    ocl_run(ks, 1, &g1, &l1);
    ocl_run(ku, 2, g2, l2);
  }
  float *got = xmalloc(bytes);
  ocl_read(ma, bytes, got);

  double *r = xmalloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i)
    r[i] = a[i];
  for (int k = 0; k < n - 1; ++k) {
    for (int i = k + 1; i < n; ++i)
      r[i * n + k] /= r[k * n + k];
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < n; ++j)
        r[i * n + j] -= r[i * n + k] * r[k * n + j];
  }
  long bad = compare_floats("lu", got, r, (size_t)n * n, 1e-4, 1.0);
  CHECK(clReleaseMemObject(ma));
  release_kernels(2, ks, ku);
  return ocl_report(bad, "lu n=%d, %d launches", n, 2 * (n - 1));
}
