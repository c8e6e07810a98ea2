/* PolyBench-style gemver: four kernels (one 2-D, three 1-D) over nine
   buffers, all read back and checked. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 500, 1);
  float alpha = 0.5f, beta = 0.25f;
  ocl_init("gemver", NULL);
  size_t sv = sizeof(float) * n, sa = sv * n;
  float *a = xmalloc(sa), *v[8];
  fill_random(a, (size_t)n * n, 40);
  for (int i = 0; i < 8; ++i) {
    v[i] = xmalloc(sv);
    fill_random(v[i], n, 41 + i);
  }
  float *u1 = v[0], *v1 = v[1], *u2 = v[2], *v2 = v[3], *w = v[4], *x = v[5], *y = v[6],
        *z = v[7];
  cl_mem ma = ocl_buffer_from(a, sa), mv[8];
  for (int i = 0; i < 8; ++i)
    mv[i] = ocl_buffer_from(v[i], sv);
  cl_kernel k1 = ocl_kernel("gemver_rank2"), k2 = ocl_kernel("gemver_x"),
            k3 = ocl_kernel("gemver_add"), k4 = ocl_kernel("gemver_w");
  ARG(k1, 0, ma); ARG(k1, 1, mv[0]); ARG(k1, 2, mv[1]); ARG(k1, 3, mv[2]); ARG(k1, 4, mv[3]);
  ARG(k1, 5, n);
  ARG(k2, 0, ma); ARG(k2, 1, mv[5]); ARG(k2, 2, mv[6]); ARG(k2, 3, n); ARG(k2, 4, beta);
  ARG(k3, 0, mv[5]); ARG(k3, 1, mv[7]); ARG(k3, 2, n);
  ARG(k4, 0, ma); ARG(k4, 1, mv[5]); ARG(k4, 2, mv[4]); ARG(k4, 3, n); ARG(k4, 4, alpha);
  size_t g2[2] = {round_up(n, 32), round_up(n, 8)}, l2[2] = {32, 8};
  size_t g1 = round_up(n, 128), l1 = 128;
  ocl_run(k1, 2, g2, l2);
  ocl_run(k2, 1, &g1, &l1);
  ocl_run(k3, 1, &g1, NULL);
  ocl_run(k4, 1, &g1, &l1);
  float *got_a = xmalloc(sa), *got_x = xmalloc(sv), *got_w = xmalloc(sv);
  ocl_read(ma, sa, got_a);
  ocl_read(mv[5], sv, got_x);
  ocl_read(mv[4], sv, got_w);

  double *ra = xmalloc(sizeof(double) * n * n), *rx = xmalloc(sizeof(double) * n),
         *rw = xmalloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      ra[i * n + j] = (double)a[i * n + j] + (double)u1[i] * v1[j] + (double)u2[i] * v2[j];
  for (int i = 0; i < n; ++i) {
    double s = x[i];
    for (int j = 0; j < n; ++j)
      s += beta * ra[j * n + i] * y[j];
    rx[i] = s + z[i];
  }
  for (int i = 0; i < n; ++i) {
    double s = w[i];
    for (int j = 0; j < n; ++j)
      s += alpha * ra[i * n + j] * rx[j];
    rw[i] = s;
  }
  long bad = compare_floats("a", got_a, ra, (size_t)n * n, 1e-5, 1.0) +
             compare_floats("x", got_x, rx, n, 1e-4, 1.0) +
             compare_floats("w", got_w, rw, n, 1e-4, 1.0);
  release_mems(9, ma, mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7]);
  release_kernels(4, k1, k2, k3, k4);
  return ocl_report(bad, "gemver n=%d", n);
}
