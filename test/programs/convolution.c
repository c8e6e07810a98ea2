/* SDK/PolyBench-style convolutions: a 2-D image through a 5x5 __constant
   filter (zero padding, the bounds tested per tap) over 16x16 groups that
   overhang the image, and a 3-D 27-point-shaped stencil over 8x4x4
   groups overhanging a box; the 3-D output starts as a copy of the input
   (clEnqueueCopyBuffer) so its untouched border is checked too. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 300, 1);
  int width = n + 3, height = n - 7 > 1 ? n - 7 : 1;
  int nx = n / 4 + 5, ny = n / 5 + 3, nz = n / 6 + 2;
  float c0 = 0.5f, c1 = 0.05f, c2 = 0.0125f;
  ocl_init("convolution", NULL);
  size_t simage = sizeof(float) * width * height, sbox = sizeof(float) * nx * ny * nz;
  float *image = xmalloc(simage), *box = xmalloc(sbox), filter[25];
  fill_random(image, (size_t)width * height, 140);
  fill_random(box, (size_t)nx * ny * nz, 141);
  fill_random(filter, 25, 142);
  cl_mem mimage = ocl_buffer_from(image, simage);
  cl_mem mout = ocl_buffer(CL_MEM_READ_WRITE, simage, NULL);
  cl_mem mfilter = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof filter, filter);
  cl_mem mbox = ocl_buffer_from(box, sbox), mbox_out = ocl_buffer(CL_MEM_READ_WRITE, sbox, NULL);
  CHECK(clEnqueueCopyBuffer(ocl.queue, mbox, mbox_out, 0, 0, sbox, 0, NULL, NULL));
  cl_kernel k2 = ocl_kernel("conv2d"), k3 = ocl_kernel("conv3d");
  ARG(k2, 0, mimage); ARG(k2, 1, mout); ARG(k2, 2, mfilter); ARG(k2, 3, width); ARG(k2, 4, height);
  ARG(k3, 0, mbox); ARG(k3, 1, mbox_out); ARG(k3, 2, nx); ARG(k3, 3, ny); ARG(k3, 4, nz);
  ARG(k3, 5, c0); ARG(k3, 6, c1); ARG(k3, 7, c2);
  size_t g2[2] = {round_up(width, 16), round_up(height, 16)}, l2[2] = {16, 16};
  size_t g3[3] = {round_up(nx, 8), round_up(ny, 4), round_up(nz, 4)}, l3[3] = {8, 4, 4};
  ocl_run(k2, 2, g2, l2);
  ocl_run(k3, 3, g3, l3);
  float *got2 = xmalloc(simage), *got3 = xmalloc(sbox);
  ocl_read(mout, simage, got2);
  ocl_read(mbox_out, sbox, got3);

  double *want2 = xmalloc(sizeof(double) * width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double s = 0;
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
          int sx = x + dx, sy = y + dy;
          if (sx >= 0 && sx < width && sy >= 0 && sy < height)
            s += (double)filter[(dy + 2) * 5 + dx + 2] * image[sy * width + sx];
        }
      want2[y * width + x] = s;
    }
  double *want3 = xmalloc(sizeof(double) * nx * ny * nz);
#define AT(I, J, K) ((double)box[((K) * ny + (J)) * nx + (I)])
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (i < 1 || j < 1 || k < 1 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1) {
          want3[(k * ny + j) * nx + i] = AT(i, j, k);
          continue;
        }
        double faces = AT(i - 1, j, k) + AT(i + 1, j, k) + AT(i, j - 1, k) + AT(i, j + 1, k) +
                       AT(i, j, k - 1) + AT(i, j, k + 1);
        double corners = 0;
        for (int dk = -1; dk <= 1; dk += 2)
          for (int dj = -1; dj <= 1; dj += 2)
            for (int di = -1; di <= 1; di += 2)
              corners += AT(i + di, j + dj, k + dk);
        want3[(k * ny + j) * nx + i] = c0 * AT(i, j, k) + c1 * faces + c2 * corners;
      }
#undef AT
  long bad = compare_floats("conv2d", got2, want2, (size_t)width * height, 1e-5, 1.0) +
             compare_floats("conv3d", got3, want3, (size_t)nx * ny * nz, 1e-5, 1.0);
  release_mems(5, mimage, mout, mfilter, mbox, mbox_out);
  release_kernels(2, k2, k3);
  return ocl_report(bad, "conv2d %dx%d, conv3d %dx%dx%d", width, height, nx, ny, nz);
}
