// out = transpose(in) for a row-major width x height matrix of floats. A
// 32x8 work-group moves one 32x32 block: it reads rows of the block from
// `in` and writes rows of the transposed block to `out`, so both sides are
// read and written along rows. The +1 column keeps the column reads of the
// tile off a single __local memory bank. width and height must be multiples
// of TILE.
#define TILE 32
#define ROWS 8

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose(__global const float *in, __global float *out, uint width,
               uint height) {
  __local float tile[TILE][TILE + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint x = get_group_id(0) * TILE + lx;
  uint y = get_group_id(1) * TILE + ly;
  for (uint j = 0; j < TILE; j += ROWS)
    tile[ly + j][lx] = in[(y + j) * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  // The block's place in `out`: group (gx, gy) writes block (gy, gx).
  x = get_group_id(1) * TILE + lx;
  y = get_group_id(0) * TILE + ly;
  for (uint j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[lx][ly + j];
}
