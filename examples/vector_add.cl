// Element-wise c = a + b. The simplest contiguous kernel: work-group g reads
// and writes exactly the elements [g*L, (g+1)*L).
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
