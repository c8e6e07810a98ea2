/* gemm: C = alpha * A * B + beta * C, as a 1-D scaling pass and a 2-D
   tiled product that accumulates into C. */
#define TILE 16

__kernel void gemm_scale(__global float *c, int count, float beta) {
  int i = get_global_id(0);
  if (i < count)
    c[i] *= beta;
}

__kernel void gemm_tiled(__global const float *a, __global const float *b,
                         __global float *c, int ni, int nj, int nk, float alpha) {
  __local float ta[TILE][TILE], tb[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int j = get_global_id(0), i = get_global_id(1);
  float sum = 0.0f;
  for (int k0 = 0; k0 < nk; k0 += TILE) {
    ta[ty][tx] = (i < ni && k0 + tx < nk) ? a[i * nk + k0 + tx] : 0.0f;
    tb[ty][tx] = (k0 + ty < nk && j < nj) ? b[(k0 + ty) * nj + j] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      sum += ta[ty][k] * tb[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < ni && j < nj)
    c[i * nj + j] += alpha * sum;
}
