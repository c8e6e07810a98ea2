// corpus-source: written here for SKMD: work-group copies as SDK samples use them to stage tiles (async_work_group_copy and the strided form, both directions, int, float4 and uchar elements, 1-D and 2-D groups, prefetch)
// corpus-run: staged_reverse --global=1024 --local=64 --arg=1024 --arg=2048:zero
// corpus-run: tile2d --global=64,32 --local=16,8 --arg=64*32 --arg=64*32:zero --arg=64
// corpus-run: bytes_gather --global=1024 --local=128 --arg=8*128*8 --arg=1024:zero --arg=8
// corpus-note: every kernel here was written for this corpus

// A group's tile in, reversed, and out to every other element of the
// group's part of out.
__kernel void staged_reverse(__global const int *in, __global int *out) {
  __local int tile[64];
  __local int reversed[64];
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  reversed[l] = tile[n - 1 - l] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + 2 * g * n, reversed, n, 2, 0);
  wait_group_events(1, &e);
}

// 8 rows of 16 float4 staged with one copy per row, read mirrored.
__kernel void tile2d(__global const float4 *in, __global float4 *out, int width) {
  __local float4 rows[16 * 8];
  int gx = get_group_id(0), gy = get_group_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  event_t e = 0;
  for (int r = 0; r < 8; ++r)
    e = async_work_group_copy(rows + r * 16, in + (gy * 8 + r) * width + gx * 16, 16, e);
  wait_group_events(1, &e);
  float4 v = rows[ly * 16 + (15 - lx)];
  out[(gy * 8 + ly) * width + gx * 16 + lx] = v * 0.5f;
}

// A column of bytes gathered with a stride.
__kernel void bytes_gather(__global const uchar *in, __global uchar *out, int stride) {
  __local uchar col[128];
  event_t e = async_work_group_strided_copy(col, in + get_group_id(0), 128, stride, 0);
  wait_group_events(1, &e);
  prefetch(in, 16);
  out[get_global_id(0)] = col[127 - get_local_id(0)] + 1;
}
