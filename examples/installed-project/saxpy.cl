// y = a*x + y, the kernel of examples/installed-project: compiled into a
// bundle by the installed skmd-cc at build time.
__kernel void saxpy(__global const float *x, __global float *y, float a,
                    uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
