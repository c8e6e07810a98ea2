/* PolyBench-style Gram-Schmidt: three kernels per column, each launch with
   the column as a new scalar argument, the projection's global size
   shrinking every step; a single-work-group reduction with a __local
   argument and barriers. Q and R are checked against the host's. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 64, 1);
  int m = n + 40;
  ocl_init("gramschmidt", NULL);
  size_t bytes = sizeof(float) * m * n, rbytes = sizeof(float) * n * n;
  float *a = xmalloc(bytes);
  fill_random(a, (size_t)m * n, 120);
  for (int i = 0; i < m && i < n; ++i)
    a[i * n + i] += 2.0f;
  float *zero = calloc((size_t)n * n, sizeof(float));
  cl_mem ma = ocl_buffer_from(a, bytes), mq = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  cl_mem mr = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rbytes, zero);
  cl_kernel kn = ocl_kernel("gs_norm"), kq = ocl_kernel("gs_q"), kp = ocl_kernel("gs_project");
  ARG(kn, 0, ma); ARG(kn, 1, mr); LOCAL_ARG(kn, 2, sizeof(float) * 64); ARG(kn, 3, m);
  ARG(kn, 4, n);
  ARG(kq, 0, ma); ARG(kq, 1, mr); ARG(kq, 2, mq); ARG(kq, 3, m); ARG(kq, 4, n);
  ARG(kp, 0, ma); ARG(kp, 1, mr); ARG(kp, 2, mq); ARG(kp, 3, m); ARG(kp, 4, n);
  size_t group = 64, gq = round_up(m, 64);
  for (int k = 0; k < n; ++k) {
    ARG(kn, 5, k);
    ARG(kq, 5, k);
    ARG(kp, 5, k);
    ocl_run(kn, 1, &group, &group);
    ocl_run(kq, 1, &gq, &group);
    if (k + 1 < n) {
      size_t gp = round_up((size_t)(n - k - 1), 16), lp = 16;
      ocl_run(kp, 1, &gp, &lp);
    }
  }
  float *gq_host = xmalloc(bytes), *gr = xmalloc(rbytes);
  ocl_read(mq, bytes, gq_host);
  ocl_read(mr, rbytes, gr);

  double *ra = xmalloc(sizeof(double) * m * n), *rq = xmalloc(sizeof(double) * m * n),
         *rr = calloc((size_t)n * n, sizeof(double));
  for (int i = 0; i < m * n; ++i)
    ra[i] = a[i];
  for (int k = 0; k < n; ++k) {
    double nrm = 0;
    for (int i = 0; i < m; ++i)
      nrm += ra[i * n + k] * ra[i * n + k];
    rr[k * n + k] = sqrt(nrm);
    for (int i = 0; i < m; ++i)
      rq[i * n + k] = ra[i * n + k] / rr[k * n + k];
    for (int j = k + 1; j < n; ++j) {
      double dot = 0;
      for (int i = 0; i < m; ++i)
        dot += rq[i * n + k] * ra[i * n + j];
      rr[k * n + j] = dot;
      for (int i = 0; i < m; ++i)
        ra[i * n + j] -= rq[i * n + k] * dot;
    }
  }
  long bad = compare_floats("q", gq_host, rq, (size_t)m * n, 1e-3, 0.1) +
             compare_floats("r", gr, rr, (size_t)n * n, 1e-3, 0.1);
  release_mems(3, ma, mq, mr);
  release_kernels(3, kn, kq, kp);
  free(zero);
  return ocl_report(bad, "gramschmidt %dx%d, %d launches", m, n, 3 * n - 1);
}
