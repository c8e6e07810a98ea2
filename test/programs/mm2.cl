/* 2mm: D = alpha * A * B * C + beta * D, as two matrix products. */
__kernel void mm2_tmp(__global const float *a, __global const float *b,
                      __global float *tmp, int ni, int nj, int nk, float alpha) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= ni || j >= nj)
    return;
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k)
    sum += a[i * nk + k] * b[k * nj + j];
  tmp[i * nj + j] = alpha * sum;
}

__kernel void mm2_out(__global const float *tmp, __global const float *c,
                      __global float *d, int ni, int nl, int nj, float beta) {
  int l = get_global_id(0), i = get_global_id(1);
  if (i >= ni || l >= nl)
    return;
  float sum = d[i * nl + l] * beta;
  for (int j = 0; j < nj; ++j)
    sum += tmp[i * nj + j] * c[j * nl + l];
  d[i * nl + l] = sum;
}
