/* Matrix transpose: a naive kernel and a tiled one that stages a tile in
   padded local memory so both the reads and the writes are row-wise. */
#define TILE 16

__kernel void transpose_naive(__global const float *in, __global float *out, int width,
                              int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}

__kernel void transpose_tiled(__global const float *in, __global float *out, int width,
                              int height, __local float *tile) {
  int tx = get_local_id(0), ty = get_local_id(1);
  int x = get_group_id(0) * TILE + tx, y = get_group_id(1) * TILE + ty;
  if (x < width && y < height)
    tile[ty * (TILE + 1) + tx] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * TILE + tx, oy = get_group_id(0) * TILE + ty;
  if (ox < height && oy < width)
    out[oy * height + ox] = tile[tx * (TILE + 1) + ty];
}
