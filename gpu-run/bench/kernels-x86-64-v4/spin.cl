// A kernel whose time is set by its argument: batch-latency's kernel
// pieces (iters dependent FMAs per work-item, one store). Nothing else
// reads it.
__kernel void spin(__global float *out, uint iters) {
  size_t i = get_global_id(0);
  float x = (float)i * 1e-6f, y = 1.0f;
  for (uint k = 0; k < iters; ++k) {
    y = fma(y, 0.9999f, x);
    x = fma(x, 1.0001f, 1e-7f);
  }
  out[i] = x + y;
}
