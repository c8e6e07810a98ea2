/* SDK-style histogram: global atomics, then local atomics merged into
   global bins; the bins are cleared by a kernel between runs and checked
   exactly, for a skewed and a uniform input. */
#include "common.h"

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 1 << 20, 1);
  ocl_init("histogram", NULL);
  unsigned char *data = xmalloc(n);
  unsigned seed = 170;
  cl_mem mdata = ocl_buffer(CL_MEM_READ_WRITE, n, NULL);
  cl_mem mbins = ocl_buffer(CL_MEM_READ_WRITE, 256 * sizeof(unsigned), NULL);
  cl_kernel kg = ocl_kernel("histogram_global"), kl = ocl_kernel("histogram_local"),
            kc = ocl_kernel("clear_bins");
  ARG(kg, 0, mdata); ARG(kg, 1, mbins); ARG(kg, 2, n);
  ARG(kl, 0, mdata); ARG(kl, 1, mbins); LOCAL_ARG(kl, 2, 256 * sizeof(unsigned)); ARG(kl, 3, n);
  ARG(kc, 0, mbins);
  long bad = 0;
  for (int input = 0; input < 2; ++input) {
    for (int i = 0; i < n; ++i) {
      float r = rand01(&seed);
      data[i] = input == 0 ? (unsigned char)(r * r * r * 256.0f) : (unsigned char)(r * 256.0f);
    }
    CHECK(clEnqueueWriteBuffer(ocl.queue, mdata, CL_TRUE, 0, n, data, 0, NULL, NULL));
    int want[256] = {0}, got[256];
    for (int i = 0; i < n; ++i)
      ++want[data[i]];
    size_t bins = 256, global = 64 * 256, local = 64;
    ocl_run(kc, 1, &bins, NULL);
    ocl_run(kg, 1, &global, &local);
    ocl_read(mbins, sizeof got, got);
    bad += compare_ints("global-atomic bins", got, want, 256);
    ocl_run(kc, 1, &bins, NULL);
    ocl_run(kl, 1, &global, &local);
    ocl_read(mbins, sizeof got, got);
    bad += compare_ints("local-atomic bins", got, want, 256);
  }
  release_mems(2, mdata, mbins);
  release_kernels(3, kg, kl, kc);
  return ocl_report(bad, "histogram of %d bytes, 2 inputs x 2 kernels", n);
}
