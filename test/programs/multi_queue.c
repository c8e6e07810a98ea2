/* Two in-order queues on one context, each with its own buffers and its
   own kernel objects: their launches, non-blocking writes and reads
   interleave; each queue is finished on its own, then both are checked.
   The second pipeline is a Hillis-Steele inclusive scan (ping-pong
   buffers, a new shift each step). */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 1 << 16, 1);
  ocl_init("multi_queue", NULL);
  cl_int err;
  cl_command_queue q2 = clCreateCommandQueue(ocl.context, ocl.device, 0, &err);
  CHECK(err);
  cl_command_queue q1 = ocl.queue;
  float *x = xmalloc(sizeof(float) * n), *y = xmalloc(sizeof(float) * n);
  int *v = xmalloc(sizeof(int) * n);
  fill_random(x, n, 190);
  fill_random(y, n, 191);
  for (int i = 0; i < n; ++i)
    v[i] = (i * 37) % 101 - 50;
  cl_mem mx = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * n, NULL),
         my = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * n, NULL);
  cl_mem mv[2] = {ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * n, NULL),
                  ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * n, NULL)};
  CHECK(clEnqueueWriteBuffer(q1, mx, CL_FALSE, 0, sizeof(float) * n, x, 0, NULL, NULL));
  CHECK(clEnqueueWriteBuffer(q2, mv[0], CL_FALSE, 0, sizeof(int) * n, v, 0, NULL, NULL));
  CHECK(clEnqueueWriteBuffer(q1, my, CL_FALSE, 0, sizeof(float) * n, y, 0, NULL, NULL));
  cl_kernel ka = ocl_kernel("saxpy"), ks = ocl_kernel("shift_add");
  ARG(ka, 0, mx); ARG(ka, 1, my); ARG(ka, 3, n);
  ARG(ks, 3, n);
  size_t global = round_up(n, 256), local = 256;
  int steps = 0, current = 0;
  for (int shift = 1, t = 0; shift < n || t < 8; ++t) {
    if (t < 8) {
      float a = 0.25f * (float)(t + 1);
      ARG(ka, 2, a);
      CHECK(clEnqueueNDRangeKernel(q1, ka, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    if (shift < n) {
      ARG(ks, 0, mv[current]); ARG(ks, 1, mv[1 - current]); ARG(ks, 2, shift);
      CHECK(clEnqueueNDRangeKernel(q2, ks, 1, NULL, &global, &local, 0, NULL, NULL));
      current = 1 - current;
      shift *= 2;
      ++steps;
    }
    CHECK(clFlush(q1));
    CHECK(clFlush(q2));
  }
  float *gy = xmalloc(sizeof(float) * n);
  int *gv = xmalloc(sizeof(int) * n);
  CHECK(clEnqueueReadBuffer(q2, mv[current], CL_FALSE, 0, sizeof(int) * n, gv, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q1, my, CL_FALSE, 0, sizeof(float) * n, gy, 0, NULL, NULL));
  CHECK(clFinish(q2));
  CHECK(clFinish(q1));

  double *wy = xmalloc(sizeof(double) * n);
  int *wv = xmalloc(sizeof(int) * n);
  for (int i = 0; i < n; ++i) {
    float r = y[i];
    for (int t = 0; t < 8; ++t)
      r += 0.25f * (float)(t + 1) * x[i];
    wy[i] = r;
  }
  for (int i = 0, s = 0; i < n; ++i)
    wv[i] = s += v[i];
  long bad = compare_floats("saxpy", gy, wy, n, 1e-5, 1.0) + compare_ints("scan", gv, wv, n);
  release_mems(4, mx, my, mv[0], mv[1]);
  release_kernels(2, ka, ks);
  CHECK(clReleaseCommandQueue(q2));
  return ocl_report(bad, "two queues: 8 saxpy steps, %d-step scan of %d", steps, n);
}
