// Issue 19 item 1: a barrier in a uniform loop around a divergent if that
// holds an inner loop (LU factorisation's shape).
__kernel void k(__global float *a) {
  int tx = get_local_id(0);
  for (int i = 0; i < 3; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++) a[tx * 16 + i] += 1.0f;
      a[tx * 16 + i] *= 0.5f;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
