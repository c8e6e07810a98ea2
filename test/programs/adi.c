/* PolyBench-style ADI: per time step, two row-sweep launches, then the
   column sweeps: 2N-1 launches of three kernels, each with the row as a
   new scalar argument. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 64, 1);
  int steps = 3;
  ocl_init("adi", NULL);
  size_t bytes = sizeof(float) * n * n;
  float *x = xmalloc(bytes), *a = xmalloc(bytes), *b = xmalloc(bytes);
  fill_random(x, (size_t)n * n, 130);
  fill_random(a, (size_t)n * n, 131);
  fill_random(b, (size_t)n * n, 132);
  for (int i = 0; i < n * n; ++i) {
    a[i] *= 0.1f;
    b[i] += 2.0f;
  }
  cl_mem mx = ocl_buffer_from(x, bytes), ma = ocl_buffer_from(a, bytes),
         mb = ocl_buffer_from(b, bytes);
  cl_kernel krf = ocl_kernel("adi_row_forward"), krb = ocl_kernel("adi_row_back"),
            kcf = ocl_kernel("adi_col_forward"), kcl = ocl_kernel("adi_col_last"),
            kcb = ocl_kernel("adi_col_back");
  ARG(krf, 0, mx); ARG(krf, 1, ma); ARG(krf, 2, mb); ARG(krf, 3, n);
  ARG(krb, 0, mx); ARG(krb, 1, ma); ARG(krb, 2, mb); ARG(krb, 3, n);
  ARG(kcf, 0, mx); ARG(kcf, 1, ma); ARG(kcf, 2, mb); ARG(kcf, 3, n);
  ARG(kcl, 0, mx); ARG(kcl, 1, mb); ARG(kcl, 2, n);
  ARG(kcb, 0, mx); ARG(kcb, 1, ma); ARG(kcb, 2, mb); ARG(kcb, 3, n);
  size_t global = round_up(n, 32), local = 32;
  for (int t = 0; t < steps; ++t) {
    ocl_run(krf, 1, &global, &local);
    ocl_run(krb, 1, &global, &local);
    for (int row = 1; row < n; ++row) {
      ARG(kcf, 4, row);
      ocl_run(kcf, 1, &global, &local);
    }
    ocl_run(kcl, 1, &global, &local);
    for (int row = n - 2; row >= 0; --row) {
      ARG(kcb, 4, row);
      ocl_run(kcb, 1, &global, &local);
    }
  }
  float *gx = xmalloc(bytes), *gb = xmalloc(bytes);
  ocl_read(mx, bytes, gx);
  ocl_read(mb, bytes, gb);

  double *rx = xmalloc(sizeof(double) * n * n), *rb = xmalloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i) {
    rx[i] = x[i];
    rb[i] = b[i];
  }
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < n; ++i) {
      for (int j = 1; j < n; ++j) {
        rx[i * n + j] -= rx[i * n + j - 1] * a[i * n + j] / rb[i * n + j - 1];
        rb[i * n + j] -= (double)a[i * n + j] * a[i * n + j] / rb[i * n + j - 1];
      }
      rx[i * n + n - 1] /= rb[i * n + n - 1];
      for (int j = n - 2; j >= 0; --j)
        rx[i * n + j] = (rx[i * n + j] - a[i * n + j + 1] * rx[i * n + j + 1]) / rb[i * n + j];
    }
    for (int r = 1; r < n; ++r)
      for (int j = 0; j < n; ++j) {
        rx[r * n + j] -= rx[(r - 1) * n + j] * a[r * n + j] / rb[(r - 1) * n + j];
        rb[r * n + j] -= (double)a[r * n + j] * a[r * n + j] / rb[(r - 1) * n + j];
      }
    for (int j = 0; j < n; ++j)
      rx[(n - 1) * n + j] /= rb[(n - 1) * n + j];
    for (int r = n - 2; r >= 0; --r)
      for (int j = 0; j < n; ++j)
        rx[r * n + j] = (rx[r * n + j] - a[(r + 1) * n + j] * rx[(r + 1) * n + j]) / rb[r * n + j];
  }
  long bad = compare_floats("x", gx, rx, (size_t)n * n, 1e-4, 1.0) +
             compare_floats("b", gb, rb, (size_t)n * n, 1e-4, 1.0);
  release_mems(3, mx, ma, mb);
  release_kernels(5, krf, krb, kcf, kcl, kcb);
  return ocl_report(bad, "adi %dx%d, %d steps, %d launches", n, n, steps, steps * 2 * n + steps);
}
