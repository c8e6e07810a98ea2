// A store decided by a flag one work-item sets in a __local pointer
// argument before a barrier; its address comes from an input.
__kernel void k(__global float *w, __global const int *t, __local float *s) {
  if (get_local_id(0) == 0)
    s[0] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (s[0] > 0.5f)
    w[get_global_id(0) * 4 + t[get_global_id(0)]] = 2.0f;
}
