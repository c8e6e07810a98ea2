/* SDK-style work-efficient scan: blocks scanned in local memory, their
   sums scanned recursively (the same kernel on shorter arrays, with a
   NULL block-sums argument at the last level), then added back; the
   input comes through a CL_MEM_USE_HOST_PTR buffer. Checked exactly. */
#include "common.h"

#define GROUP 128

static cl_kernel kscan, kadd;

/* Scans N ints of IN into OUT (device buffers). */
static void scan(cl_mem in, cl_mem out, int n, int *levels) {
  int per_block = 2 * GROUP;
  int blocks = (n + per_block - 1) / per_block;
  size_t local = GROUP, global = (size_t)blocks * GROUP;
  cl_mem sums = NULL, scanned = NULL;
  if (blocks > 1) {
    sums = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * blocks, NULL);
    scanned = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * blocks, NULL);
  }
  ARG(kscan, 0, in); ARG(kscan, 1, out);
  if (sums)
    ARG(kscan, 2, sums);
  else
    CHECK(clSetKernelArg(kscan, 2, sizeof(cl_mem), NULL));
  LOCAL_ARG(kscan, 3, sizeof(int) * per_block); ARG(kscan, 4, n);
  ocl_run(kscan, 1, &global, &local);
  ++*levels;
  if (blocks > 1) {
    scan(sums, scanned, blocks, levels);
    size_t add_global = (size_t)blocks * per_block;
    ARG(kadd, 0, out); ARG(kadd, 1, scanned); ARG(kadd, 2, n);
    ocl_run(kadd, 1, &add_global, &local);
    release_mems(2, sums, scanned);
  }
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 1000000, 1);
  ocl_init("scan", NULL);
  kscan = ocl_kernel("scan_blocks");
  kadd = ocl_kernel("add_block_sums");
  int *data = xmalloc(sizeof(int) * n), *got = xmalloc(sizeof(int) * n),
      *want = xmalloc(sizeof(int) * n);
  for (int i = 0; i < n; ++i)
    data[i] = (i * 131) % 17 - 8;
  cl_mem in = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof(int) * n, data);
  cl_mem out = ocl_buffer(CL_MEM_READ_WRITE, sizeof(int) * n, NULL);
  int levels = 0;
  scan(in, out, n, &levels);
  ocl_read(out, sizeof(int) * n, got);
  for (int i = 0, s = 0; i < n; ++i) {
    want[i] = s;
    s += data[i];
  }
  long bad = compare_ints("scan", got, want, n);
  release_mems(2, in, out);
  release_kernels(2, kscan, kadd);
  return ocl_report(bad, "exclusive scan of %d ints, %d levels", n, levels);
}
