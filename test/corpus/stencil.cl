// 1-D stencils: a fixed 3-point one and one with a radius argument.
__kernel void blur3(__global const float *in, __global float *out) {
  size_t i = get_global_id(0) + 1;
  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

__kernel void blur_radius(__global const float *in, __global float *out, int r) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k <= 2 * r; ++k)
    s += in[i + k];
  out[i] = s / (2 * r + 1);
}
