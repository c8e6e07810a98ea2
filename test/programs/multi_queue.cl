/* Two independent pipelines: a scaled vector sum and an integer prefix
   step, each on its own queue. */
__kernel void saxpy(__global const float *x, __global float *y, float a, int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] += a * x[i];
}

__kernel void shift_add(__global const int *in, __global int *out, int shift, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i] + (i >= shift ? in[i - shift] : 0);
}
