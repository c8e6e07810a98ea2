/* PolyBench-style covariance and correlation in one program: column means,
   standard deviations, centering (scaled by them for the correlation), and
   the symmetric product; each data set is a CL_MEM_COPY_HOST_PTR buffer. */
#include "common.h"

static void reference(const float *data, int n, int m, int correlate, double *out) {
  double *d = xmalloc(sizeof(double) * n * m);
  for (int j = 0; j < m; ++j) {
    double mean = 0, var = 0;
    for (int i = 0; i < n; ++i)
      mean += data[i * m + j];
    mean /= n;
    for (int i = 0; i < n; ++i)
      var += (data[i * m + j] - mean) * (data[i * m + j] - mean);
    double sd = sqrt(var / n);
    if (sd <= 0.005)
      sd = 1.0;
    for (int i = 0; i < n; ++i)
      d[i * m + j] = correlate ? (data[i * m + j] - mean) / (sqrt((double)n) * sd)
                               : data[i * m + j] - mean;
  }
  for (int j1 = 0; j1 < m; ++j1)
    for (int j2 = 0; j2 < m; ++j2) {
      double s = 0;
      for (int i = 0; i < n; ++i)
        s += d[i * m + j1] * d[i * m + j2];
      out[j1 * m + j2] = correlate ? s : s / (n - 1);
    }
  free(d);
}

static long run(int n, int m, int correlate, unsigned seed) {
  size_t sd = sizeof(float) * n * m, sm = sizeof(float) * m, so = sizeof(float) * m * m;
  float *data = xmalloc(sd);
  fill_random(data, (size_t)n * m, seed);
  cl_mem mdata = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sd, data);
  cl_mem mmean = ocl_buffer(CL_MEM_READ_WRITE, sm, NULL);
  cl_mem mstd = ocl_buffer(CL_MEM_READ_WRITE, sm, NULL);
  cl_mem mout = ocl_buffer(CL_MEM_READ_WRITE, so, NULL);
  cl_kernel km = ocl_kernel("column_mean"), ks = ocl_kernel("column_stddev"),
            kc = ocl_kernel("center"), kv = ocl_kernel("covar");
  float eps = 0.005f, divisor = correlate ? 1.0f : (float)(n - 1);
  size_t g1 = round_up(m, 64), l1 = 64;
  size_t g2[2] = {round_up(m, 16), round_up(n, 16)}, l2[2] = {16, 16};
  ARG(km, 0, mdata); ARG(km, 1, mmean); ARG(km, 2, n); ARG(km, 3, m);
  ocl_run(km, 1, &g1, &l1);
  if (correlate) {
    ARG(ks, 0, mdata); ARG(ks, 1, mmean); ARG(ks, 2, mstd); ARG(ks, 3, n); ARG(ks, 4, m);
    ARG(ks, 5, eps);
    ocl_run(ks, 1, &g1, &l1);
  }
  ARG(kc, 0, mdata); ARG(kc, 1, mmean); ARG(kc, 2, mstd); ARG(kc, 3, correlate);
  ARG(kc, 4, n); ARG(kc, 5, m);
  ocl_run(kc, 2, g2, l2);
  ARG(kv, 0, mdata); ARG(kv, 1, mout); ARG(kv, 2, n); ARG(kv, 3, m); ARG(kv, 4, divisor);
  ocl_run(kv, 1, &g1, NULL);
  float *got = xmalloc(so);
  ocl_read(mout, so, got);
  double *want = xmalloc(sizeof(double) * m * m);
  reference(data, n, m, correlate, want);
  /* Centered sums cancel: the tolerance is relative to the result's scale. */
  long bad = compare_floats(correlate ? "corr" : "cov", got, want, (size_t)m * m, 1e-3,
                            correlate ? 1.0 : 0.1);
  release_mems(4, mdata, mmean, mstd, mout);
  release_kernels(4, km, ks, kc, kv);
  free(data);
  free(got);
  free(want);
  return bad;
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 200, 2);
  int m = n - 20 > 1 ? n - 20 : 2;
  ocl_init("covariance", NULL);
  long bad = run(n, m, 0, 70) + run(n, m, 1, 71);
  return ocl_report(bad, "covariance+correlation %dx%d", n, m);
}
