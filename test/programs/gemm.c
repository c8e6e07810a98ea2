/* PolyBench/SDK-style gemm: inputs in CL_MEM_COPY_HOST_PTR buffers (the
   host arrays are overwritten afterwards, which must not matter), a 1-D
   scaling launch then a local-memory tiled 2-D product, run twice. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 128, 1);
  int ni = n + 1, nj = n + 13, nk = n - 3;
  if (nk < 1)
    nk = 1;
  float alpha = 0.75f, beta = 0.5f;
  ocl_init("gemm", NULL);
  size_t sa = sizeof(float) * ni * nk, sb = sizeof(float) * nk * nj, sc = sizeof(float) * ni * nj;
  float *a = xmalloc(sa), *b = xmalloc(sb), *c = xmalloc(sc);
  fill_random(a, sa / 4, 21);
  fill_random(b, sb / 4, 22);
  fill_random(c, sc / 4, 23);
  cl_mem ma = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sa, a);
  cl_mem mb = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sb, b);
  cl_mem mc = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sc, c);
  double *want = xmalloc(sizeof(double) * ni * nj);
  for (int i = 0; i < ni * nj; ++i)
    want[i] = c[i];
  for (int step = 0; step < 2; ++step)
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) {
        double s = 0;
        for (int k = 0; k < nk; ++k)
          s += (double)a[i * nk + k] * b[k * nj + j];
        want[i * nj + j] = want[i * nj + j] * beta + alpha * s;
      }
  /* The buffers own copies: scribbling on the host arrays changes nothing. */
  memset(a, 0xff, sa);
  memset(b, 0xff, sb);
  memset(c, 0xff, sc);

  cl_kernel ks = ocl_kernel("gemm_scale"), kt = ocl_kernel("gemm_tiled");
  int count = ni * nj;
  ARG(ks, 0, mc); ARG(ks, 1, count); ARG(ks, 2, beta);
  ARG(kt, 0, ma); ARG(kt, 1, mb); ARG(kt, 2, mc);
  ARG(kt, 3, ni); ARG(kt, 4, nj); ARG(kt, 5, nk); ARG(kt, 6, alpha);
  size_t gs = round_up(count, 64), ls = 64;
  size_t gt[2] = {round_up(nj, 16), round_up(ni, 16)}, lt[2] = {16, 16};
  for (int step = 0; step < 2; ++step) {
    ocl_run(ks, 1, &gs, &ls);
    ocl_run(kt, 2, gt, lt);
  }
  ocl_read(mc, sc, c);
  long bad = compare_floats("c", c, want, (size_t)count, 1e-4, 1.0);
  release_mems(3, ma, mb, mc);
  release_kernels(2, ks, kt);
  return ocl_report(bad, "gemm %dx%dx%d, 2 steps", ni, nj, nk);
}
