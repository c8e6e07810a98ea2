/* SDK-style transpose of a non-square matrix: the naive kernel, then the
   tiled one back again (a __local argument sized by the host), which must
   give the input exactly; every launch overhangs the matrix. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 500, 1);
  int width = n + 9, height = n / 2 + 3;
  ocl_init("transpose", NULL);
  size_t cells = (size_t)width * height, bytes = sizeof(float) * cells;
  float *m = xmalloc(bytes);
  fill_random(m, cells, 210);
  cl_mem a = ocl_buffer_from(m, bytes), t = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL),
         back = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  cl_kernel kn = ocl_kernel("transpose_naive"), kt = ocl_kernel("transpose_tiled");
  ARG(kn, 0, a); ARG(kn, 1, t); ARG(kn, 2, width); ARG(kn, 3, height);
  ARG(kt, 0, t); ARG(kt, 1, back); ARG(kt, 2, height); ARG(kt, 3, width);
  LOCAL_ARG(kt, 4, sizeof(float) * 16 * 17);
  size_t local[2] = {16, 16};
  size_t g1[2] = {round_up(width, 16), round_up(height, 16)};
  size_t g2[2] = {round_up(height, 16), round_up(width, 16)};
  ocl_run(kn, 2, g1, local);
  ocl_run(kt, 2, g2, local);
  float *gt = xmalloc(bytes), *gb = xmalloc(bytes);
  ocl_read(t, bytes, gt);
  ocl_read(back, bytes, gb);
  double *wt = xmalloc(sizeof(double) * cells), *wb = xmalloc(sizeof(double) * cells);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      wt[(size_t)x * height + y] = m[(size_t)y * width + x];
      wb[(size_t)y * width + x] = m[(size_t)y * width + x];
    }
  long bad = compare_floats("transposed", gt, wt, cells, 0.0, 0.0) +
             compare_floats("back", gb, wb, cells, 0.0, 0.0);
  release_mems(3, a, t, back);
  release_kernels(2, kn, kt);
  return ocl_report(bad, "transpose %dx%d and back", width, height);
}
