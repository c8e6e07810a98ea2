// Kernels whose groups the compiler cannot prove independent; the
// runtime tests each split at launch (test/lit/skmd-run/launch-test.test).
// each work-item updates only column j of a matrix
__kernel void column_update(__global float *a, int n) {
  int j = get_global_id(0);
  if (j < n)
    for (int i = 1; i < n; ++i)
      a[i * n + j] = a[(i - 1) * n + j] * 0.5f + a[i * n + j];
}
// write row i, read row i-1, i a scalar argument
__kernel void row_step(__global float *a, int n, int i) {
  int j = get_global_id(0);
  if (j < n)
    a[i * n + j] = a[(i - 1) * n + j] + 1.0f;
}
// write rows > t, read row t
__kernel void eliminate(__global float *a, int n, int t) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row > t && col < n && row < n)
    a[row * n + col] -= a[t * n + col] * 0.5f;
}
// each group writes its own tile, reads a tile no group writes (blocked LU perimeter-ish)
__kernel void tile_from_diag(__global float *a, int n, int k) {
  int bx = get_group_id(0) + k + 1;   // tiles right of the diagonal block k
  int tx = get_local_id(0), ty = get_local_id(1);
  float d = a[(k * 16 + ty) * n + k * 16 + tx];
  a[(k * 16 + ty) * n + bx * 16 + tx] += d;
}
// reads its neighbours, which other groups write: a race, never split
__kernel void in_place(__global float *x) {
  size_t i = get_global_id(0) + 1;
  x[i] = x[i - 1] + x[i + 1];
}

// A wavefront over 16x16 blocks (Needleman-Wunsch's shape): group g fills
// block (d - g, g) of anti-diagonal d from the row above and the column to
// its left, in triangular sweeps (`if (tx <= m)`). Unguarded, the second
// sweep's reads reach the block that the next group writes; the guard
// couples tx and m, so only taking tx a value at a time keeps them apart.
__kernel void wavefront(__global int *s, int cols, int d) {
  int bx = get_group_id(0), tx = get_local_id(0);
  int index = cols * 16 * (d - bx) + 16 * bx + tx + cols + 1;
  for (int m = 0; m < 16; m++) {
    if (tx <= m) {
      int x = index + (m - tx) * cols;
      s[x] = max(s[x - cols - 1] + 1, max(s[x - 1], s[x - cols]) - 2);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  for (int m = 14; m >= 0; m--) {
    if (tx <= m) {
      int x = index + (m - tx) * cols + (cols + 1) * (15 - m);
      s[x] = max(s[x - cols - 1] + 1, max(s[x - 1], s[x - cols]) - 2);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
