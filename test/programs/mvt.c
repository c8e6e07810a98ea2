/* PolyBench-style gesummv and mvt: matrix-vector kernels, 1-D ranges with
   no local size given, the matrix written once non-blocking and shared by
   the three kernels; results read non-blocking with clWaitForEvents. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 600, 1);
  float alpha = 1.5f, beta = 2.5f;
  ocl_init("mvt", NULL);
  size_t sv = sizeof(float) * n, sa = sv * n;
  float *a = xmalloc(sa), *b = xmalloc(sa), *x = xmalloc(sv), *x1 = xmalloc(sv),
        *x2 = xmalloc(sv), *y1 = xmalloc(sv), *y2 = xmalloc(sv);
  fill_random(a, (size_t)n * n, 50);
  fill_random(b, (size_t)n * n, 51);
  fill_random(x, n, 52);
  fill_random(x1, n, 53);
  fill_random(x2, n, 54);
  fill_random(y1, n, 55);
  fill_random(y2, n, 56);
  cl_mem ma = ocl_buffer(CL_MEM_READ_WRITE, sa, NULL), mb = ocl_buffer(CL_MEM_READ_WRITE, sa, NULL);
  cl_event wa, wb;
  CHECK(clEnqueueWriteBuffer(ocl.queue, ma, CL_FALSE, 0, sa, a, 0, NULL, &wa));
  CHECK(clEnqueueWriteBuffer(ocl.queue, mb, CL_FALSE, 0, sa, b, 1, &wa, &wb));
  cl_mem mx = ocl_buffer_from(x, sv), mx1 = ocl_buffer_from(x1, sv), mx2 = ocl_buffer_from(x2, sv),
         my1 = ocl_buffer_from(y1, sv), my2 = ocl_buffer_from(y2, sv);
  cl_mem my = ocl_buffer(CL_MEM_READ_WRITE, sv, NULL), mtmp = ocl_buffer(CL_MEM_READ_WRITE, sv, NULL);
  cl_kernel kg = ocl_kernel("gesummv"), k1 = ocl_kernel("mvt_x1"), k2 = ocl_kernel("mvt_x2");
  ARG(kg, 0, ma); ARG(kg, 1, mb); ARG(kg, 2, mx); ARG(kg, 3, my); ARG(kg, 4, mtmp);
  ARG(kg, 5, n); ARG(kg, 6, alpha); ARG(kg, 7, beta);
  ARG(k1, 0, ma); ARG(k1, 1, mx1); ARG(k1, 2, my1); ARG(k1, 3, n);
  ARG(k2, 0, ma); ARG(k2, 1, mx2); ARG(k2, 2, my2); ARG(k2, 3, n);
  size_t global = n;
  CHECK(clEnqueueNDRangeKernel(ocl.queue, kg, 1, NULL, &global, NULL, 1, &wb, NULL));
  ocl_run(k1, 1, &global, NULL);
  ocl_run(k2, 1, &global, NULL);
  float *gy = xmalloc(sv), *gx1 = xmalloc(sv), *gx2 = xmalloc(sv);
  cl_event reads[3];
  CHECK(clEnqueueReadBuffer(ocl.queue, my, CL_FALSE, 0, sv, gy, 0, NULL, &reads[0]));
  CHECK(clEnqueueReadBuffer(ocl.queue, mx1, CL_FALSE, 0, sv, gx1, 0, NULL, &reads[1]));
  CHECK(clEnqueueReadBuffer(ocl.queue, mx2, CL_FALSE, 0, sv, gx2, 0, NULL, &reads[2]));
  CHECK(clWaitForEvents(3, reads));

  double *ry = xmalloc(sizeof(double) * n), *rx1 = xmalloc(sizeof(double) * n),
         *rx2 = xmalloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    double t = 0, s = 0, u = x1[i], v = x2[i];
    for (int j = 0; j < n; ++j) {
      t += (double)a[i * n + j] * x[j];
      s += (double)b[i * n + j] * x[j];
      u += (double)a[i * n + j] * y1[j];
      v += (double)a[j * n + i] * y2[j];
    }
    ry[i] = alpha * t + beta * s;
    rx1[i] = u;
    rx2[i] = v;
  }
  long bad = compare_floats("y", gy, ry, n, 1e-4, 1.0) +
             compare_floats("x1", gx1, rx1, n, 1e-4, 1.0) +
             compare_floats("x2", gx2, rx2, n, 1e-4, 1.0);
  CHECK(clReleaseEvent(wa));
  CHECK(clReleaseEvent(wb));
  for (int i = 0; i < 3; ++i)
    CHECK(clReleaseEvent(reads[i]));
  release_mems(9, ma, mb, mx, mx1, mx2, my1, my2, my, mtmp);
  release_kernels(3, kg, k1, k2);
  return ocl_report(bad, "gesummv+mvt n=%d", n);
}
