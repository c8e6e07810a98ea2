/* PolyBench-style 3mm: non-blocking writes whose events the launches wait
   for, three 2-D launches chained by events, a non-blocking read finished
   by clFinish, and clWaitForEvents on the launches. */
#include "common.h"

static void product(const float *x, const float *y, double *out, int rows, int cols,
                    int inner) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double s = 0;
      for (int k = 0; k < inner; ++k)
        s += (double)x[i * inner + k] * y[k * cols + j];
      out[i * cols + j] = s;
    }
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 96, 1);
  int ni = n, nj = n + 5, nk = n + 2, nl = n + 9, nm = n + 1;
  ocl_init("mm3", NULL);
  size_t sa = sizeof(float) * ni * nk, sb = sizeof(float) * nk * nj,
         sc = sizeof(float) * nj * nm, sd = sizeof(float) * nm * nl;
  float *a = xmalloc(sa), *b = xmalloc(sb), *c = xmalloc(sc), *d = xmalloc(sd);
  fill_random(a, sa / 4, 11);
  fill_random(b, sb / 4, 12);
  fill_random(c, sc / 4, 13);
  fill_random(d, sd / 4, 14);
  cl_mem ma = ocl_buffer(CL_MEM_READ_WRITE, sa, NULL), mb = ocl_buffer(CL_MEM_READ_WRITE, sb, NULL),
         mc = ocl_buffer(CL_MEM_READ_WRITE, sc, NULL), md = ocl_buffer(CL_MEM_READ_WRITE, sd, NULL);
  cl_mem me = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * ni * nj, NULL);
  cl_mem mf = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * nj * nl, NULL);
  cl_mem mg = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * ni * nl, NULL);
  cl_event writes[4];
  CHECK(clEnqueueWriteBuffer(ocl.queue, ma, CL_FALSE, 0, sa, a, 0, NULL, &writes[0]));
  CHECK(clEnqueueWriteBuffer(ocl.queue, mb, CL_FALSE, 0, sb, b, 0, NULL, &writes[1]));
  CHECK(clEnqueueWriteBuffer(ocl.queue, mc, CL_FALSE, 0, sc, c, 0, NULL, &writes[2]));
  CHECK(clEnqueueWriteBuffer(ocl.queue, md, CL_FALSE, 0, sd, d, 0, NULL, &writes[3]));

  cl_kernel ke = ocl_kernel("mm3_e"), kf = ocl_kernel("mm3_f"), kg = ocl_kernel("mm3_g");
  ARG(ke, 0, ma); ARG(ke, 1, mb); ARG(ke, 2, me); ARG(ke, 3, ni); ARG(ke, 4, nj); ARG(ke, 5, nk);
  ARG(kf, 0, mc); ARG(kf, 1, md); ARG(kf, 2, mf); ARG(kf, 3, nj); ARG(kf, 4, nl); ARG(kf, 5, nm);
  ARG(kg, 0, me); ARG(kg, 1, mf); ARG(kg, 2, mg); ARG(kg, 3, ni); ARG(kg, 4, nl); ARG(kg, 5, nj);
  size_t local[2] = {8, 8};
  size_t ge[2] = {round_up(nj, 8), round_up(ni, 8)}, gf[2] = {round_up(nl, 8), round_up(nj, 8)},
         gg[2] = {round_up(nl, 8), round_up(ni, 8)};
  cl_event launches[3];
  CHECK(clEnqueueNDRangeKernel(ocl.queue, ke, 2, NULL, ge, local, 2, &writes[0], &launches[0]));
  CHECK(clEnqueueNDRangeKernel(ocl.queue, kf, 2, NULL, gf, local, 2, &writes[2], &launches[1]));
  CHECK(clEnqueueNDRangeKernel(ocl.queue, kg, 2, NULL, gg, NULL, 2, launches, &launches[2]));
  CHECK(clFlush(ocl.queue));
  CHECK(clWaitForEvents(3, launches));
  for (int i = 0; i < 3; ++i) {
    cl_int status;
    CHECK(clGetEventInfo(launches[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                         &status, NULL));
    if (status != CL_COMPLETE) {
      fprintf(stderr, "launch %d: status %d after clWaitForEvents\n", i, status);
      return ocl_report(1, "3mm launch not complete");
    }
  }
  float *out = xmalloc(sizeof(float) * ni * nl);
  CHECK(clEnqueueReadBuffer(ocl.queue, mg, CL_FALSE, 0, sizeof(float) * ni * nl, out, 0, NULL,
                            NULL));
  CHECK(clFinish(ocl.queue));

  double *e = xmalloc(sizeof(double) * ni * nj), *f = xmalloc(sizeof(double) * nj * nl),
         *want = xmalloc(sizeof(double) * ni * nl);
  product(a, b, e, ni, nj, nk);
  product(c, d, f, nj, nl, nm);
  for (int i = 0; i < ni; ++i)
    for (int l = 0; l < nl; ++l) {
      double s = 0;
      for (int j = 0; j < nj; ++j)
        s += e[i * nj + j] * f[j * nl + l];
      want[i * nl + l] = s;
    }
  long bad = compare_floats("g", out, want, (size_t)ni * nl, 1e-4, 1.0);
  for (int i = 0; i < 4; ++i)
    CHECK(clReleaseEvent(writes[i]));
  for (int i = 0; i < 3; ++i)
    CHECK(clReleaseEvent(launches[i]));
  release_mems(7, ma, mb, mc, md, me, mf, mg);
  release_kernels(3, ke, kf, kg);
  return ocl_report(bad, "3mm %dx%dx%dx%dx%d", ni, nj, nk, nl, nm);
}
