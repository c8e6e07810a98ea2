/* SDK-style N-body: a local-memory tiled force kernel over float4 bodies
   (a __local float4 argument), an integration kernel, position buffers
   swapped each step. Positions compared with a float tolerance. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 2000, 1);
  int steps = 4;
  float softening = 0.01f, dt = 0.005f;
  ocl_init("nbody", NULL);
  size_t bytes = sizeof(cl_float4) * n;
  float *pos = xmalloc(bytes), *vel = xmalloc(bytes);
  fill_random(pos, 4 * (size_t)n, 230);
  fill_random(vel, 4 * (size_t)n, 231);
  for (int i = 0; i < n; ++i) {
    pos[4 * i + 3] = 0.5f + pos[4 * i + 3]; /* mass */
    for (int c = 0; c < 4; ++c)
      vel[4 * i + c] = c < 3 ? vel[4 * i + c] - 0.5f : 0.0f;
  }
  cl_mem mpos[2] = {ocl_buffer_from(pos, bytes), ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL)};
  cl_mem mvel = ocl_buffer_from(vel, bytes), macc = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  cl_kernel ka = ocl_kernel("nbody_accel"), ks = ocl_kernel("nbody_step");
  size_t local = 64, global = round_up(n, 64);
  for (int t = 0; t < steps; ++t) {
    cl_mem cur = mpos[t % 2], next = mpos[1 - t % 2];
    ARG(ka, 0, cur); ARG(ka, 1, macc); LOCAL_ARG(ka, 2, sizeof(cl_float4) * local);
    ARG(ka, 3, n); ARG(ka, 4, softening);
    ARG(ks, 0, cur); ARG(ks, 1, mvel); ARG(ks, 2, macc); ARG(ks, 3, next); ARG(ks, 4, n);
    ARG(ks, 5, dt);
    ocl_run(ka, 1, &global, &local);
    ocl_run(ks, 1, &global, &local);
  }
  float *got = xmalloc(bytes);
  ocl_read(mpos[steps % 2], bytes, got);

  double *p = xmalloc(sizeof(double) * 4 * n), *v = xmalloc(sizeof(double) * 4 * n),
         *a = xmalloc(sizeof(double) * 3 * n);
  for (int i = 0; i < 4 * n; ++i) {
    p[i] = pos[i];
    v[i] = vel[i];
  }
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < n; ++i) {
      double s[3] = {0, 0, 0};
      for (int j = 0; j < n; ++j) {
        double d[3], r2 = softening;
        for (int c = 0; c < 3; ++c) {
          d[c] = p[4 * j + c] - p[4 * i + c];
          r2 += d[c] * d[c];
        }
        double inv = 1.0 / sqrt(r2);
        for (int c = 0; c < 3; ++c)
          s[c] += d[c] * p[4 * j + 3] * inv * inv * inv;
      }
      for (int c = 0; c < 3; ++c)
        a[3 * i + c] = s[c];
    }
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        v[4 * i + c] += a[3 * i + c] * dt;
        p[4 * i + c] += v[4 * i + c] * dt;
      }
  }
  /* Close encounters amplify rounding: compare with a loose tolerance. */
  long bad = compare_floats("positions", got, p, 4 * (size_t)n, 1e-3, 1.0);
  release_mems(4, mpos[0], mpos[1], mvel, macc);
  release_kernels(2, ka, ks);
  return ocl_report(bad, "n-body %d bodies, %d steps", n, steps);
}
