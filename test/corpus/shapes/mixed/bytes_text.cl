// corpus-source: written here for SKMD: byte and text kernels in the shapes public code has (a key search by digest with the smallest finder kept by atomic_min, pattern matches against a pattern in __constant memory, character classes counted in local memory, a TEA block cipher on uint2, Bloom-filter membership tests, base64 encoding through a __constant alphabet, runs counted per block, Adler-32 per block, fixed-width decimal fields parsed)
// corpus-run: digest_search --global=4096 --local=128 --arg=1:2147483647 --arg=1540483477 --arg=4096
// corpus-run: pattern_matches --global=1024 --local=128 --arg=1030:0..3 --arg=6:0..3 --arg=1024:zero --arg=6 --arg=1024
// corpus-run: char_classes --global=2048 --local=256 --arg=2048:0..127 --arg=8*4:zero --arg=2048
// corpus-run: tea_encrypt --global=512 --local=64 --arg=512 --arg=512:zero --arg=19088743,2309737967,4275878552,1985229328
// corpus-run: bloom_lookup --global=1024 --local=128 --arg=1024:0..100000 --arg=256 --arg=1024:zero --arg=8192
// corpus-run: base64_encode --global=256 --local=64 --arg=3*256:0..255 --arg=64:0..255 --arg=4*256:zero
// corpus-run: count_runs --global=512 --local=64 --arg=512*32:0..2 --arg=512:zero --arg=32
// corpus-run: adler32_blocks --global=128 --local=32 --arg=128*256:0..255 --arg=128:zero --arg=256
// corpus-run: parse_fields --global=512 --local=64 --arg=512*8:48..57 --arg=512:zero
// corpus-note: every kernel here was written for this corpus

// FNV-1a of a 4-byte key.
inline uint fnv1a(uint key) {
  uint h = 2166136261u;
  for (int b = 0; b < 4; ++b) {
    h ^= (key >> (8 * b)) & 0xFF;
    h *= 16777619u;
  }
  return h;
}

// Every key whose hash has the target's low 12 bits: the smallest such
// key is kept (atomic_min, so the answer does not depend on the order).
__kernel void digest_search(__global int *found, uint target, int keys) {
  int k = get_global_id(0);
  if (k < keys && (fnv1a(k) & 0xFFF) == (target & 0xFFF))
    atomic_min(found, k);
}

// Where the pattern starts in the text.
__kernel void pattern_matches(__global const uchar *text, __constant uchar *pattern,
                              __global uchar *match, int len, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  int ok = 1;
  for (int k = 0; k < len && ok; ++k)
    ok = text[i + k] == pattern[k];
  match[i] = ok;
}

// Letters, digits, spaces and others counted per group in local memory.
__kernel void char_classes(__global const uchar *text, __global uint *counts, int n) {
  __local uint c[4];
  int lid = get_local_id(0), i = get_global_id(0);
  if (lid < 4)
    c[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) {
    uchar ch = text[i];
    int cls = ((ch | 32) >= 'a' && (ch | 32) <= 'z') ? 0 : (ch >= '0' && ch <= '9') ? 1
              : ch == ' '                              ? 2
                                                       : 3;
    atomic_inc(&c[cls]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 4)
    counts[get_group_id(0) * 4 + lid] = c[lid];
}

// TEA: 32 rounds of the Feistel network on each 64-bit block.
__kernel void tea_encrypt(__global const uint2 *in, __global uint2 *out, uint4 key) {
  int i = get_global_id(0);
  uint v0 = in[i].x, v1 = in[i].y, sum = 0;
  for (int r = 0; r < 32; ++r) {
    sum += 0x9E3779B9u;
    v0 += ((v1 << 4) + key.x) ^ (v1 + sum) ^ ((v1 >> 5) + key.y);
    v1 += ((v0 << 4) + key.z) ^ (v0 + sum) ^ ((v0 >> 5) + key.w);
  }
  out[i] = (uint2)(v0, v1);
}

// Bloom-filter membership: three hashes of the key must all find their
// bits set.
__kernel void bloom_lookup(__global const uint *keys, __global const uint *bits,
                           __global uchar *present, uint nbits) {
  int i = get_global_id(0);
  uint k = keys[i];
  uchar all = 1;
  for (uint s = 0; s < 3; ++s) {
    uint h = (k * (0x9E3779B1u + 2 * s)) ^ (k >> (7 + s));
    h %= nbits;
    all &= (bits[h / 32] >> (h % 32)) & 1;
  }
  present[i] = all;
}

// Three bytes to four characters of a 64-character alphabet.
__kernel void base64_encode(__global const uchar *in, __constant uchar *alphabet,
                            __global uchar *out) {
  int i = get_global_id(0);
  uint v = (uint)in[3 * i] << 16 | (uint)in[3 * i + 1] << 8 | in[3 * i + 2];
  for (int k = 0; k < 4; ++k)
    out[4 * i + k] = alphabet[(v >> (18 - 6 * k)) & 63];
}

// The number of runs of equal bytes in each block.
__kernel void count_runs(__global const uchar *data, __global int *runs, int block) {
  int b = get_global_id(0);
  __global const uchar *p = data + b * block;
  int r = 1;
  for (int k = 1; k < block; ++k)
    r += p[k] != p[k - 1];
  runs[b] = r;
}

// Adler-32 of each block.
__kernel void adler32_blocks(__global const uchar *data, __global uint *sums, int block) {
  int b = get_global_id(0);
  uint a = 1, s = 0;
  for (int k = 0; k < block; ++k) {
    a = (a + data[b * block + k]) % 65521u;
    s = (s + a) % 65521u;
  }
  sums[b] = (s << 16) | a;
}

// Fixed-width fields of eight ASCII digits to integers.
__kernel void parse_fields(__global const uchar *text, __global int *values) {
  int i = get_global_id(0);
  int v = 0;
  for (int k = 0; k < 8; ++k)
    v = v * 10 + (text[8 * i + k] - '0');
  values[i] = v;
}
