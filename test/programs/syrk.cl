/* syrk: C = alpha * A * A^T + beta * C; syr2k: C = alpha * (A * B^T +
   B * A^T) + beta * C. Lower triangles only, as PolyBench does. */
__kernel void syrk(__global const float *a, __global float *c, int n, int m, float alpha,
                   float beta) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j > i)
    return;
  float sum = 0.0f;
  for (int k = 0; k < m; ++k)
    sum += a[i * m + k] * a[j * m + k];
  c[i * n + j] = beta * c[i * n + j] + alpha * sum;
}

__kernel void syr2k(__global const float *a, __global const float *b, __global float *c,
                    int n, int m, float alpha, float beta) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j > i)
    return;
  float sum = 0.0f;
  for (int k = 0; k < m; ++k)
    sum += a[j * m + k] * b[i * m + k] + b[j * m + k] * a[i * m + k];
  c[i * n + j] = beta * c[i * n + j] + alpha * sum;
}
