// corpus-source: written here for SKMD: memory-access kernels in the shapes bandwidth and transfer samples have (linear float4 reads summed per item, linear writes of a pattern, strided and offset reads, gathers through an index buffer, reads of __constant memory, rectangle copies between pitched buffers, float16 and uchar16 vectors, a read-modify-write in place, a block copy through local memory per group, an unaligned copy through vload4 and vstore4, a byte swap, half-precision loads and stores, a global offset with the ids and sizes read back)
// corpus-run: read_linear4 --global=1024 --local=128 --arg=8*1024 --arg=1024:zero --arg=8
// corpus-run: write_pattern --global=2048 --local=256 --arg=2048*4:zero --arg=4
// corpus-run: read_strided --global=512 --local=64 --arg=512*7 --arg=512:zero --arg=7
// corpus-run: read_offset --global=1000 --local=100 --arg=1100 --arg=1000:zero --arg=37
// corpus-run: gather_index --global=1024 --local=128 --arg=4096 --arg=1024:0..4095 --arg=1024:zero
// corpus-run: read_constant --global=1024 --local=128 --arg=64 --arg=1024:zero --arg=64
// corpus-run: copy_rect --global=48,40 --local=16,8 --arg=80*50 --arg=64*40:zero --arg=80 --arg=64 --arg=5 --arg=3 --arg=48 --arg=40
// corpus-run: float16_axpy --global=256 --local=64 --arg=256 --arg=256 --arg=256:zero --arg=0.75
// corpus-run: bytes16_xor --global=512 --local=64 --arg=512:0..255 --arg=512:zero --arg=90
// corpus-run: scale_in_place --global=4096 --local=256 --arg=4000 --arg=1.5 --arg=-0.25 --arg=4000
// corpus-run: block_through_local --global=2048 --local=256 --arg=2048 --arg=2048:zero
// corpus-run: unaligned_copy4 --global=250 --local=50 --arg=1003 --arg=1000:zero --arg=3
// corpus-run: byte_swap --global=1024 --local=128 --arg=1024:0..2000000000 --arg=1024:zero
// corpus-run: half_round_trip --global=512 --local=64 --arg=512:-100..100 --arg=512:zero --arg=512:zero
// corpus-run: offset_and_dims --global=256,4 --local=64,2 --offset=32,2 --arg=512*8:zero --arg=512
// corpus-note: every kernel here was written for this corpus

// Each item sums `per` float4 elements read linearly (the group's items
// side by side at each step).
__kernel void read_linear4(__global const float4 *in, __global float *out, int per) {
  int i = get_global_id(0), n = get_global_size(0);
  float4 acc = 0.0f;
  for (int k = 0; k < per; ++k)
    acc += in[k * n + i];
  out[i] = acc.x + acc.y + acc.z + acc.w;
}

// A pattern written linearly, `per` values per item.
__kernel void write_pattern(__global uint *out, int per) {
  int i = get_global_id(0), n = get_global_size(0);
  for (int k = 0; k < per; ++k)
    out[k * n + i] = (uint)(i * 2654435761u) ^ (uint)k;
}

// Every stride-th element.
__kernel void read_strided(__global const float *in, __global float *out, int stride) {
  int i = get_global_id(0);
  out[i] = in[i * stride] + in[i * stride + stride - 1];
}

// A copy from an offset (a misaligned start).
__kernel void read_offset(__global const float *in, __global float *out, int offset) {
  int i = get_global_id(0);
  out[i] = in[i + offset];
}

// A gather through an index buffer.
__kernel void gather_index(__global const float *in, __global const int *index,
                           __global float *out) {
  int i = get_global_id(0);
  out[i] = in[index[i]];
}

// Every item reads all of a small __constant table.
__kernel void read_constant(__constant float *table, __global float *out, int n) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += table[(k + i) % n] * (k + 1);
  out[i] = acc;
}

// A width x height rectangle copied between buffers of different row
// pitches, from (sx, sy) of the source to the destination's origin.
__kernel void copy_rect(__global const float *src, __global float *dst, int src_pitch,
                        int dst_pitch, int sx, int sy, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height)
    dst[y * dst_pitch + x] = src[(y + sy) * src_pitch + x + sx];
}

// a * x + y on sixteen lanes per item.
__kernel void float16_axpy(__global const float16 *x, __global const float16 *y,
                           __global float16 *out, float a) {
  int i = get_global_id(0);
  out[i] = a * x[i] + y[i];
}

// Sixteen bytes per item XORed with a key and rotated by lane.
__kernel void bytes16_xor(__global const uchar16 *in, __global uchar16 *out, uchar key) {
  int i = get_global_id(0);
  uchar16 v = in[i] ^ (uchar16)(key);
  out[i] = rotate(v, (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7));
}

// A read-modify-write in place.
__kernel void scale_in_place(__global float *data, float a, float b, int n) {
  int i = get_global_id(0);
  if (i < n)
    data[i] = a * data[i] + b;
}

// Each group's block staged through local memory and stored rotated by
// one item within the block.
__kernel void block_through_local(__global const int *in, __global int *out) {
  __local int block[256];
  int lid = get_local_id(0), size = get_local_size(0);
  block[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = block[(lid + 1) % size];
}

// Four floats per item from a start that is not a multiple of four.
__kernel void unaligned_copy4(__global const float *in, __global float *out, int shift) {
  int i = get_global_id(0);
  vstore4(vload4(0, in + 4 * i + shift), i, out);
}

// The bytes of each word reversed.
__kernel void byte_swap(__global const uint *in, __global uint *out) {
  int i = get_global_id(0);
  uchar4 b = as_uchar4(in[i]);
  out[i] = as_uint(b.wzyx);
}

// Floats stored as halves and read back (rounding to nearest even).
__kernel void half_round_trip(__global const float *in, __global half *packed,
                              __global float *back) {
  int i = get_global_id(0);
  vstore_half_rte(in[i] * 1.1f, i, packed);
  back[i] = vload_half(i, (__global const half *)packed) + in[i];
}

// With a global offset: each item stores where it is, its global and
// local ids and the number of groups.
__kernel void offset_and_dims(__global int *out, int row) {
  int x = get_global_id(0), y = get_global_id(1);
  int at = (y - (int)get_global_offset(1)) * row + x - (int)get_global_offset(0);
  out[at] = (int)get_num_groups(0) * 100000 + x * 100 + y * 10 + (int)get_local_id(1) +
            (int)get_group_id(0) * 1000;
}
