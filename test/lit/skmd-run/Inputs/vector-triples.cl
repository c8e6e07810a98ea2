// vload3/vstore3 of several element types: work-item i reads and writes
// elements [3i, 3i + 3), so buffers of exactly 3 * n elements suffice.
__kernel void triples(__global const uchar *a, __global uchar *b,
                      __global const short *c, __global short *d,
                      __global const float *x, __global float *y,
                      __global const double *u, __global double *v) {
  size_t i = get_global_id(0);
  vstore3(vload3(i, a) + (uchar3)(1, 2, 3), i, b);
  vstore3(vload3(i, c) * (short)3, i, d);
  vstore3(vload3(i, x).zxy, i, y);
  vstore3(vload3(i, u) * 0.5, i, v);
}

// Pairs of floats and halves: 8 and 4 bytes a work-item.
__kernel void pairs(__global const float *x, __global float *y,
                    __global half *h) {
  size_t i = get_global_id(0);
  float2 p = vload2(i, x);
  vstore2(p.yx, i, y);
  vstore_half2(p, i, h);
}
