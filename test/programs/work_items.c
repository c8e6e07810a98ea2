/* Work-item functions under splitting: 3-D launches with global offsets and
   odd work-group sizes (3x5x7, 7x1x3, none given), every item recording
   its global, local and group ids, sizes, offsets and dimension count;
   a 2-D launch with an offset adding per-group values. Checked exactly. */
#include "common.h"

static long check_3d(cl_kernel k, int nx, int ny, int nz, const size_t *offset,
                     const size_t *local) {
  size_t count = (size_t)nx * ny * nz * 8;
  int *got = xmalloc(sizeof(int) * count);
  memset(got, 0xff, sizeof(int) * count);
  cl_mem out = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int) * count, got);
  size_t global[3] = {nx, ny, nz};
  if (local)
    for (int d = 0; d < 3; ++d)
      global[d] = round_up(global[d], local[d]);
  ARG(k, 0, out); ARG(k, 1, nx); ARG(k, 2, ny); ARG(k, 3, nz);
  CHECK(clEnqueueNDRangeKernel(ocl.queue, k, 3, offset, global, local, 0, NULL, NULL));
  ocl_read(out, sizeof(int) * count, got);
  /* Without a local size the implementation picks one: read it back from
     the first item and check the others against it. */
  size_t l[3];
  if (local)
    memcpy(l, local, sizeof l);
  else {
    l[0] = got[4] % 100;
    l[1] = got[4] / 100 % 100;
    l[2] = got[4] / 10000;
    for (int d = 0; d < 3; ++d)
      if (l[d] == 0 || global[d] % l[d]) {
        fprintf(stderr, "implementation's local size %zu does not divide %zu\n", l[d], global[d]);
        return 1;
      }
  }
  int *want = xmalloc(sizeof(int) * count);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        size_t g[3] = {x + offset[0], y + offset[1], z + offset[2]}, xyz[3] = {x, y, z};
        size_t li[3], gi[3], ng[3];
        for (int d = 0; d < 3; ++d) {
          li[d] = xyz[d] % l[d];
          gi[d] = xyz[d] / l[d];
          ng[d] = global[d] / l[d];
        }
        int *w = want + (((size_t)z * ny + y) * nx + x) * 8;
        w[0] = (int)(g[0] + 1000 * g[1] + 1000000 * g[2]);
        w[1] = (int)(li[0] + 100 * li[1] + 10000 * li[2]);
        w[2] = (int)(gi[0] + 100 * gi[1] + 10000 * gi[2]);
        w[3] = (int)(ng[0] + 100 * ng[1] + 10000 * ng[2]);
        w[4] = (int)(l[0] + 100 * l[1] + 10000 * l[2]);
        w[5] = (int)(global[0] + 1000 * global[1] + 1000000 * global[2]);
        w[6] = (int)(offset[0] + 100 * offset[1] + 10000 * offset[2]);
        w[7] = 3;
      }
  long bad = compare_ints("ids", got, want, count);
  CHECK(clReleaseMemObject(out));
  free(got);
  free(want);
  return bad;
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 30, 1);
  int nx = n + 1, ny = n / 2 + 2, nz = n / 3 + 3;
  ocl_init("work_items", NULL);
  cl_kernel k3 = ocl_kernel("record_ids"), k2 = ocl_kernel("group_linear");
  size_t off_a[3] = {0, 0, 0}, off_b[3] = {5, 7, 11}, off_c[3] = {1, 0, 2};
  size_t local_a[3] = {3, 5, 7}, local_b[3] = {7, 1, 3};
  long bad = check_3d(k3, nx, ny, nz, off_a, local_a) + check_3d(k3, nx, ny, nz, off_b, local_b) +
             check_3d(k3, nx, ny, nz, off_c, NULL);

  /* 2-D: 6x10 groups over an exact grid, offset by one group's height. */
  int width = 6 * (n / 3 + 1), height = 10 * (n / 5 + 1);
  size_t cells = (size_t)width * (height + 10);
  int *grid = xmalloc(sizeof(int) * cells), *want = xmalloc(sizeof(int) * cells);
  for (size_t i = 0; i < cells; ++i)
    grid[i] = want[i] = (int)i;
  cl_mem mgrid = ocl_buffer_from(grid, sizeof(int) * cells);
  ARG(k2, 0, mgrid); ARG(k2, 1, width);
  size_t offset[2] = {0, 10}, global[2] = {width, height}, local[2] = {6, 10};
  CHECK(clEnqueueNDRangeKernel(ocl.queue, k2, 2, offset, global, local, 0, NULL, NULL));
  ocl_read(mgrid, sizeof(int) * cells, grid);
  int groups_x = width / 6;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      /* Group and local ids count from the offset. */
      int gy = y / 10, gx = x / 6;
      want[(size_t)(y + 10) * width + x] += (gy * groups_x + gx) * 1000 + (y % 10) * 6 + x % 6;
    }
  bad += compare_ints("group_linear", grid, want, cells);
  CHECK(clReleaseMemObject(mgrid));
  release_kernels(2, k3, k2);
  return ocl_report(bad, "work-item functions over %dx%dx%d with offsets", nx, ny, nz);
}
