// corpus-source: written here for SKMD: kernels in the shapes found in vendor SDK samples and Parboil-like suites (sparse gathers and permuted stores, 3-D stencils through index macros, __constant arrays of structs, local histograms with local and global atomics, local tiles loaded in a loop with barriers, Blelloch scans, typedef'd vector and struct types, uchar4 pixels with saturating conversions, 64-bit integer hashing, a float atomic add built on atomic_cmpxchg)
// corpus-run: spmv_ell --global=1024 --local=64 --arg=1000 --arg=8*1000 --arg=8*1000:0..999 --arg=1000:iota --arg=1000 --arg=1000 --arg=8
// corpus-run: stencil7 --global=32,32,16 --local=16,2,2 --arg=0.5 --arg=0.125 --arg=32*32*16 --arg=32*32*16:zero --arg=32 --arg=32 --arg=16
// corpus-run: compute_q --global=512 --local=64 --arg=64 --arg=500 --arg=500 --arg=500 --arg=500 --arg=500:zero --arg=500:zero --arg=64
// corpus-run: histogram_local --global=4096 --local=128 --arg=4096:0..4000 --arg=64:zero --arg=4096 --arg=512
// corpus-run: pair_histogram --global=512 --local=64 --arg=512 --arg=512 --arg=9:iota --arg=8*8:zero --arg=512
// corpus-run: matmul_tiles --global=80,64 --local=16,16 --arg=64*72 --arg=72*80 --arg=64*80:zero --arg=64 --arg=72 --arg=80
// corpus-run: scan_blelloch --global=1024 --local=128 --arg=2048:0..9 --arg=2048:zero --arg=8:zero --arg=256*4
// corpus-run: bodies_step --global=256 --local=64 --arg=250 --arg=250:zero --arg=0.01 --arg=250
// corpus-run: pixels --global=64,48 --local=16,16 --arg=64*48:0..255 --arg=64*48:zero --arg=1.7 --arg=-20.0 --arg=64 --arg=48
// corpus-run: hash64 --global=2048 --local=64 --arg=2048:zero --arg=123456789 --arg=2000
// corpus-run: float_atomic_sum --global=2048 --local=64 --arg=2048 --arg=1:zero --arg=2048
// corpus-run: row_dot_local --global=64*32 --local=32 --arg=60*100 --arg=100 --arg=60:zero --arg=60 --arg=100
// corpus-run: second_results --global=512 --local=64 --arg=500 --arg=500:zero --arg=500:zero --arg=500:zero --arg=500:zero --arg=500
// corpus-run: signs --global=256 --local=64 --arg=3*1000 --arg=3*1000:zero --arg=1000:zero --arg=1000
// corpus-run: bit_tricks --global=128 --local=64 --arg=100 --arg=100:zero --arg=100:zero --arg=100
// corpus-note: every kernel here was written for this corpus; float_atomic_sum uses what atomic_cmpxchg returns, so its launches are refused a split and run whole

// Sparse matrix (ELL, column-major: entry k of row r at k * rows + r) times
// a vector; the row's result is stored through a permutation.
__kernel void spmv_ell(__global float *dst, __global const float *values,
                       __global const int *cols, __global const int *perm,
                       __global const float *x, int rows, int per_row) {
  int row = get_global_id(0);
  if (row < rows) {
    float sum = 0.0f;
    for (int k = 0; k < per_row; ++k) {
      int at = k * rows + row;
      sum += values[at] * x[cols[at]];
    }
    dst[perm[row]] = sum;
  }
}

#define AT3(nx, ny, i, j, k) ((i) + (nx) * ((j) + (ny) * (k)))

// A 7-point stencil on the interior of an nx x ny x nz grid: the ids start
// one cell in.
__kernel void stencil7(float c0, float c1, __global const float *in, __global float *out,
                       int nx, int ny, int nz) {
  int i = get_global_id(0) + 1;
  int j = get_global_id(1) + 1;
  int k = get_global_id(2) + 1;
  if (i < nx - 1 && j < ny - 1 && k < nz - 1)
    out[AT3(nx, ny, i, j, k)] =
        c1 * (in[AT3(nx, ny, i, j, k + 1)] + in[AT3(nx, ny, i, j, k - 1)] +
              in[AT3(nx, ny, i, j + 1, k)] + in[AT3(nx, ny, i, j - 1, k)] +
              in[AT3(nx, ny, i + 1, j, k)] + in[AT3(nx, ny, i - 1, j, k)]) -
        in[AT3(nx, ny, i, j, k)] * c0;
}

// Reconstruction-style sums over k-space samples held in __constant
// memory as an array of structs.
struct KSample {
  float kx, ky, kz, mag;
};

__kernel void compute_q(int num_k, __global const float *x, __global const float *y,
                        __global const float *z, __constant struct KSample *ks,
                        __global float *qr, __global float *qi, int num_x) {
  int n = get_global_id(0);
  if (n >= num_x)
    return;
  float px = x[n], py = y[n], pz = z[n];
  float r = qr[n], im = qi[n];
  for (int k = 0; k < num_k; ++k) {
    float arg = 6.2831853f * (ks[k].kx * px + ks[k].ky * py + ks[k].kz * pz);
    r += ks[k].mag * cos(arg);
    im += ks[k].mag * sin(arg);
  }
  qr[n] = r;
  qi[n] = im;
}

// Bins counted in local memory by atomic_inc, then added to the global
// bins once per group.
__kernel void histogram_local(__global const uint *values, __global uint *bins, uint n,
                              uint width) {
  __local uint local_bins[64];
  uint lid = get_local_id(0);
  for (uint b = lid; b < 64; b += get_local_size(0))
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint i = get_global_id(0);
  if (i < n)
    atomic_inc(&local_bins[(values[i] / (width / 8)) % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 64; b += get_local_size(0))
    if (local_bins[b])
      atomic_add(&bins[b], local_bins[b]);
}

// Pairs of points, tiles of them loaded into local memory in a loop with
// barriers inside; each distance binned by a binary search over __constant
// bounds; a group's histogram stored in its own row.
typedef struct {
  float x, y, z;
} Point;

__kernel void pair_histogram(__global const Point *a, __global const Point *b,
                             __constant float *bounds, __global uint *hist, int n) {
  __local Point tile[64];
  __local uint local_hist[8];
  int lid = get_local_id(0);
  if (lid < 8)
    local_hist[lid] = 0;
  Point me = a[min((int)get_global_id(0), n - 1)];
  for (int start = 0; start < n; start += 64) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (start + lid < n)
      tile[lid] = b[start + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < 64 && start + t < n; ++t) {
      float dx = me.x - tile[t].x, dy = me.y - tile[t].y, dz = me.z - tile[t].z;
      float d = 8.0f * (dx * dx + dy * dy + dz * dz) / 3.0f;
      int lo = 0, hi = 8;
      while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (d >= bounds[mid])
          lo = mid;
        else
          hi = mid;
      }
      if ((int)get_global_id(0) < n)
        atomic_inc(&local_hist[lo]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8)
    hist[get_group_id(0) * 8 + lid] = local_hist[lid];
}

// C = A B with 16 x 16 tiles of both in local memory, the K loop with its
// barriers; sizes that are not multiples of the tile.
#define TILE 16
__kernel void matmul_tiles(__global const float *a, __global const float *b, __global float *c,
                           int m, int k, int n) {
  __local float as[TILE][TILE];
  __local float bs[TILE][TILE];
  int col = get_global_id(0), row = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  float sum = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + lx, bk = t * TILE + ly;
    as[ly][lx] = (row < m && ak < k) ? a[row * k + ak] : 0.0f;
    bs[ly][lx] = (bk < k && col < n) ? b[bk * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < TILE; ++e)
      sum += as[ly][e] * bs[e][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n)
    c[row * n + col] = sum;
}

// A work-efficient exclusive scan of each group's 2 x 128 values (up-sweep
// and down-sweep with barriers in both loops); each group's total stored.
__kernel void scan_blelloch(__global const int *in, __global int *out, __global int *sums,
                            __local int *temp) {
  int lid = get_local_id(0), n = 2 * get_local_size(0);
  int base = get_group_id(0) * n;
  temp[2 * lid] = in[base + 2 * lid] ;
  temp[2 * lid + 1] = in[base + 2 * lid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (lid == 0) {
    sums[get_group_id(0)] = temp[n - 1];
    temp[n - 1] = 0;
  }
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = temp[2 * lid];
  out[base + 2 * lid + 1] = temp[2 * lid + 1];
}

// Bodies as a typedef'd struct of typedef'd vectors.
typedef float4 real4;
typedef struct {
  real4 pos;
  real4 vel;
} Body;

__kernel void bodies_step(__global const Body *now, __global Body *next, float dt, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  real4 p = now[i].pos, acc = (real4)(0.0f);
  for (int j = 0; j < n; ++j) {
    real4 d = now[j].pos - p;
    d.w = 0.0f;
    float inv = rsqrt(dot(d, d) + 0.01f);
    acc += d * (now[j].pos.w * inv * inv * inv);
  }
  Body b;
  b.vel = now[i].vel + acc * dt;
  b.pos = p + b.vel * dt;
  b.pos.w = p.w;
  next[i] = b;
}

// Contrast and brightness on uchar4 pixels through float4 and back,
// saturated.
__kernel void pixels(__global const uchar4 *in, __global uchar4 *out, float gain, float bias,
                     int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height) {
    float4 v = convert_float4(in[y * width + x]) * gain + bias;
    out[y * width + x] = convert_uchar4_sat_rte(v);
  }
}

// A 64-bit hash of each index (splitmix64), rotated and folded.
__kernel void hash64(__global ulong *out, ulong seed, uint n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  ulong z = seed + (ulong)i * 0x9E3779B97F4A7C15UL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  z ^= z >> 31;
  out[i] = rotate(z, (ulong)(i & 63)) ^ (z >> 7);
}

// The float atomic add written with atomic_cmpxchg in a loop, as programs
// without float atomics do: the returned value is used, so the kernel is
// run whole.
void atomic_add_float(volatile __global float *at, float v) {
  union {
    unsigned int u;
    float f;
  } old, want;
  do {
    old.f = *at;
    want.f = old.f + v;
  } while (atomic_cmpxchg((volatile __global unsigned int *)at, old.u, want.u) != old.u);
}

__kernel void float_atomic_sum(__global const float *in, __global float *sum, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_add_float(sum, floor(in[i] * 8.0f));
}

// One row per group: the group's items stride along the row and reduce
// their partial sums in local memory (a barrier in the loop).
__kernel void row_dot_local(__global const float *a, __global const float *x,
                            __global float *y, int rows, int cols) {
  __local float part[32];
  int row = get_group_id(0), lid = get_local_id(0);
  float s = 0.0f;
  if (row < rows)
    for (int c = lid; c < cols; c += get_local_size(0))
      s += a[row * cols + c] * x[c];
  part[lid] = s;
  for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      part[lid] += part[lid + stride];
  }
  if (lid == 0 && row < rows)
    y[row] = part[0];
}

// Math builtins' second results stored straight into buffers.
__kernel void second_results(__global const float *x, __global float *s, __global float *c,
                             __global float *whole, __global int *exps, int n) {
  int i = get_global_id(0);
  if (i < n) {
    s[i] = sincos(x[i], &c[i]);
    float m = frexp(fract(x[i] * 37.0f, &whole[i]) + 1.0f, exps + i);
    s[i] += m;
  }
}

// Relational builtins on vectors, reduced by any() and all(), with 3-lane
// loads and stores; grid-stride loops over the rest.
__kernel void signs(__global const float *in, __global float *out, __global int *flags, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    float3 v = vload3(i, in);
    int3 low = isless(v, (float3)(0.25f));
    float3 r = select(v, -v, low);
    flags[i] = any(low) * 10 + all(isgreater(v, (float3)(0.1f))) + any((int4)(low, 0)) * 100;
    vstore3(r * (any(v > 0.9f) ? 2.0f : 1.0f), i, out);
  }
}

// OpenCL 2.0's ctz on 64-bit vectors and nan() of vectors of codes, with
// the other integer builtins around them.
__kernel void bit_tricks(__global const long2 *in, __global long2 *out, __global float4 *nans,
                         int n) {
  int i = get_global_id(0);
  if (i < n) {
    long2 x = in[i] | (long2)(1L << 40, 1L << 3);
    out[i] = ctz(x) * 1000 + clz(x) * 10 + popcount(x) + rotate(x, (long2)(5));
    float4 q = nan((uint4)(i, 1, 2, 3));
    nans[i] = select((float4)(1.0f), (float4)(2.0f), isnan(q)) + (float4)(ctz(i | 256));
  }
}
