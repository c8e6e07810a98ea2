/* SDK-style buffer operations around launches: clEnqueueFillBuffer, a
   buffer split into sub-buffers (origins aligned to the device's
   CL_DEVICE_MEM_BASE_ADDR_ALIGN) each launched on and then read through
   the parent, rectangles written, copied between buffers and read back
   (clEnqueue{Write,Copy,Read}BufferRect), and clEnqueueCopyBuffer. All
   checked exactly against the host's. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 100000, 1);
  ocl_init("buffer_ops", NULL);
  cl_int err;
  cl_uint align_bits;
  CHECK(clGetDeviceInfo(ocl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                        NULL));
  size_t align = align_bits / 8 / sizeof(int); /* in ints */
  cl_kernel kadd = ocl_kernel("add_index"), krows = ocl_kernel("row_sums");
  long bad = 0;

  /* Fill, then four sub-buffers of aligned, unequal lengths. */
  int parts = 4;
  size_t piece = round_up((size_t)n / parts + 1, align), total = piece * parts;
  cl_mem whole = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * total, NULL);
  int seven = 7;
  CHECK(clEnqueueFillBuffer(ocl.queue, whole, &seven, sizeof seven, 0, sizeof(int) * total, 0,
                            NULL, NULL));
  int *want = xmalloc(sizeof(int) * total), *got = xmalloc(sizeof(int) * total);
  for (size_t i = 0; i < total; ++i)
    want[i] = 7;
  for (int p = 0; p < parts; ++p) {
    cl_buffer_region region = {sizeof(int) * piece * p, sizeof(int) * piece};
    cl_mem sub = clCreateSubBuffer(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                   &err);
    CHECK(err);
    int base = 1000 * (p + 1), count = (int)(piece - (size_t)p * 3);
    ARG(kadd, 0, sub); ARG(kadd, 1, base); ARG(kadd, 2, count);
    size_t global = round_up(count, 64), local = 64;
    ocl_run(kadd, 1, &global, &local);
    CHECK(clReleaseMemObject(sub));
    for (int i = 0; i < count; ++i)
      want[piece * p + i] += base + i;
  }
  ocl_read(whole, sizeof(int) * total, got);
  bad += compare_ints("sub-buffers", got, want, total);

  /* A width x height matrix: a rectangle written into it, the matrix
     copied whole, a rectangle of that copied into a third buffer, row sums
     of the third, and a rectangle read back. */
  int width = 64 + n % 7, height = n / 200 + 8;
  size_t cells = (size_t)width * height, row_pitch = sizeof(int) * width;
  cl_mem a = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * cells, NULL),
         b = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * cells, NULL),
         c = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * cells, NULL),
         sums = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * height, NULL);
  int zero = 0;
  CHECK(clEnqueueFillBuffer(ocl.queue, a, &zero, sizeof zero, 0, sizeof(int) * cells, 0, NULL, NULL));
  CHECK(clEnqueueFillBuffer(ocl.queue, c, &zero, sizeof zero, 0, sizeof(int) * cells, 0, NULL, NULL));
  int rw = width / 2, rh = height / 2;
  int *rect = xmalloc(sizeof(int) * rw * rh);
  for (int i = 0; i < rw * rh; ++i)
    rect[i] = i + 1;
  size_t origin[3] = {sizeof(int) * 3, 2, 0}, host_origin[3] = {0, 0, 0},
         region[3] = {sizeof(int) * rw, rh, 1};
  CHECK(clEnqueueWriteBufferRect(ocl.queue, a, CL_FALSE, origin, host_origin, region, row_pitch, 0,
                                 sizeof(int) * rw, 0, rect, 0, NULL, NULL));
  CHECK(clEnqueueCopyBuffer(ocl.queue, a, b, 0, 0, sizeof(int) * cells, 0, NULL, NULL));
  size_t src_origin[3] = {sizeof(int) * 5, 3, 0}, dst_origin[3] = {0, 1, 0},
         copy_region[3] = {sizeof(int) * (rw - 2), rh - 1, 1};
  CHECK(clEnqueueCopyBufferRect(ocl.queue, b, c, src_origin, dst_origin, copy_region, row_pitch, 0,
                                row_pitch, 0, 0, NULL, NULL));
  ARG(krows, 0, c); ARG(krows, 1, sums); ARG(krows, 2, width); ARG(krows, 3, height);
  size_t gr = round_up(height, 32), lr = 32;
  ocl_run(krows, 1, &gr, &lr);
  int *ma = calloc(cells, sizeof(int)), *mc = calloc(cells, sizeof(int));
  for (int y = 0; y < rh; ++y)
    for (int x = 0; x < rw; ++x)
      ma[(y + 2) * width + x + 3] = rect[y * rw + x];
  for (int y = 0; y < rh - 1; ++y)
    for (int x = 0; x < rw - 2; ++x)
      mc[(y + 1) * width + x] = ma[(y + 3) * width + x + 5];
  int *want_sums = calloc(height, sizeof(int)), *got_sums = xmalloc(sizeof(int) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      want_sums[y] += mc[y * width + x];
  ocl_read(sums, sizeof(int) * height, got_sums);
  bad += compare_ints("row sums", got_sums, want_sums, height);
  /* Read a rectangle of B (the whole copy of A) into a padded host array. */
  int pitch = rw + 5;
  int *back = calloc((size_t)pitch * rh, sizeof(int)), *want_back = calloc((size_t)pitch * rh, sizeof(int));
  size_t read_origin[3] = {sizeof(int) * 3, 2, 0};
  CHECK(clEnqueueReadBufferRect(ocl.queue, b, CL_TRUE, read_origin, host_origin, region, row_pitch,
                                0, sizeof(int) * pitch, 0, back, 0, NULL, NULL));
  for (int y = 0; y < rh; ++y)
    for (int x = 0; x < rw; ++x)
      want_back[y * pitch + x] = rect[y * rw + x];
  bad += compare_ints("read rect", back, want_back, (size_t)pitch * rh);
  release_mems(5, whole, a, b, c, sums);
  release_kernels(2, kadd, krows);
  return ocl_report(bad, "fill, %d sub-buffers of %zu ints, rectangles of %dx%d", parts, piece,
                    width, height);
}
