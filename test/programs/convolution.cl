/* 2-D convolution with a 5x5 filter in __constant memory (zero outside
   the image), and a 3-D 3x3x3 convolution of the interior. */
#define R 2

__kernel void conv2d(__global const float *in, __global float *out, __constant float *filter,
                     int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      int sx = x + dx, sy = y + dy;
      if (sx >= 0 && sx < width && sy >= 0 && sy < height)
        sum += filter[(dy + R) * (2 * R + 1) + dx + R] * in[sy * width + sx];
    }
  out[y * width + x] = sum;
}

__kernel void conv3d(__global const float *in, __global float *out, int nx, int ny, int nz,
                     float c0, float c1, float c2) {
  int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i < 1 || j < 1 || k < 1 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1)
    return;
  float centre = in[(k * ny + j) * nx + i];
  float faces = in[(k * ny + j) * nx + i - 1] + in[(k * ny + j) * nx + i + 1] +
                in[(k * ny + j - 1) * nx + i] + in[(k * ny + j + 1) * nx + i] +
                in[((k - 1) * ny + j) * nx + i] + in[((k + 1) * ny + j) * nx + i];
  float corners = 0.0f;
  for (int dk = -1; dk <= 1; dk += 2)
    for (int dj = -1; dj <= 1; dj += 2)
      for (int di = -1; di <= 1; di += 2)
        corners += in[((k + dk) * ny + j + dj) * nx + i + di];
  out[(k * ny + j) * nx + i] = c0 * centre + c1 * faces + c2 * corners;
}
