/* A scale-and-offset kernel and a checksum kernel, gated by host events. */
__kernel void scale_offset(__global float *v, float scale, float offset, int n) {
  int i = get_global_id(0);
  if (i < n)
    v[i] = v[i] * scale + offset;
}

__kernel void checksum(__global const float *v, __global uint *sum, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_add(sum, (uint)(v[i] * 16.0f));
}
