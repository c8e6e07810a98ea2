// corpus-source: written here for SKMD: dense matrix kernels in the shapes public suites and SDK samples have (naive and tiled products, float4 blocks per work-item, padded local tiles for transposes, matrix-vector products by rows and by columns, elimination steps with a pivot row read by every group, a one-group block factorisation, Floyd-Warshall passes, triangular and diagonal masks, batched products over a 3-D range, doubles, row-wise softmax)
// corpus-run: matmul_naive --global=48,64 --local=16,16 --arg=60*35 --arg=35*40 --arg=60*40:zero --arg=60 --arg=40 --arg=35
// corpus-run: matmul_float4_blocks --global=16,16 --local=8,8 --arg=1024 --arg=1024 --arg=1024:zero --arg=64 --arg=64
// corpus-run: matvec_x_staged --global=256 --local=64 --arg=200*90 --arg=90 --arg=200:zero --arg=200 --arg=90 --arg=64*4
// corpus-run: matvec_transposed --global=128 --local=32 --arg=70*100 --arg=70 --arg=100:zero --arg=70 --arg=100
// corpus-run: transpose_padded_tile --global=64,48 --local=16,16 --arg=40*60 --arg=60*40:zero --arg=40 --arg=60
// corpus-run: transpose_padded_tile --global=128,16 --local=16,16 --arg=9*123 --arg=123*9:zero --arg=9 --arg=123
// corpus-run: outer_update --global=64,64 --local=8,8 --arg=50*60 --arg=50 --arg=60 --arg=50*60:zero --arg=-0.5 --arg=50 --arg=60
// corpus-run: pivot_multipliers --global=128 --local=32 --arg=100*100:1..3 --arg=100:zero --arg=100 --arg=7
// corpus-run: eliminate_rows --global=112,112 --local=16,16 --arg=100*100:1..3 --arg=100 --arg=100 --arg=100 --arg=7
// corpus-run: lu_block_in_group --global=16 --local=16 --arg=48*48:1..2 --arg=48 --arg=16
// corpus-run: floyd_pass --global=80,80 --local=16,16 --arg=80*80:1..50 --arg=80*80:zero --arg=80*80:zero --arg=80 --arg=13
// corpus-run: triangular_matvec --global=160 --local=32 --arg=150*150 --arg=150 --arg=150:zero --arg=150
// corpus-run: keep_upper --global=64,64 --local=16,16 --arg=64*64 --arg=64*64:zero --arg=64 --arg=1
// corpus-run: keep_upper --global=64,64 --local=16,16 --arg=64*64 --arg=64*64:zero --arg=64 --arg=0
// corpus-run: diagonal_set --global=96,96 --local=16,16 --arg=90*90:zero --arg=90 --arg=90 --arg=0.0 --arg=2.5
// corpus-run: diagonal_gather --global=128 --local=64 --arg=100*120 --arg=100:zero --arg=100 --arg=120 --arg=3
// corpus-run: batched_4x4 --global=4,4,50 --local=4,4,2 --arg=50*16 --arg=50*16 --arg=50*16:zero
// corpus-run: gemm_double --global=32,32 --local=8,8 --arg=30*20 --arg=20*28 --arg=30*28 --arg=1.5 --arg=-0.25 --arg=30 --arg=28 --arg=20
// corpus-run: syrk_lower --global=64,64 --local=16,16 --arg=60*30 --arg=60*60:zero --arg=60 --arg=30
// corpus-run: kron --global=24,30 --local=8,10 --arg=4*5 --arg=6*6 --arg=24*30:zero --arg=4 --arg=5 --arg=6 --arg=6
// corpus-run: softmax_rows --global=40*64 --local=64 --arg=40*300 --arg=40*300:zero --arg=300
// corpus-run: column_blocks_set --global=128,4 --local=64,1 --arg=100*7:zero --arg=100 --arg=7 --arg=100 --arg=1.0 --arg=0.5
// corpus-note: every kernel here was written for this corpus; most sizes are not multiples of the groups, so the guards cut the last groups; lu_block_in_group is one group by design

// C = A B, one work-item per element of C.
__kernel void matmul_naive(__global const float *a, __global const float *b, __global float *c,
                           int m, int n, int k) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int e = 0; e < k; ++e)
    acc = mad(a[row * k + e], b[e * n + col], acc);
  c[row * n + col] = acc;
}

// C = A B where each work-item computes a 4 x 4 block of C: rows of A and
// B are read four floats at a time. Sizes are multiples of 4.
__kernel void matmul_float4_blocks(__global const float4 *a, __global const float4 *b,
                                   __global float4 *c, int k, int n) {
  int bx = get_global_id(0), by = get_global_id(1);
  int ka = k / 4, nb = n / 4;
  float4 s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  for (int i = 0; i < k; i += 4) {
    float4 b0 = b[(i + 0) * nb + bx], b1 = b[(i + 1) * nb + bx];
    float4 b2 = b[(i + 2) * nb + bx], b3 = b[(i + 3) * nb + bx];
    float4 a0 = a[(4 * by + 0) * ka + i / 4], a1 = a[(4 * by + 1) * ka + i / 4];
    float4 a2 = a[(4 * by + 2) * ka + i / 4], a3 = a[(4 * by + 3) * ka + i / 4];
    s0 += a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
    s1 += a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
    s2 += a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
    s3 += a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
  }
  c[(4 * by + 0) * nb + bx] = s0;
  c[(4 * by + 1) * nb + bx] = s1;
  c[(4 * by + 2) * nb + bx] = s2;
  c[(4 * by + 3) * nb + bx] = s3;
}

// y = A x, one row per work-item; x is brought into local memory a group's
// width at a time (the local buffer is an argument).
__kernel void matvec_x_staged(__global const float *a, __global const float *x,
                              __global float *y, int rows, int cols, __local float *xs) {
  int row = get_global_id(0), lid = get_local_id(0), width = get_local_size(0);
  float acc = 0.0f;
  for (int base = 0; base < cols; base += width) {
    if (base + lid < cols)
      xs[lid] = x[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    int count = min(width, cols - base);
    if (row < rows)
      for (int j = 0; j < count; ++j)
        acc += a[row * cols + base + j] * xs[j];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < rows)
    y[row] = acc;
}

// y = A^T x with A rows x cols: one column per work-item, so neighbouring
// items read neighbouring elements.
__kernel void matvec_transposed(__global const float *a, __global const float *x,
                                __global float *y, int rows, int cols) {
  int col = get_global_id(0);
  if (col >= cols)
    return;
  float acc = 0.0f;
  for (int r = 0; r < rows; ++r)
    acc += a[r * cols + col] * x[r];
  y[col] = acc;
}

// out = in^T for in rows x cols through a 16 x 17 tile (the extra column
// keeps the column reads apart).
__kernel void transpose_padded_tile(__global const float *in, __global float *out, int rows,
                                    int cols) {
  __local float tile[16][17];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
  if (gy + ly < rows && gx + lx < cols)
    tile[ly][lx] = in[(gy + ly) * cols + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = gy + lx, oy = gx + ly;
  if (oy < cols && ox < rows)
    out[oy * rows + ox] = tile[lx][ly];
}

// out = A + alpha x y^T.
__kernel void outer_update(__global const float *a, __global const float *x,
                           __global const float *y, __global float *out, float alpha, int rows,
                           int cols) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < rows && j < cols)
    out[i * cols + j] = a[i * cols + j] + alpha * x[i] * y[j];
}

// Step k of Gaussian elimination, first half: the multipliers of the rows
// below the pivot.
__kernel void pivot_multipliers(__global const float *a, __global float *mult, int n, int k) {
  int i = get_global_id(0) + k + 1;
  if (i < n)
    mult[i] = a[i * n + k] / a[k * n + k];
}

// Step k, second half, in place: rows below the pivot lose a multiple of
// the pivot row, which every group reads and none writes; b likewise.
__kernel void eliminate_rows(__global float *a, __global float *b, __global const float *mult,
                             int n, int k) {
  int j = get_global_id(0) + k, i = get_global_id(1) + k + 1;
  if (i >= n || j >= n)
    return;
  a[i * n + j] -= mult[i] * a[k * n + j];
  if (j == k)
    b[i] -= mult[i] * b[k];
}

// LU factorisation (no pivoting) of the leading bs x bs block of an n x n
// matrix by one group: the block in local memory, a barrier per step.
__kernel void lu_block_in_group(__global float *a, int n, int bs) {
  __local float blk[16][16];
  int t = get_local_id(0);
  for (int r = 0; r < bs; ++r)
    blk[r][t] = a[r * n + t];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < bs - 1; ++k) {
    if (t > k)
      blk[t][k] /= blk[k][k];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t > k)
      for (int r = k + 1; r < bs; ++r)
        blk[r][t] -= blk[r][k] * blk[k][t];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < bs; ++r)
    a[r * n + t] = blk[r][t];
}

// Pass k of Floyd-Warshall: shortest distances through node k, and the
// node each path now goes through.
__kernel void floyd_pass(__global const uint *dist, __global uint *next_dist, __global uint *via,
                         int n, int k) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= n)
    return;
  uint direct = dist[i * n + j];
  uint through = dist[i * n + k] + dist[k * n + j];
  next_dist[i * n + j] = min(direct, through);
  via[i * n + j] = through < direct ? (uint)k : (uint)j;
}

// y = U x with U the upper triangle of an n x n matrix: the loop starts on
// the diagonal.
__kernel void triangular_matvec(__global const float *u, __global const float *x,
                                __global float *y, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int j = i; j < n; ++j)
    acc += u[i * n + j] * x[j];
  y[i] = acc;
}

// The upper (or lower) triangle of a matrix, zeros elsewhere.
__kernel void keep_upper(__global const float *in, __global float *out, int n, int upper) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= n)
    return;
  bool keep = upper ? j >= i : j <= i;
  out[i * n + j] = keep ? in[i * n + j] : 0.0f;
}

// Fills a rows x cols matrix with off on the off-diagonal and on on the
// diagonal.
__kernel void diagonal_set(__global float *out, int rows, int cols, float off, float on) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < rows && j < cols)
    out[i * cols + j] = i == j ? on : off;
}

// Diagonal number d (above the main one) of a rows x cols matrix, zero past
// its end.
__kernel void diagonal_gather(__global const float *in, __global float *diag, int rows,
                              int cols, int d) {
  int i = get_global_id(0);
  if (i >= rows)
    return;
  diag[i] = i + d < cols ? in[i * cols + i + d] : 0.0f;
}

// A batch of 4 x 4 products, one matrix per index along the third
// dimension, one element per item in the first two.
__kernel void batched_4x4(__global const float *a, __global const float *b, __global float *c) {
  int col = get_global_id(0), row = get_global_id(1), m = get_global_id(2);
  __global const float *am = a + 16 * m, *bm = b + 16 * m;
  float acc = 0.0f;
  for (int e = 0; e < 4; ++e)
    acc += am[row * 4 + e] * bm[e * 4 + col];
  c[16 * m + row * 4 + col] = acc;
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// C = alpha A B + beta C in double precision.
__kernel void gemm_double(__global const double *a, __global const double *b, __global double *c,
                          double alpha, double beta, int m, int n, int k) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row >= m || col >= n)
    return;
  double acc = 0.0;
  for (int e = 0; e < k; ++e)
    acc += a[row * k + e] * b[e * n + col];
  c[row * n + col] = alpha * acc + beta * c[row * n + col];
}

// C = A A^T, the lower triangle only (the items above the diagonal return).
__kernel void syrk_lower(__global const float *a, __global float *c, int n, int k) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j > i)
    return;
  float acc = 0.0f;
  for (int e = 0; e < k; ++e)
    acc += a[i * k + e] * a[j * k + e];
  c[i * n + j] = acc;
}

// The Kronecker product of an ar x ac and a br x bc matrix.
__kernel void kron(__global const float *a, __global const float *b, __global float *out, int ar,
                   int ac, int br, int bc) {
  int j = get_global_id(0), i = get_global_id(1);
  int cols = ac * bc;
  if (i < ar * br && j < cols)
    out[i * cols + j] = a[(i / br) * ac + j / bc] * b[(i % br) * bc + j % bc];
}

// The softmax of each row, one group per row: the maximum and then the sum
// of exponentials reduced in local memory.
__kernel void softmax_rows(__global const float *in, __global float *out, int cols) {
  __local float part[64];
  int row = get_group_id(0), lid = get_local_id(0), width = get_local_size(0);
  __global const float *r = in + row * cols;
  float m = -INFINITY;
  for (int c = lid; c < cols; c += width)
    m = fmax(m, r[c]);
  part[lid] = m;
  for (int s = width / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s)
      part[lid] = fmax(part[lid], part[lid + s]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float top = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (int c = lid; c < cols; c += width)
    sum += exp(r[c] - top);
  part[lid] = sum;
  for (int s = width / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s)
      part[lid] += part[lid + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float total = part[0];
  for (int c = lid; c < cols; c += width)
    out[row * cols + c] = exp(r[c] - top) / total;
}

// A column-major rows x cols matrix set in blocks of 64 rows, the columns
// strided over the items along y: off everywhere, on on the diagonal.
__kernel void column_blocks_set(__global float *a, int rows, int cols, int ld, float on,
                                float off) {
  int i = get_group_id(0) * 64 + get_local_id(0);
  for (int j = get_global_id(1); j < cols; j += get_global_size(1))
    if (i < rows)
      a[j * ld + i] = i == j ? on : off;
}
