// Uniform floats in [0, 1) from one MT19937 generator per work-item.
//
// Work-item gid seeds a full MT19937 (Matsumoto and Nishimura's
// init_genrand, the seeding of C++'s std::mt19937) with seed + gid, and
// draws per_item numbers: the standard generator's outputs, so that the host
// checks them bit for bit against std::mt19937. (NVIDIA's SDK sample runs
// MT607 with per-thread parameters from the dynamic creator; MT19937 with
// distinct seeds needs no parameter tables, at the cost of a 624-word state
// per work-item in private memory.)
//
// The state is twisted one word per draw instead of 624 words at a time:
// word i then sees words i + 1 and i + 397 (mod 624) exactly as the block
// twist has them, so the outputs are the same, and a work-item that draws
// few numbers does no more work than it needs.
//
// Group g writes the per_item * local_size numbers from
// g * local_size * per_item on, draw k of work-item l at k * local_size + l,
// so that neighbouring work-items write neighbouring floats. Numbers at n
// and beyond are drawn and dropped.
#define MT_N 624
#define MT_M 397

__kernel void mersenne_twister(__global float *out, uint seed, uint per_item,
                               uint n) {
  uint mt[MT_N];
  mt[0] = seed + (uint)get_global_id(0);
  for (uint i = 1; i < MT_N; ++i)
    mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;

  uint lsize = get_local_size(0);
  size_t first = (size_t)get_group_id(0) * lsize * per_item + get_local_id(0);
  uint i = 0;
  for (uint k = 0; k < per_item; ++k) {
    uint next = i + 1 == MT_N ? 0 : i + 1;
    uint far = i < MT_N - MT_M ? i + MT_M : i + MT_M - MT_N;
    uint y = (mt[i] & 0x80000000u) | (mt[next] & 0x7fffffffu);
    y = mt[far] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    mt[i] = y;
    i = next;
    // Tempering.
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    size_t at = first + (size_t)k * lsize;
    // The top 24 bits: every value k / 2^24 exactly, 1 never.
    if (at < n)
      out[at] = (float)(y >> 8) * 0x1.0p-24f;
  }
}
