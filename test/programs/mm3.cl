/* 3mm: G = (A * B) * (C * D), three products with one kernel each. */
__kernel void mm3_e(__global const float *a, __global const float *b,
                    __global float *e, int ni, int nj, int nk) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nj) {
    float sum = 0.0f;
    for (int k = 0; k < nk; ++k)
      sum += a[i * nk + k] * b[k * nj + j];
    e[i * nj + j] = sum;
  }
}

__kernel void mm3_f(__global const float *c, __global const float *d,
                    __global float *f, int nj, int nl, int nm) {
  int l = get_global_id(0), j = get_global_id(1);
  if (j < nj && l < nl) {
    float sum = 0.0f;
    for (int m = 0; m < nm; ++m)
      sum += c[j * nm + m] * d[m * nl + l];
    f[j * nl + l] = sum;
  }
}

__kernel void mm3_g(__global const float *e, __global const float *f,
                    __global float *g, int ni, int nl, int nj) {
  int l = get_global_id(0), i = get_global_id(1);
  if (i < ni && l < nl) {
    float sum = 0.0f;
    for (int j = 0; j < nj; ++j)
      sum += e[i * nj + j] * f[j * nl + l];
    g[i * nl + l] = sum;
  }
}
