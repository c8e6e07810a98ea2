// Guards on the global id, the comparisons skmd-work-item-loop-versioning
// decides once per row of a group: each kernel is run with groups where
// the guard changes inside the group, where it wraps, and where it holds
// for all items.

// Sobel's borders: equality with the first and last column and row.
__kernel void border_2d(__global const float *in, __global float *out,
                        uint width, uint height) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  uint at = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
    out[at] = -1.0f;
  else
    out[at] = in[at - 1] + in[at + 1] + in[at - width] + in[at + width];
}

// Each guard decides whether a store happens (a branch, not a select).

// An unsigned id that wraps past UINT_MAX inside a group: a guard that is
// true at the group's first and last item is false in between.
__kernel void wrapping_id(__global uint *out, uint start, uint limit) {
  size_t i = get_global_id(0);
  uint x = start + (uint)i;
  if (x < limit)
    out[i] = 1u;
}

// A signed window that starts mid-group: x runs from negative to positive.
__kernel void signed_window(__global int *out, int shift, int n) {
  size_t i = get_global_id(0);
  int x = (int)i - shift;
  if (x >= 0 && x < n)
    out[i] = x;
}

// Strides other than one, a != guard and a 64-bit bound.
__kernel void strided(__global uint *a, __global uint *b, __global uint *c,
                      uint n, ulong bound, uint skip) {
  size_t i = get_global_id(0);
  if (3u * (uint)i < n)
    a[i] = 1;
  if (i != skip)
    b[i] = 10;
  if (i * 5 + 2 <= bound)
    c[i] = 100;
}
