/* Buffers created and released between launches, as programs with a
   resize step do: each round makes an input (alternately filled by a
   write, a CL_MEM_COPY_HOST_PTR, a CL_MEM_USE_HOST_PTR and a
   write-invalidate map) and an output of a new size, launches on them,
   adds the output into a long-lived total, and releases both; sizes grow
   and shrink. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 50000, 2);
  int rounds = 12;
  ocl_init("buffer_churn", NULL);
  cl_int err;
  cl_kernel ksq = ocl_kernel("square_plus"), kacc = ocl_kernel("accumulate");
  float *zero = calloc(n, sizeof(float));
  cl_mem total = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float) * n, zero);
  double *want = calloc(n, sizeof(double));
  float *host = xmalloc(sizeof(float) * n);
  for (int r = 0; r < rounds; ++r) {
    int size = n / 2 + (int)((long)(n / 2) * ((r * 5) % 7) / 6);
    size_t bytes = sizeof(float) * size;
    fill_random(host, size, 200 + r);
    cl_mem in;
    switch (r % 4) {
    case 0:
      in = ocl_buffer_from(host, bytes);
      break;
    case 1:
      in = ocl_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host);
      break;
    case 2:
      in = ocl_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host);
      break;
    default: {
      in = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
      float *p = clEnqueueMapBuffer(ocl.queue, in, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                    bytes, 0, NULL, NULL, &err);
      CHECK(err);
      memcpy(p, host, bytes);
      CHECK(clEnqueueUnmapMemObject(ocl.queue, in, p, 0, NULL, NULL));
    }
    }
    cl_mem out = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
    float add = (float)r;
    size_t global = round_up(size, 128), local = 128;
    ARG(ksq, 0, in); ARG(ksq, 1, out); ARG(ksq, 2, add); ARG(ksq, 3, size);
    ARG(kacc, 0, total); ARG(kacc, 1, out); ARG(kacc, 2, size);
    ocl_run(ksq, 1, &global, &local);
    ocl_run(kacc, 1, &global, &local);
    /* Released while the launches may still be queued: OpenCL keeps them
       alive until the commands that use them finish. */
    release_mems(2, in, out);
    if (r % 4 == 2)
      CHECK(clFinish(ocl.queue)); /* host is the USE_HOST_PTR buffer's memory */
    for (int i = 0; i < size; ++i)
      want[i] += (double)host[i] * host[i] + add;
  }
  float *got = xmalloc(sizeof(float) * n);
  ocl_read(total, sizeof(float) * n, got);
  long bad = compare_floats("total", got, want, n, 1e-5, 1.0);
  CHECK(clReleaseMemObject(total));
  release_kernels(2, ksq, kacc);
  free(zero);
  return ocl_report(bad, "%d rounds of new buffers, up to %d elements", rounds, n);
}
