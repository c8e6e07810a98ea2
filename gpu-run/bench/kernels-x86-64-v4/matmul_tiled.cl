// C = A * B for square N x N row-major matrices. Each 16x16 work-group
// computes one 16x16 block of C, staging 16x16 tiles of A and B in __local
// memory; the barriers inside the tile loop keep the tiles consistent.
// N must be a multiple of TILE.
#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(__global const float *A, __global const float *B,
                  __global float *C, int N) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N; t += TILE) {
    As[ly][lx] = A[row * N + t + lx];
    Bs[ly][lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
