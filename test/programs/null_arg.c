/* Buffer arguments set to NULL (clSetKernelArg(k, i, sizeof(cl_mem), NULL)),
   which kernels test with `if (p)`; each kernel runs with the argument
   NULL and with a real buffer, and a NULL argument replaces a buffer set
   before. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 100000, 1);
  int width = 256, height = n / 256 > 1 ? n / 256 : 1;
  ocl_init("null_arg", NULL);
  float *x = xmalloc(sizeof(float) * n), *y = xmalloc(sizeof(float) * n), bias[16];
  fill_random(x, n, 180);
  fill_random(y, n, 181);
  fill_random(bias, 16, 182);
  cl_mem mx = ocl_buffer_from(x, sizeof(float) * n), my = ocl_buffer_from(y, sizeof(float) * n);
  cl_mem mbias = ocl_buffer_from(bias, sizeof bias);
  cl_kernel ka = ocl_kernel("axpy_bias"), km = ocl_kernel("masked_scale");
  float a = 2.0f;
  size_t global = round_up(n, 256), local = 256;
  ARG(ka, 0, mx); ARG(ka, 1, my); ARG(ka, 3, a); ARG(ka, 4, n);
  /* First without a bias, then with it, then without again. */
  double *want = xmalloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    want[i] = y[i];
  for (int step = 0; step < 3; ++step) {
    if (step == 1)
      ARG(ka, 2, mbias);
    else
      CHECK(clSetKernelArg(ka, 2, sizeof(cl_mem), NULL));
    ocl_run(ka, 1, &global, &local);
    for (int i = 0; i < n; ++i)
      want[i] = (float)(a * x[i] + (float)want[i] + (step == 1 ? bias[i % 16] : 0.0f));
  }
  float *got = xmalloc(sizeof(float) * n);
  ocl_read(my, sizeof(float) * n, got);
  long bad = compare_floats("axpy", got, want, n, 1e-5, 1.0);

  size_t cells = (size_t)width * height;
  float *m = xmalloc(sizeof(float) * cells);
  int *mask = xmalloc(sizeof(int) * cells);
  fill_random(m, cells, 183);
  for (size_t i = 0; i < cells; ++i)
    mask[i] = (i * 7) % 3 != 0;
  cl_mem mm = ocl_buffer_from(m, sizeof(float) * cells), mmask = ocl_buffer_from(mask, sizeof(int) * cells);
  cl_mem msums = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * height, NULL);
  float s1 = 3.0f, s2 = 0.5f;
  size_t g2[2] = {width, round_up(height, 4)}, l2[2] = {64, 4};
  /* No mask, sums wanted; then a mask, no sums. */
  ARG(km, 0, mm); CHECK(clSetKernelArg(km, 1, sizeof(cl_mem), NULL)); ARG(km, 2, msums);
  ARG(km, 3, width); ARG(km, 4, height); ARG(km, 5, s1);
  ocl_run(km, 2, g2, l2);
  ARG(km, 1, mmask); CHECK(clSetKernelArg(km, 2, sizeof(cl_mem), NULL)); ARG(km, 5, s2);
  ocl_run(km, 2, g2, l2);
  float *gm = xmalloc(sizeof(float) * cells), *gsums = xmalloc(sizeof(float) * height);
  ocl_read(mm, sizeof(float) * cells, gm);
  ocl_read(msums, sizeof(float) * height, gsums);
  double *wm = xmalloc(sizeof(double) * cells), *wsums = xmalloc(sizeof(double) * height);
  for (size_t i = 0; i < cells; ++i)
    wm[i] = mask[i] ? m[i] * s1 * s2 : m[i] * s1;
  for (int r = 0; r < height; ++r)
    wsums[r] = width;
  bad += compare_floats("masked", gm, wm, cells, 1e-6, 1.0) +
         compare_floats("row sums", gsums, wsums, height, 0.0, 0.0);
  release_mems(6, mx, my, mbias, mm, mmask, msums);
  release_kernels(2, ka, km);
  return ocl_report(bad, "NULL buffer arguments, axpy n=%d, masked %dx%d", n, width, height);
}
