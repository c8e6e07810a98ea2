/* PolyBench-style syrk and syr2k over CL_MEM_USE_HOST_PTR buffers: the
   host arrays are the buffers; results are read by mapping (blocking and
   non-blocking maps), and the host writes new inputs through a map before
   the second kernel. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 120, 1);
  int m = n + 5;
  float alpha = 1.25f, beta = 0.8f;
  ocl_init("syrk", NULL);
  size_t sa = sizeof(float) * n * m, sc = sizeof(float) * n * n;
  float *a = xmalloc(sa), *b = xmalloc(sa), *c = xmalloc(sc);
  fill_random(a, sa / 4, 31);
  fill_random(b, sa / 4, 32);
  fill_random(c, sc / 4, 33);
  double *want = xmalloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i)
    want[i] = c[i];
  cl_mem ma = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sa, a);
  cl_mem mb = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sa, b);
  cl_mem mc = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sc, c);
  cl_kernel k1 = ocl_kernel("syrk"), k2 = ocl_kernel("syr2k");
  ARG(k1, 0, ma); ARG(k1, 1, mc); ARG(k1, 2, n); ARG(k1, 3, m); ARG(k1, 4, alpha); ARG(k1, 5, beta);
  size_t global[2] = {round_up(n, 32), round_up(n, 4)}, local[2] = {32, 4};
  ocl_run(k1, 2, global, local);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += (double)a[i * m + k] * a[j * m + k];
      want[i * n + j] = beta * want[i * n + j] + alpha * s;
    }
  cl_int err;
  float *mapped = clEnqueueMapBuffer(ocl.queue, mc, CL_TRUE, CL_MAP_READ, 0, sc, 0, NULL, NULL,
                                     &err);
  CHECK(err);
  long bad = compare_floats("syrk c", mapped, want, (size_t)n * n, 1e-4, 1.0);
  CHECK(clEnqueueUnmapMemObject(ocl.queue, mc, mapped, 0, NULL, NULL));

  /* New A through a non-blocking write map, then syr2k. */
  cl_event mapped_event;
  float *ma_host = clEnqueueMapBuffer(ocl.queue, ma, CL_FALSE, CL_MAP_WRITE, 0, sa, 0, NULL,
                                      &mapped_event, &err);
  CHECK(err);
  CHECK(clWaitForEvents(1, &mapped_event));
  CHECK(clReleaseEvent(mapped_event));
  unsigned seed = 34;
  for (int i = 0; i < n * m; ++i)
    ma_host[i] = rand01(&seed) - 0.25f;
  CHECK(clEnqueueUnmapMemObject(ocl.queue, ma, ma_host, 0, NULL, NULL));
  seed = 34;
  float *a2 = xmalloc(sa);
  for (int i = 0; i < n * m; ++i)
    a2[i] = rand01(&seed) - 0.25f;
  ARG(k2, 0, ma); ARG(k2, 1, mb); ARG(k2, 2, mc);
  ARG(k2, 3, n); ARG(k2, 4, m); ARG(k2, 5, alpha); ARG(k2, 6, beta);
  ocl_run(k2, 2, global, NULL);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += (double)a2[j * m + k] * b[i * m + k] + (double)b[j * m + k] * a2[i * m + k];
      want[i * n + j] = beta * want[i * n + j] + alpha * s;
    }
  mapped = clEnqueueMapBuffer(ocl.queue, mc, CL_FALSE, CL_MAP_READ, 0, sc, 0, NULL, NULL, &err);
  CHECK(err);
  CHECK(clFinish(ocl.queue));
  bad += compare_floats("syr2k c", mapped, want, (size_t)n * n, 1e-4, 1.0);
  CHECK(clEnqueueUnmapMemObject(ocl.queue, mc, mapped, 0, NULL, NULL));
  CHECK(clFinish(ocl.queue));
  release_mems(3, ma, mb, mc);
  release_kernels(2, k1, k2);
  return ocl_report(bad, "syrk+syr2k n=%d m=%d", n, m);
}
