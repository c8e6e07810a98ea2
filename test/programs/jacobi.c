/* PolyBench-style Jacobi 1-D (ping-pong: the buffer arguments swap each
   step) and 2-D (a step kernel and a copy-back kernel each step), T time
   steps each; the grids are read once at the end. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 256, 1);
  int n1 = n * 64, steps = 20;
  ocl_init("jacobi", NULL);
  float *a1 = xmalloc(sizeof(float) * n1), *a2 = xmalloc(sizeof(float) * n * n);
  fill_random(a1, n1, 80);
  fill_random(a2, (size_t)n * n, 81);
  cl_mem x = ocl_buffer_from(a1, sizeof(float) * n1), y = ocl_buffer_from(a1, sizeof(float) * n1);
  cl_kernel k1 = ocl_kernel("jacobi1d_step");
  size_t g1 = round_up(n1, 128), l1 = 128;
  for (int t = 0; t < steps; ++t) {
    cl_mem in = t % 2 ? y : x, out = t % 2 ? x : y;
    ARG(k1, 0, in); ARG(k1, 1, out); ARG(k1, 2, n1);
    ocl_run(k1, 1, &g1, &l1);
  }
  float *got1 = xmalloc(sizeof(float) * n1);
  ocl_read(steps % 2 ? y : x, sizeof(float) * n1, got1);

  cl_mem a = ocl_buffer_from(a2, sizeof(float) * n * n), b = ocl_buffer_from(a2, sizeof(float) * n * n);
  cl_kernel ks = ocl_kernel("jacobi2d_step"), kc = ocl_kernel("jacobi2d_copy");
  ARG(ks, 0, a); ARG(ks, 1, b); ARG(ks, 2, n);
  ARG(kc, 0, b); ARG(kc, 1, a); ARG(kc, 2, n);
  size_t g2[2] = {round_up(n, 16), round_up(n, 16)}, l2[2] = {16, 16};
  for (int t = 0; t < steps; ++t) {
    ocl_run(ks, 2, g2, l2);
    ocl_run(kc, 2, g2, NULL);
  }
  float *got2 = xmalloc(sizeof(float) * n * n);
  ocl_read(a, sizeof(float) * n * n, got2);

  /* The reference repeats the kernels' float arithmetic in the same order. */
  float *r = xmalloc(sizeof(float) * n1), *s = xmalloc(sizeof(float) * n1);
  memcpy(r, a1, sizeof(float) * n1);
  memcpy(s, a1, sizeof(float) * n1);
  for (int t = 0; t < steps; ++t) {
    float *in = t % 2 ? s : r, *out = t % 2 ? r : s;
    for (int i = 1; i < n1 - 1; ++i)
      out[i] = 0.33333f * (in[i - 1] + in[i] + in[i + 1]);
  }
  double *want1 = xmalloc(sizeof(double) * n1);
  for (int i = 0; i < n1; ++i)
    want1[i] = (steps % 2 ? s : r)[i];
  float *p = xmalloc(sizeof(float) * n * n), *q = xmalloc(sizeof(float) * n * n);
  memcpy(p, a2, sizeof(float) * n * n);
  memcpy(q, a2, sizeof(float) * n * n);
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        q[i * n + j] = 0.2f * (p[i * n + j] + p[i * n + j - 1] + p[i * n + j + 1] +
                               p[(i + 1) * n + j] + p[(i - 1) * n + j]);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        p[i * n + j] = q[i * n + j];
  }
  double *want2 = xmalloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i)
    want2[i] = p[i];
  long bad = compare_floats("jacobi1d", got1, want1, n1, 1e-5, 1.0) +
             compare_floats("jacobi2d", got2, want2, (size_t)n * n, 1e-5, 1.0);
  release_mems(4, x, y, a, b);
  release_kernels(3, k1, ks, kc);
  return ocl_report(bad, "jacobi-1d n=%d, jacobi-2d %dx%d, %d steps", n1, n, n, steps);
}
