/* Kernels for a program that makes new buffers for every launch. */
__kernel void square_plus(__global const float *in, __global float *out, float add, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i] * in[i] + add;
}

__kernel void accumulate(__global float *total, __global const float *part, int n) {
  int i = get_global_id(0);
  if (i < n)
    total[i] += part[i];
}
