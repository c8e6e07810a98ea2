/* PolyBench-style atax and bicg on a non-square matrix: 1-D launches with
   256-item groups over rounded-up sizes; the output buffers are created,
   used and released between launches. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 500, 1);
  int nx = n, ny = n + 37;
  ocl_init("atax", NULL);
  float *a = xmalloc(sizeof(float) * nx * ny), *x = xmalloc(sizeof(float) * ny),
        *r = xmalloc(sizeof(float) * nx), *p = xmalloc(sizeof(float) * ny);
  fill_random(a, (size_t)nx * ny, 60);
  fill_random(x, ny, 61);
  fill_random(r, nx, 62);
  fill_random(p, ny, 63);
  cl_mem ma = ocl_buffer_from(a, sizeof(float) * nx * ny), mx = ocl_buffer_from(x, sizeof(float) * ny),
         mr = ocl_buffer_from(r, sizeof(float) * nx), mp = ocl_buffer_from(p, sizeof(float) * ny);
  cl_kernel k1 = ocl_kernel("atax_ax"), k2 = ocl_kernel("atax_aty"), k3 = ocl_kernel("bicg_s"),
            k4 = ocl_kernel("bicg_q");
  size_t local = 256, gx = round_up(nx, 256), gy = round_up(ny, 256);
  float *y = xmalloc(sizeof(float) * ny), *s = xmalloc(sizeof(float) * ny),
        *q = xmalloc(sizeof(float) * nx);

  cl_mem mtmp = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * nx, NULL);
  cl_mem my = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * ny, NULL);
  ARG(k1, 0, ma); ARG(k1, 1, mx); ARG(k1, 2, mtmp); ARG(k1, 3, nx); ARG(k1, 4, ny);
  ARG(k2, 0, ma); ARG(k2, 1, mtmp); ARG(k2, 2, my); ARG(k2, 3, nx); ARG(k2, 4, ny);
  ocl_run(k1, 1, &gx, &local);
  ocl_run(k2, 1, &gy, &local);
  ocl_read(my, sizeof(float) * ny, y);
  release_mems(2, mtmp, my);

  cl_mem ms = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * ny, NULL);
  ARG(k3, 0, ma); ARG(k3, 1, mr); ARG(k3, 2, ms); ARG(k3, 3, nx); ARG(k3, 4, ny);
  ocl_run(k3, 1, &gy, &local);
  ocl_read(ms, sizeof(float) * ny, s);
  CHECK(clReleaseMemObject(ms));
  cl_mem mq = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * nx, NULL);
  ARG(k4, 0, ma); ARG(k4, 1, mp); ARG(k4, 2, mq); ARG(k4, 3, nx); ARG(k4, 4, ny);
  ocl_run(k4, 1, &gx, &local);
  ocl_read(mq, sizeof(float) * nx, q);
  CHECK(clReleaseMemObject(mq));

  double *tmp = xmalloc(sizeof(double) * nx), *ry = xmalloc(sizeof(double) * ny),
         *rs = xmalloc(sizeof(double) * ny), *rq = xmalloc(sizeof(double) * nx);
  for (int i = 0; i < nx; ++i) {
    double t = 0, u = 0;
    for (int j = 0; j < ny; ++j) {
      t += (double)a[i * ny + j] * x[j];
      u += (double)a[i * ny + j] * p[j];
    }
    tmp[i] = t;
    rq[i] = u;
  }
  for (int j = 0; j < ny; ++j) {
    double t = 0, u = 0;
    for (int i = 0; i < nx; ++i) {
      t += a[i * ny + j] * tmp[i];
      u += (double)r[i] * a[i * ny + j];
    }
    ry[j] = t;
    rs[j] = u;
  }
  long bad = compare_floats("atax y", y, ry, ny, 1e-4, 1.0) +
             compare_floats("bicg s", s, rs, ny, 1e-4, 1.0) +
             compare_floats("bicg q", q, rq, nx, 1e-4, 1.0);
  release_mems(4, ma, mx, mr, mp);
  release_kernels(4, k1, k2, k3, k4);
  return ocl_report(bad, "atax+bicg %dx%d", nx, ny);
}
