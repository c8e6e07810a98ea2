// Gradient magnitude of a width x height grey image (floats, row-major)
// with the 3x3 Sobel operators. Border pixels, which lack a neighbour, get 0.
__kernel void sobel(__global const float *image, __global float *magnitude,
                    uint width, uint height) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  uint at = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    magnitude[at] = 0.0f;
    return;
  }
  __global const float *up = image + at - width, *mid = image + at,
                       *down = image + at + width;
  float gx = (up[1] + 2.0f * mid[1] + down[1]) -
             (up[-1] + 2.0f * mid[-1] + down[-1]);
  float gy = (down[-1] + 2.0f * down[0] + down[1]) -
             (up[-1] + 2.0f * up[0] + up[1]);
  magnitude[at] = sqrt(gx * gx + gy * gy);
}
