/* SDK-style Black-Scholes: math built-ins (log, exp, sqrt, erfc) over
   option arrays, a second kernel checking put-call parity, and a double
   precision kernel built with -DHAVE_FP64 when the device reports
   cl_khr_fp64 (build options from the device's extensions, as SDK
   samples do). */
#include "common.h"

static double price_call(double s, double x, double t, double r, double v) {
  double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
  return s * 0.5 * erfc(-d1 / sqrt(2.0)) - x * exp(-r * t) * 0.5 * erfc(-d2 / sqrt(2.0));
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 100000, 1);
  float rate = 0.02f, volatility = 0.3f;
  /* The device's extensions decide the build options. */
  ocl.name = "blackscholes";
  cl_device_id device = pick_device(pick_platform());
  size_t size = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size));
  char *extensions = xmalloc(size + 1);
  CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions, NULL));
  extensions[size] = 0;
  int fp64 = strstr(extensions, "cl_khr_fp64") != NULL;
  free(extensions);
  ocl_init("blackscholes", fp64 ? "-DHAVE_FP64" : NULL);

  size_t bytes = sizeof(float) * n;
  float *spot = xmalloc(bytes), *strike = xmalloc(bytes), *years = xmalloc(bytes);
  fill_random(spot, n, 240);
  fill_random(strike, n, 241);
  fill_random(years, n, 242);
  for (int i = 0; i < n; ++i) {
    spot[i] = 5.0f + 95.0f * spot[i];
    strike[i] = 1.0f + 99.0f * strike[i];
    years[i] = 0.25f + 9.75f * years[i];
  }
  cl_mem ms = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, spot),
         mx = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, strike),
         mt = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, years);
  cl_mem mcall = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL), mput = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL),
         mres = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  cl_kernel kb = ocl_kernel("black_scholes"), kp = ocl_kernel("parity");
  ARG(kb, 0, ms); ARG(kb, 1, mx); ARG(kb, 2, mt); ARG(kb, 3, mcall); ARG(kb, 4, mput);
  ARG(kb, 5, rate); ARG(kb, 6, volatility); ARG(kb, 7, n);
  ARG(kp, 0, ms); ARG(kp, 1, mx); ARG(kp, 2, mt); ARG(kp, 3, mcall); ARG(kp, 4, mput);
  ARG(kp, 5, mres); ARG(kp, 6, rate); ARG(kp, 7, n);
  size_t global = round_up(n, 128), local = 128;
  ocl_run(kb, 1, &global, &local);
  ocl_run(kp, 1, &global, &local);
  float *call = xmalloc(bytes), *put = xmalloc(bytes), *res = xmalloc(bytes);
  ocl_read(mcall, bytes, call);
  ocl_read(mput, bytes, put);
  ocl_read(mres, bytes, res);
  double *want_call = xmalloc(sizeof(double) * n), *want_put = xmalloc(sizeof(double) * n),
         *zero = calloc(n, sizeof(double));
  for (int i = 0; i < n; ++i) {
    want_call[i] = price_call(spot[i], strike[i], years[i], rate, volatility);
    want_put[i] = want_call[i] - (spot[i] - strike[i] * exp(-(double)rate * years[i]));
  }
  /* Prices are up to 100: absolute errors of a few float ulps of that. */
  long bad = compare_floats("call", call, want_call, n, 1e-4, 1.0) +
             compare_floats("put", put, want_put, n, 1e-4, 1.0) +
             compare_floats("parity", res, zero, n, 1e-4, 100.0);
  if (fp64) {
    double *d[3] = {xmalloc(sizeof(double) * n), xmalloc(sizeof(double) * n),
                    xmalloc(sizeof(double) * n)};
    for (int i = 0; i < n; ++i) {
      d[0][i] = spot[i];
      d[1][i] = strike[i];
      d[2][i] = years[i];
    }
    cl_mem md[3], mcall_d = ocl_buffer(CL_MEM_READ_WRITE, sizeof(double) * n, NULL);
    for (int b = 0; b < 3; ++b)
      md[b] = ocl_buffer_from(d[b], sizeof(double) * n);
    cl_kernel kd = ocl_kernel("black_scholes_double");
    double rate_d = rate, volatility_d = volatility;
    ARG(kd, 0, md[0]); ARG(kd, 1, md[1]); ARG(kd, 2, md[2]); ARG(kd, 3, mcall_d);
    ARG(kd, 4, rate_d); ARG(kd, 5, volatility_d); ARG(kd, 6, n);
    ocl_run(kd, 1, &global, &local);
    double *got = xmalloc(sizeof(double) * n);
    ocl_read(mcall_d, sizeof(double) * n, got);
    for (int i = 0; i < n; ++i)
      if (!(fabs(got[i] - want_call[i]) <= 1e-9 * (1.0 + fabs(want_call[i])))) {
        if (bad < 5)
          fprintf(stderr, "double call[%d]: got %.15g, want %.15g\n", i, got[i], want_call[i]);
        ++bad;
      }
    release_mems(4, md[0], md[1], md[2], mcall_d);
    CHECK(clReleaseKernel(kd));
  }
  release_mems(6, ms, mx, mt, mcall, mput, mres);
  release_kernels(2, kb, kp);
  return ocl_report(bad, "black-scholes of %d options%s", n, fp64 ? ", float and double" : "");
}
