/* PolyBench-style 2mm: two 2-D kernels over READ_WRITE buffers filled by
   blocking writes, a 16x16 work-group over sizes that are not multiples
   of it, one blocking read. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 100, 1);
  int ni = n, nj = n + 7, nk = n + 3, nl = n + 11;
  float alpha = 1.5f, beta = 1.2f;
  ocl_init("mm2", NULL);
  float *a = xmalloc(sizeof(float) * ni * nk), *b = xmalloc(sizeof(float) * nk * nj),
        *c = xmalloc(sizeof(float) * nj * nl), *d = xmalloc(sizeof(float) * ni * nl);
  fill_random(a, (size_t)ni * nk, 1);
  fill_random(b, (size_t)nk * nj, 2);
  fill_random(c, (size_t)nj * nl, 3);
  fill_random(d, (size_t)ni * nl, 4);
  cl_mem ma = ocl_buffer_from(a, sizeof(float) * ni * nk);
  cl_mem mb = ocl_buffer_from(b, sizeof(float) * nk * nj);
  cl_mem mc = ocl_buffer_from(c, sizeof(float) * nj * nl);
  cl_mem md = ocl_buffer_from(d, sizeof(float) * ni * nl);
  cl_mem mtmp = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * ni * nj, NULL);

  cl_kernel k1 = ocl_kernel("mm2_tmp"), k2 = ocl_kernel("mm2_out");
  ARG(k1, 0, ma); ARG(k1, 1, mb); ARG(k1, 2, mtmp);
  ARG(k1, 3, ni); ARG(k1, 4, nj); ARG(k1, 5, nk); ARG(k1, 6, alpha);
  ARG(k2, 0, mtmp); ARG(k2, 1, mc); ARG(k2, 2, md);
  ARG(k2, 3, ni); ARG(k2, 4, nl); ARG(k2, 5, nj); ARG(k2, 6, beta);
  size_t local[2] = {16, 16};
  size_t g1[2] = {round_up(nj, 16), round_up(ni, 16)};
  size_t g2[2] = {round_up(nl, 16), round_up(ni, 16)};
  ocl_run(k1, 2, g1, local);
  ocl_run(k2, 2, g2, local);
  float *out = xmalloc(sizeof(float) * ni * nl);
  ocl_read(md, sizeof(float) * ni * nl, out);

  double *tmp = xmalloc(sizeof(double) * ni * nj), *want = xmalloc(sizeof(double) * ni * nl);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      double s = 0;
      for (int k = 0; k < nk; ++k)
        s += (double)a[i * nk + k] * b[k * nj + j];
      tmp[i * nj + j] = alpha * s;
    }
  for (int i = 0; i < ni; ++i)
    for (int l = 0; l < nl; ++l) {
      double s = (double)d[i * nl + l] * beta;
      for (int j = 0; j < nj; ++j)
        s += tmp[i * nj + j] * c[j * nl + l];
      want[i * nl + l] = s;
    }
  long bad = compare_floats("d", out, want, (size_t)ni * nl, 1e-4, 1.0);
  release_mems(5, ma, mb, mc, md, mtmp);
  release_kernels(2, k1, k2);
  return ocl_report(bad, "2mm %dx%dx%dx%d", ni, nj, nk, nl);
}
