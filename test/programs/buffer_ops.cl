/* Kernels run on sub-buffers and on rectangles copied between buffers. */
__kernel void add_index(__global int *v, int base, int n) {
  int i = get_global_id(0);
  if (i < n)
    v[i] += base + i;
}

__kernel void row_sums(__global const int *m, __global int *sums, int width, int height) {
  int y = get_global_id(0);
  if (y < height) {
    int s = 0;
    for (int x = 0; x < width; ++x)
      s += m[y * width + x];
    sums[y] = s;
  }
}
