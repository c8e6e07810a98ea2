/* PolyBench-style triangular solver: per column, a one-item launch and an
   update launched with a new global offset, a new global size and a new
   scalar argument; the right-hand side comes in a CL_MEM_USE_HOST_PTR
   buffer that is the solution once the queue finishes. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 200, 1);
  ocl_init("trisolv", NULL);
  size_t bytes = sizeof(float) * n * n;
  float *l = xmalloc(bytes), *b = xmalloc(sizeof(float) * n), *x = xmalloc(sizeof(float) * n);
  fill_random(l, (size_t)n * n, 110);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j)
      l[i * n + j] = 0.0f;
    for (int j = 0; j < i; ++j)
      l[i * n + j] /= (float)n;
    l[i * n + i] = 1.0f + l[i * n + i];
  }
  fill_random(b, n, 111);
  memcpy(x, b, sizeof(float) * n);
  cl_mem ml = ocl_buffer_from(l, bytes);
  cl_mem mx = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof(float) * n, x);
  cl_kernel kp = ocl_kernel("trisolv_pivot"), ku = ocl_kernel("trisolv_update");
  ARG(kp, 0, ml); ARG(kp, 1, mx); ARG(kp, 2, n);
  ARG(ku, 0, ml); ARG(ku, 1, mx); ARG(ku, 2, n);
  for (int j = 0; j < n; ++j) {
    size_t one = 1;
    ARG(kp, 3, j);
    ocl_run(kp, 1, &one, &one);
    if (j + 1 < n) {
      size_t offset = (size_t)j + 1, global = round_up((size_t)(n - j - 1), 32), local = 32;
      ARG(ku, 3, j);
      CHECK(clEnqueueNDRangeKernel(ocl.queue, ku, 1, &offset, &global, &local, 0, NULL, NULL));
    }
  }
  /* A USE_HOST_PTR buffer's host memory is only defined once mapped. */
  cl_int err;
  float *got = clEnqueueMapBuffer(ocl.queue, mx, CL_TRUE, CL_MAP_READ, 0, sizeof(float) * n, 0,
                                  NULL, NULL, &err);
  CHECK(err);
  double *want = xmalloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int j = 0; j < i; ++j)
      s -= l[i * n + j] * want[j];
    want[i] = s / l[i * n + i];
  }
  long bad = compare_floats("x", got, want, n, 1e-4, 1.0);
  CHECK(clEnqueueUnmapMemObject(ocl.queue, mx, got, 0, NULL, NULL));
  CHECK(clFinish(ocl.queue));
  release_mems(2, ml, mx);
  release_kernels(2, kp, ku);
  return ocl_report(bad, "trisolv n=%d, %d launches", n, 2 * n - 1);
}
