/* SDK-style bitonic sort: log2(N)(log2(N)+1)/2 launches of one kernel,
   each with new scalar arguments (stage, pass); ascending then descending,
   then a key-value sort whose values must be a permutation that follows
   the keys. Checked exactly. */
#include "common.h"

static int cmp_up(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int requested = ocl_size(argc, argv, 1 << 16, 1);
  int log_n = 1;
  while ((1 << log_n) < requested)
    ++log_n;
  int n = 1 << log_n;
  ocl_init("bitonic", NULL);
  unsigned *keys = xmalloc(sizeof(unsigned) * n), *got = xmalloc(sizeof(unsigned) * n),
           *want = xmalloc(sizeof(unsigned) * n), *values = xmalloc(sizeof(unsigned) * n);
  unsigned seed = 220;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    keys[i] = seed % 100000u;
  }
  cl_mem mkeys = ocl_buffer_from(keys, sizeof(unsigned) * n);
  cl_mem mvalues = ocl_buffer(CL_MEM_READ_WRITE, sizeof(unsigned) * n, NULL);
  cl_kernel kp = ocl_kernel("bitonic_pass"), kkv = ocl_kernel("bitonic_pass_kv"),
            ki = ocl_kernel("iota");
  size_t half = n / 2, local = half < 128 ? half : 128;
  long bad = 0;
  int launches = 0;
  memcpy(want, keys, sizeof(unsigned) * n);
  qsort(want, n, sizeof(unsigned), cmp_up);
  for (cl_uint ascending = 1;; ascending = 0) {
    ARG(kp, 0, mkeys); ARG(kp, 3, ascending);
    for (cl_uint stage = 0; stage < (cl_uint)log_n; ++stage)
      for (cl_uint pass = 0; pass <= stage; ++pass) {
        ARG(kp, 1, stage); ARG(kp, 2, pass);
        ocl_run(kp, 1, &half, &local);
        ++launches;
      }
    ocl_read(mkeys, sizeof(unsigned) * n, got);
    for (int i = 0; i < n; ++i)
      if (got[i] != want[ascending ? i : n - 1 - i]) {
        if (bad < 5)
          fprintf(stderr, "%s[%d]: got %u, want %u\n", ascending ? "up" : "down", i, got[i],
                  want[ascending ? i : n - 1 - i]);
        ++bad;
      }
    if (!ascending)
      break;
  }
  /* Key-value: fresh keys, values 0..n-1 from a kernel. */
  CHECK(clEnqueueWriteBuffer(ocl.queue, mkeys, CL_FALSE, 0, sizeof(unsigned) * n, keys, 0, NULL,
                             NULL));
  size_t all = n;
  CHECK(clSetKernelArg(ki, 0, sizeof mvalues, &mvalues));
  ocl_run(ki, 1, &all, NULL);
  ARG(kkv, 0, mkeys); ARG(kkv, 1, mvalues);
  for (cl_uint stage = 0; stage < (cl_uint)log_n; ++stage)
    for (cl_uint pass = 0; pass <= stage; ++pass) {
      ARG(kkv, 2, stage); ARG(kkv, 3, pass);
      ocl_run(kkv, 1, &half, &local);
      ++launches;
    }
  ocl_read(mkeys, sizeof(unsigned) * n, got);
  ocl_read(mvalues, sizeof(unsigned) * n, values);
  char *seen = calloc(n, 1);
  for (int i = 0; i < n; ++i) {
    int ok = got[i] == want[i] && values[i] < (unsigned)n && !seen[values[i]] &&
             keys[values[i]] == got[i];
    if (!ok) {
      if (bad < 5)
        fprintf(stderr, "kv[%d]: key %u value %u, want key %u\n", i, got[i], values[i], want[i]);
      ++bad;
    }
    if (values[i] < (unsigned)n)
      seen[values[i]] = 1;
  }
  free(seen);
  release_mems(2, mkeys, mvalues);
  release_kernels(3, kp, kkv, ki);
  return ocl_report(bad, "bitonic sort of %d keys, %d launches", n, launches);
}
