/* PolyBench-style FDTD-2D: a time loop of four launches per step, the
   first with a new scalar argument (the step's source value) each step;
   the fields are read with non-blocking reads at the end. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 200, 1);
  int nx = n, ny = n + 24, steps = 30;
  ocl_init("fdtd2d", NULL);
  size_t bytes = sizeof(float) * nx * ny;
  float *ex = xmalloc(bytes), *ey = xmalloc(bytes), *hz = xmalloc(bytes);
  fill_random(ex, (size_t)nx * ny, 90);
  fill_random(ey, (size_t)nx * ny, 91);
  fill_random(hz, (size_t)nx * ny, 92);
  cl_mem mex = ocl_buffer_from(ex, bytes), mey = ocl_buffer_from(ey, bytes),
         mhz = ocl_buffer_from(hz, bytes);
  cl_kernel k0 = ocl_kernel("fdtd_source"), k1 = ocl_kernel("fdtd_ey"),
            k2 = ocl_kernel("fdtd_ex"), k3 = ocl_kernel("fdtd_hz");
  ARG(k0, 0, mey); ARG(k0, 1, ny);
  ARG(k1, 0, mey); ARG(k1, 1, mhz); ARG(k1, 2, nx); ARG(k1, 3, ny);
  ARG(k2, 0, mex); ARG(k2, 1, mhz); ARG(k2, 2, nx); ARG(k2, 3, ny);
  ARG(k3, 0, mex); ARG(k3, 1, mey); ARG(k3, 2, mhz); ARG(k3, 3, nx); ARG(k3, 4, ny);
  size_t g0 = round_up(ny, 64), l0 = 64;
  size_t g2[2] = {round_up(ny, 32), round_up(nx, 8)}, l2[2] = {32, 8};
  for (int t = 0; t < steps; ++t) {
    float source = (float)t;
    ARG(k0, 2, source);
    ocl_run(k0, 1, &g0, &l0);
    ocl_run(k1, 2, g2, l2);
    ocl_run(k2, 2, g2, l2);
    ocl_run(k3, 2, g2, l2);
  }
  float *gex = xmalloc(bytes), *gey = xmalloc(bytes), *ghz = xmalloc(bytes);
  CHECK(clEnqueueReadBuffer(ocl.queue, mex, CL_FALSE, 0, bytes, gex, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(ocl.queue, mey, CL_FALSE, 0, bytes, gey, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(ocl.queue, mhz, CL_FALSE, 0, bytes, ghz, 0, NULL, NULL));
  CHECK(clFinish(ocl.queue));

  for (int t = 0; t < steps; ++t) {
    for (int j = 0; j < ny; ++j)
      ey[j] = (float)t;
    for (int i = 1; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    for (int i = 0; i < nx; ++i)
      for (int j = 1; j < ny; ++j)
        ex[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
    for (int i = 0; i < nx - 1; ++i)
      for (int j = 0; j < ny - 1; ++j)
        hz[i * ny + j] -= 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] -
                                  ey[i * ny + j]);
  }
  double *want = xmalloc(sizeof(double) * nx * ny);
  long bad = 0;
  float *got[3] = {gex, gey, ghz}, *ref[3] = {ex, ey, hz};
  const char *names[3] = {"ex", "ey", "hz"};
  for (int f = 0; f < 3; ++f) {
    for (int i = 0; i < nx * ny; ++i)
      want[i] = ref[f][i];
    bad += compare_floats(names[f], got[f], want, (size_t)nx * ny, 1e-4, 1.0);
  }
  release_mems(3, mex, mey, mhz);
  release_kernels(4, k0, k1, k2, k3);
  return ocl_report(bad, "fdtd-2d %dx%d, %d steps", nx, ny, steps);
}
