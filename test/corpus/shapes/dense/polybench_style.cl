// corpus-source: written here for SKMD: linear-algebra and stencil kernels in the shapes PolyBench/GPU's OpenCL versions have (a typedef'd element type, 2-D guards on (i, j), loops that accumulate into global memory, a scalar step k or t selecting rows and columns, symmetric and column-wise writes)
// corpus-run: gemm --global=64,64 --local=16,16 --arg=60*50 --arg=50*70 --arg=60*70 --arg=1.5 --arg=0.5 --arg=60 --arg=70 --arg=50
// corpus-run: mvt_rows --global=256 --local=64 --arg=250*250 --arg=250 --arg=250 --arg=250
// corpus-run: mvt_columns --global=256 --local=64 --arg=250*250 --arg=250 --arg=250 --arg=250
// corpus-run: atax_first --global=128 --local=32 --arg=100*120 --arg=120 --arg=100 --arg=100 --arg=120
// corpus-run: atax_second --global=128 --local=32 --arg=100*120 --arg=120 --arg=100 --arg=100 --arg=120
// corpus-run: bicg_columns --global=128 --local=32 --arg=100*120 --arg=100 --arg=120 --arg=100 --arg=120
// corpus-run: covariance_mean --global=64 --local=16 --arg=60 --arg=80*60 --arg=80.0 --arg=60 --arg=80
// corpus-run: covariance_center --global=64,96 --local=16,16 --arg=60 --arg=80*60 --arg=60 --arg=80
// corpus-run: covariance_symmetric --global=64 --local=16 --arg=60*60:zero --arg=80*60 --arg=60 --arg=80
// corpus-run: correlation_std --global=64 --local=16 --arg=60 --arg=60 --arg=80*60 --arg=80.0 --arg=60 --arg=80
// corpus-run: fdtd_ey --global=64,64 --local=16,16 --arg=20 --arg=60*62 --arg=60*62 --arg=60*62 --arg=3 --arg=60 --arg=62
// corpus-run: fdtd_ex --global=64,64 --local=16,16 --arg=60*62 --arg=60*62 --arg=60 --arg=62
// corpus-run: fdtd_hz --global=64,64 --local=16,16 --arg=60*62 --arg=60*62 --arg=60*62 --arg=60 --arg=62
// corpus-run: jacobi_step --global=64,64 --local=8,8 --arg=62*62 --arg=62*62 --arg=62
// corpus-run: gramschmidt_norm --global=64 --local=64 --arg=70*50 --arg=50*50:zero --arg=50*70 --arg=7 --arg=70 --arg=50
// corpus-run: gramschmidt_scale --global=128 --local=32 --arg=70*50 --arg=50*50:1..2 --arg=70*50 --arg=7 --arg=70 --arg=50
// corpus-run: gramschmidt_update --global=64 --local=16 --arg=70*50 --arg=50*50 --arg=70*50 --arg=7 --arg=70 --arg=50
// corpus-run: lu_row --global=128 --local=32 --arg=100*100:1..2 --arg=9 --arg=100
// corpus-run: lu_update --global=112,112 --local=16,16 --arg=100*100:1..2 --arg=9 --arg=100
// corpus-run: conv3x3 --global=96,96 --local=16,16 --arg=90*90 --arg=90*90:zero --arg=90 --arg=90
// corpus-run: syr2k --global=48,48 --local=16,16 --arg=40*30 --arg=40*30 --arg=40*40 --arg=1.25 --arg=0.75 --arg=40 --arg=30
// corpus-note: every kernel here was written for this corpus; sizes are not multiples of the groups, so the guards cut the last groups

typedef float DATA_TYPE;

// C = alpha * A * B + beta * C, A ni x nk, B nk x nj: C is read, scaled
// and accumulated in global memory inside the loop.
__kernel void gemm(__global DATA_TYPE *a, __global DATA_TYPE *b, __global DATA_TYPE *c,
                   DATA_TYPE alpha, DATA_TYPE beta, int ni, int nj, int nk) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < ni) && (j < nj)) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

// x1 += A y1 (a row per item), x2 += A^T y2 (a column per item).
__kernel void mvt_rows(__global DATA_TYPE *a, __global DATA_TYPE *x1, __global DATA_TYPE *y1,
                       int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; j++)
      x1[i] += a[i * n + j] * y1[j];
}

__kernel void mvt_columns(__global DATA_TYPE *a, __global DATA_TYPE *x2, __global DATA_TYPE *y2,
                          int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; j++)
      x2[i] += a[j * n + i] * y2[j];
}

// y = A^T (A x) in two launches through tmp.
__kernel void atax_first(__global DATA_TYPE *a, __global DATA_TYPE *x, __global DATA_TYPE *tmp,
                         int nx, int ny) {
  int i = get_global_id(0);
  if (i < nx) {
    tmp[i] = 0;
    for (int j = 0; j < ny; j++)
      tmp[i] += a[i * ny + j] * x[j];
  }
}

__kernel void atax_second(__global DATA_TYPE *a, __global DATA_TYPE *y, __global DATA_TYPE *tmp,
                          int nx, int ny) {
  int j = get_global_id(0);
  if (j < ny)
    for (int i = 0; i < nx; i++)
      y[j] += a[i * ny + j] * tmp[i];
}

// s = r^T A: each item a column, summed into a private value.
__kernel void bicg_columns(__global DATA_TYPE *a, __global DATA_TYPE *r, __global DATA_TYPE *s,
                           int nx, int ny) {
  int j = get_global_id(0);
  if (j < ny) {
    DATA_TYPE sum = 0;
    for (int i = 0; i < nx; i++)
      sum += r[i] * a[i * ny + j];
    s[j] = sum;
  }
}

// Covariance of n samples (rows) of m variables (columns).
__kernel void covariance_mean(__global DATA_TYPE *mean, __global DATA_TYPE *data,
                              DATA_TYPE float_n, int m, int n) {
  int j = get_global_id(0);
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
}

__kernel void covariance_center(__global DATA_TYPE *mean, __global DATA_TYPE *data, int m,
                                int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < n) && (j < m))
    data[i * m + j] -= mean[j];
}

// Item j1 fills row j1 from the diagonal on and mirrors each value into
// column j1: its writes interleave with every other item's, row by row.
__kernel void covariance_symmetric(__global DATA_TYPE *symmat, __global DATA_TYPE *data, int m,
                                   int n) {
  int j1 = get_global_id(0);
  if (j1 < m) {
    for (int j2 = j1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; i++)
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

// A column's standard deviation, a tiny one taken as one.
__kernel void correlation_std(__global DATA_TYPE *mean, __global DATA_TYPE *std,
                              __global DATA_TYPE *data, DATA_TYPE float_n, int m, int n) {
  int j = get_global_id(0);
  const DATA_TYPE eps = 0.1f;
  if (j < m) {
    std[j] = 0.0f;
    for (int i = 0; i < n; i++)
      std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    std[j] /= float_n;
    std[j] = sqrt(std[j]);
    if (std[j] <= eps)
      std[j] = 1.0f;
  }
}

// FDTD-2D's three updates at step t; the first row takes the step's
// boundary value.
__kernel void fdtd_ey(__global DATA_TYPE *fict, __global DATA_TYPE *ex, __global DATA_TYPE *ey,
                      __global DATA_TYPE *hz, int t, int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < nx) && (j < ny)) {
    if (i == 0)
      ey[i * ny + j] = fict[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__kernel void fdtd_ex(__global DATA_TYPE *ex, __global DATA_TYPE *hz, int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < nx) && (j < ny) && (j > 0))
    ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__kernel void fdtd_hz(__global DATA_TYPE *ex, __global DATA_TYPE *ey, __global DATA_TYPE *hz,
                      int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < (nx - 1)) && (j < (ny - 1)))
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] +
                                              ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

__kernel void jacobi_step(__global DATA_TYPE *a, __global DATA_TYPE *b, int n) {
  int i = get_global_id(1);
  int j = get_global_id(0);
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
    b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (1 + j)] +
                           a[(1 + i) * n + j] + a[(i - 1) * n + j]);
}

// Gram-Schmidt's column k: one item computes the norm; then a column is
// scaled; then every later column is projected out.
__kernel void gramschmidt_norm(__global DATA_TYPE *a, __global DATA_TYPE *r,
                               __global DATA_TYPE *q, int k, int m, int n) {
  int tid = get_global_id(0);
  if (tid == 0) {
    DATA_TYPE nrm = 0.0f;
    for (int i = 0; i < m; i++)
      nrm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrt(nrm);
  }
}

__kernel void gramschmidt_scale(__global DATA_TYPE *a, __global DATA_TYPE *r,
                                __global DATA_TYPE *q, int k, int m, int n) {
  int i = get_global_id(0);
  if (i < m)
    q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__kernel void gramschmidt_update(__global DATA_TYPE *a, __global DATA_TYPE *r,
                                 __global DATA_TYPE *q, int k, int m, int n) {
  int j = get_global_id(0);
  if ((j > k) && (j < n)) {
    r[k * n + j] = 0.0f;
    for (int i = 0; i < m; i++)
      r[k * n + j] += q[i * n + k] * a[i * n + j];
    for (int i = 0; i < m; i++)
      a[i * n + j] -= q[i * n + k] * r[k * n + j];
  }
}

// LU's step k: row k right of the pivot, then the trailing block.
__kernel void lu_row(__global DATA_TYPE *a, int k, int n) {
  int j = get_global_id(0);
  if ((j > k) && (j < n))
    a[k * n + j] = a[k * n + j] / a[k * n + k];
}

__kernel void lu_update(__global DATA_TYPE *a, int k, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i > k) && (j > k) && (i < n) && (j < n))
    a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
}

// A 3x3 convolution with its weights in the code.
__kernel void conv3x3(__global DATA_TYPE *a, __global DATA_TYPE *b, int ni, int nj) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  DATA_TYPE c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  DATA_TYPE c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  DATA_TYPE c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if ((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0))
    b[i * nj + j] = c11 * a[(i - 1) * nj + (j - 1)] + c21 * a[(i - 1) * nj + (j + 0)] +
                    c31 * a[(i - 1) * nj + (j + 1)] + c12 * a[(i + 0) * nj + (j - 1)] +
                    c22 * a[(i + 0) * nj + (j + 0)] + c32 * a[(i + 0) * nj + (j + 1)] +
                    c13 * a[(i + 1) * nj + (j - 1)] + c23 * a[(i + 1) * nj + (j + 0)] +
                    c33 * a[(i + 1) * nj + (j + 1)];
}

// C = alpha (A B^T + B A^T) + beta C, n x n from n x m.
__kernel void syr2k(__global DATA_TYPE *a, __global DATA_TYPE *b, __global DATA_TYPE *c,
                    DATA_TYPE alpha, DATA_TYPE beta, int n, int m) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if ((i < n) && (j < n)) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
  }
}
