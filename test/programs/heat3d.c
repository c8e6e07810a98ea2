/* A 3-D heat-diffusion time loop (Rodinia/PolyBench-shaped): a 3-D launch
   per step whose buffer arguments swap, the step's coefficient a new
   scalar argument each step, 4x4x4 groups overhanging the grid; then a
   per-plane reduction. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 50, 1);
  int steps = 10;
  ocl_init("heat3d", NULL);
  size_t cells = (size_t)n * n * n, bytes = sizeof(float) * cells;
  float *grid = xmalloc(bytes);
  fill_random(grid, cells, 150);
  cl_mem a = ocl_buffer_from(grid, bytes), b = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  cl_mem sums = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * n, NULL);
  cl_kernel ks = ocl_kernel("heat_step"), kp = ocl_kernel("plane_sums");
  size_t global[3] = {round_up(n, 4), round_up(n, 4), round_up(n, 4)}, local[3] = {4, 4, 4};
  for (int t = 0; t < steps; ++t) {
    cl_mem in = t % 2 ? b : a, out = t % 2 ? a : b;
    float alpha = 0.1f / (float)(t + 1);
    ARG(ks, 0, in); ARG(ks, 1, out); ARG(ks, 2, n); ARG(ks, 3, alpha);
    ocl_run(ks, 3, global, local);
  }
  cl_mem last = steps % 2 ? b : a;
  size_t group = 128, gp = group * n;
  ARG(kp, 0, last); ARG(kp, 1, sums); LOCAL_ARG(kp, 2, sizeof(float) * group); ARG(kp, 3, n);
  ocl_run(kp, 1, &gp, &group);
  float *got = xmalloc(bytes), *got_sums = xmalloc(sizeof(float) * n);
  ocl_read(last, bytes, got);
  ocl_read(sums, sizeof(float) * n, got_sums);

  float *p = xmalloc(bytes), *q = xmalloc(bytes);
  memcpy(p, grid, bytes);
  for (int t = 0; t < steps; ++t) {
    float alpha = 0.1f / (float)(t + 1);
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          size_t at = ((size_t)k * n + j) * n + i;
          if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
            q[at] = p[at];
            continue;
          }
          float lap = p[at - 1] + p[at + 1] + p[at - n] + p[at + n] + p[at - n * n] +
                      p[at + n * n] - 6.0f * p[at];
          q[at] = p[at] + alpha * lap;
        }
    float *swap = p;
    p = q;
    q = swap;
  }
  double *want = xmalloc(sizeof(double) * cells), *want_sums = xmalloc(sizeof(double) * n);
  for (int k = 0; k < n; ++k) {
    double s = 0;
    for (int at = 0; at < n * n; ++at) {
      want[(size_t)k * n * n + at] = p[(size_t)k * n * n + at];
      s += p[(size_t)k * n * n + at];
    }
    want_sums[k] = s;
  }
  long bad = compare_floats("grid", got, want, cells, 1e-5, 1.0) +
             compare_floats("plane sums", got_sums, want_sums, n, 1e-4, 1.0);
  release_mems(3, a, b, sums);
  release_kernels(2, ks, kp);
  return ocl_report(bad, "heat-3d %d^3, %d steps", n, steps);
}
