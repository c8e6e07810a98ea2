// One Jacobi step of Laplace's equation on an n x n grid: each interior
// point becomes the mean of its four neighbours. Launched over the interior
// (global offset 1, 1); the border is never written.
__kernel void jacobi2d(__global const float *in, __global float *out, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * n + x] = 0.25f * (in[y * n + x - 1] + in[y * n + x + 1] +
                            in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}
