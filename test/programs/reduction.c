/* SDK-style reductions: a multi-pass float sum (the same kernel launched on
   shrinking arrays, buffers created and released per pass), an int
   min/max with two __local arguments, and __local arguments of float4,
   short, uchar and uint. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 1 << 18, 128);
  ocl_init("reduction", NULL);
  const size_t group = 128;
  float *data = xmalloc(sizeof(float) * n);
  fill_random(data, n, 160);
  cl_kernel ksum = ocl_kernel("sum_float"), kmm = ocl_kernel("minmax_int"),
            klt = ocl_kernel("local_types");

  /* Float sum: pass after pass until one value is left. */
  cl_mem in = ocl_buffer_from(data, sizeof(float) * n);
  int count = n, passes = 0;
  while (count > 1) {
    int groups = (int)((count + group - 1) / group);
    cl_mem out = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * groups, NULL);
    size_t global = groups * group;
    ARG(ksum, 0, in); ARG(ksum, 1, out); LOCAL_ARG(ksum, 2, sizeof(float) * group);
    ARG(ksum, 3, count);
    ocl_run(ksum, 1, &global, &group);
    CHECK(clReleaseMemObject(in));
    in = out;
    count = groups;
    ++passes;
  }
  float sum;
  ocl_read(in, sizeof sum, &sum);
  CHECK(clReleaseMemObject(in));
  double want_sum = 0;
  for (int i = 0; i < n; ++i)
    want_sum += data[i];
  long bad = compare_floats("sum", &sum, &want_sum, 1, 1e-4, 1.0);

  /* Int min/max per group. */
  int *ints = xmalloc(sizeof(int) * n);
  unsigned seed = 161;
  for (int i = 0; i < n; ++i)
    ints[i] = (int)(rand01(&seed) * 2000000.0f) - 1000000;
  int groups = (int)((n + group - 1) / group);
  cl_mem mints = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int) * n, ints);
  cl_mem mmm = ocl_buffer(CL_MEM_READ_WRITE, sizeof(cl_int2) * groups, NULL);
  size_t global = groups * group;
  ARG(kmm, 0, mints); ARG(kmm, 1, mmm); LOCAL_ARG(kmm, 2, sizeof(int) * group);
  LOCAL_ARG(kmm, 3, sizeof(int) * group); ARG(kmm, 4, n);
  ocl_run(kmm, 1, &global, &group);
  int *mm = xmalloc(sizeof(cl_int2) * groups), *want_mm = xmalloc(sizeof(cl_int2) * groups);
  ocl_read(mmm, sizeof(cl_int2) * groups, mm);
  for (int g = 0; g < groups; ++g) {
    int lo = ints[g * group], hi = lo;
    for (int i = g * group; i < (g + 1) * (int)group && i < n; ++i) {
      lo = ints[i] < lo ? ints[i] : lo;
      hi = ints[i] > hi ? ints[i] : hi;
    }
    want_mm[2 * g] = lo;
    want_mm[2 * g + 1] = hi;
  }
  bad += compare_ints("minmax", mm, want_mm, 2 * (size_t)groups);

  /* Four __local element types; the count is a multiple of the group. */
  int m = (int)(n / group * group);
  int mg = m / (int)group;
  float *f = xmalloc(sizeof(cl_float4) * m);
  short *s = xmalloc(sizeof(short) * m);
  unsigned char *c = xmalloc(m);
  unsigned *u = xmalloc(sizeof(unsigned) * m);
  fill_random(f, 4 * (size_t)m, 162);
  for (int i = 0; i < m; ++i) {
    s[i] = (short)(i % 1000 - 500);
    c[i] = (unsigned char)(i * 7);
    u[i] = (unsigned)i * 2654435761u;
  }
  cl_mem mf = ocl_buffer_from(f, sizeof(cl_float4) * m), ms = ocl_buffer_from(s, sizeof(short) * m),
         mc = ocl_buffer_from(c, m), mu = ocl_buffer_from(u, sizeof(unsigned) * m);
  cl_mem of = ocl_buffer(CL_MEM_READ_WRITE, sizeof(cl_float4) * mg, NULL),
         os = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * mg, NULL),
         oc = ocl_buffer(CL_MEM_READ_WRITE, sizeof(unsigned) * mg, NULL),
         ou = ocl_buffer(CL_MEM_READ_WRITE, sizeof(unsigned) * mg, NULL);
  ARG(klt, 0, mf); ARG(klt, 1, ms); ARG(klt, 2, mc); ARG(klt, 3, mu);
  ARG(klt, 4, of); ARG(klt, 5, os); ARG(klt, 6, oc); ARG(klt, 7, ou);
  LOCAL_ARG(klt, 8, sizeof(cl_float4) * group); LOCAL_ARG(klt, 9, sizeof(short) * group);
  LOCAL_ARG(klt, 10, group); LOCAL_ARG(klt, 11, sizeof(unsigned) * group);
  size_t gm = m;
  ocl_run(klt, 1, &gm, &group);
  float *gf = xmalloc(sizeof(cl_float4) * mg);
  int *gs = xmalloc(sizeof(int) * mg), *gc = xmalloc(sizeof(int) * mg), *gu = xmalloc(sizeof(int) * mg);
  ocl_read(of, sizeof(cl_float4) * mg, gf);
  ocl_read(os, sizeof(int) * mg, gs);
  ocl_read(oc, sizeof(int) * mg, gc);
  ocl_read(ou, sizeof(int) * mg, gu);
  double *wf = xmalloc(sizeof(double) * 4 * mg);
  int *ws = xmalloc(sizeof(int) * mg), *wc = xmalloc(sizeof(int) * mg), *wu = xmalloc(sizeof(int) * mg);
  for (int g = 0; g < mg; ++g) {
    double a[4] = {0, 0, 0, 0};
    int b = 0;
    unsigned d = 0, e = 0;
    for (int i = g * (int)group; i < (g + 1) * (int)group; ++i) {
      for (int l = 0; l < 4; ++l)
        a[l] += f[4 * i + l];
      b += s[i];
      d += c[i];
      e ^= u[i];
    }
    for (int l = 0; l < 4; ++l)
      wf[4 * g + l] = a[l];
    ws[g] = b;
    wc[g] = (int)d;
    wu[g] = (int)e;
  }
  bad += compare_floats("float4 sums", gf, wf, 4 * (size_t)mg, 1e-4, 1.0) +
         compare_ints("short sums", gs, ws, mg) + compare_ints("uchar sums", gc, wc, mg) +
         compare_ints("uint xors", gu, wu, mg);
  release_mems(10, mints, mmm, mf, ms, mc, mu, of, os, oc, ou);
  release_kernels(3, ksum, kmm, klt);
  return ocl_report(bad, "reductions over %d elements, sum in %d passes", n, passes);
}
