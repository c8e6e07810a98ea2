// corpus-source: written here for SKMD: image kernels on plain buffers in the shapes image-processing samples and libraries have (3 x 3 gradients on floats and on uchar4 pixels, separable box filters, summed-area tables by rows and by columns, masks in __constant memory, local tiles with an apron loaded in a loop, a recursive filter down each column, a median through a private sorting network, morphology, non-maximum suppression, a bilateral window, bilinear resizing, colour conversions, look-up tables, padding, flips, blending, pyramids)
// corpus-run: sobel_gray --global=96,64 --local=16,16 --arg=90*60 --arg=90*60:zero --arg=90 --arg=60
// corpus-run: sobel_pixels --global=64,48 --local=16,8 --arg=64*48:0..255 --arg=64*48:zero --arg=64 --arg=48
// corpus-run: box_rows --global=128,32 --local=64,2 --arg=120*30 --arg=120*30:zero --arg=120 --arg=30 --arg=3
// corpus-run: box_columns --global=128,32 --local=64,2 --arg=120*30 --arg=120*30:zero --arg=120 --arg=30 --arg=4
// corpus-run: sat_rows --global=64 --local=32 --arg=100*50:0..9 --arg=100*50:zero --arg=100 --arg=50
// corpus-run: sat_columns --global=128 --local=32 --arg=100*50:0..9 --arg=100*50:zero --arg=100 --arg=50
// corpus-run: box_from_sat --global=112,64 --local=16,16 --arg=100*50:0..900 --arg=100*50:zero --arg=100 --arg=50 --arg=2
// corpus-run: convolve_mask --global=80,64 --local=16,16 --arg=80*60 --arg=5*5 --arg=80*60:zero --arg=80 --arg=60 --arg=2
// corpus-run: convolve_tile --global=96,64 --local=16,16 --arg=90*60 --arg=90*60:zero --arg=90 --arg=60
// corpus-run: recursive_columns --global=128 --local=32 --arg=100*40 --arg=100*40:zero --arg=100 --arg=40 --arg=0.35
// corpus-run: median3x3 --global=64,48 --local=16,16 --arg=64*48 --arg=64*48:zero --arg=64 --arg=48
// corpus-run: morphology --global=64,64 --local=16,16 --arg=60*60:0..255 --arg=60*60:zero --arg=60*60:zero --arg=60 --arg=60
// corpus-run: gradient_nonmax --global=64,48 --local=16,16 --arg=64*48 --arg=64*48:zero --arg=64 --arg=48 --arg=0.1
// corpus-run: bilateral5 --global=48,48 --local=16,16 --arg=48*48 --arg=48*48:zero --arg=48 --arg=48 --arg=1.5 --arg=0.2
// corpus-run: resize_bilinear --global=128,96 --local=16,16 --arg=50*40 --arg=120*90:zero --arg=50 --arg=40 --arg=120 --arg=90
// corpus-run: rgb_to_hsv --global=64,32 --local=32,4 --arg=3*64*32 --arg=3*64*32:zero --arg=2048
// corpus-run: pixels_to_gray --global=4096 --local=128 --arg=4000:0..255 --arg=4000:zero --arg=4000
// corpus-run: apply_table --global=4096 --local=256 --arg=4096:0..255 --arg=256:0..255 --arg=4096:zero --arg=4096
// corpus-run: pad_clamped --global=128,64 --local=16,16 --arg=120*60 --arg=128*64:zero --arg=120 --arg=60 --arg=4 --arg=2 --arg=128 --arg=64
// corpus-run: flip_rotate --global=64,32 --local=16,16 --arg=60*30 --arg=60*30:zero --arg=60*30:zero --arg=60 --arg=30
// corpus-run: blend_pixels --global=4096 --local=64 --arg=4096:0..255 --arg=4096:0..255 --arg=4096:zero --arg=4096
// corpus-run: halve_image --global=32,32 --local=16,16 --arg=64*60 --arg=32*30:zero --arg=64 --arg=60
// corpus-run: census5x5 --global=64,64 --local=16,16 --arg=60*60:0..255 --arg=60*60:zero --arg=60 --arg=60
// corpus-run: windows_to_columns --global=256,16 --local=64,4 --arg=64*64 --arg=16*256:zero --arg=64 --arg=4
// corpus-run: columns_to_image --global=64,64 --local=16,16 --arg=16*256 --arg=64*64:zero --arg=64 --arg=4
// corpus-note: every kernel here was written for this corpus; images are row-major buffers, pixels past the edge clamp to it

inline int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

inline float at_clamped(__global const float *img, int x, int y, int w, int h) {
  return img[clampi(y, 0, h - 1) * w + clampi(x, 0, w - 1)];
}

// The gradient magnitude of a grey image (3 x 3 Sobel).
__kernel void sobel_gray(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float gx = at_clamped(in, x + 1, y - 1, w, h) + 2.0f * at_clamped(in, x + 1, y, w, h) +
             at_clamped(in, x + 1, y + 1, w, h) - at_clamped(in, x - 1, y - 1, w, h) -
             2.0f * at_clamped(in, x - 1, y, w, h) - at_clamped(in, x - 1, y + 1, w, h);
  float gy = at_clamped(in, x - 1, y + 1, w, h) + 2.0f * at_clamped(in, x, y + 1, w, h) +
             at_clamped(in, x + 1, y + 1, w, h) - at_clamped(in, x - 1, y - 1, w, h) -
             2.0f * at_clamped(in, x, y - 1, w, h) - at_clamped(in, x + 1, y - 1, w, h);
  out[y * w + x] = hypot(gx, gy);
}

// Sobel on each channel of uchar4 pixels; the edge row and column are
// copied through.
__kernel void sobel_pixels(__global const uchar4 *in, __global uchar4 *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
    return;
  }
  float4 p00 = convert_float4(in[i - w - 1]), p01 = convert_float4(in[i - w]),
         p02 = convert_float4(in[i - w + 1]), p10 = convert_float4(in[i - 1]),
         p12 = convert_float4(in[i + 1]), p20 = convert_float4(in[i + w - 1]),
         p21 = convert_float4(in[i + w]), p22 = convert_float4(in[i + w + 1]);
  float4 gx = p02 + 2.0f * p12 + p22 - p00 - 2.0f * p10 - p20;
  float4 gy = p20 + 2.0f * p21 + p22 - p00 - 2.0f * p01 - p02;
  out[i] = convert_uchar4_sat(sqrt(gx * gx + gy * gy) * 0.5f);
}

// The mean of 2r + 1 pixels along the row.
__kernel void box_rows(__global const float *in, __global float *out, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float s = 0.0f;
  for (int d = -r; d <= r; ++d)
    s += at_clamped(in, x + d, y, w, h);
  out[y * w + x] = s / (2 * r + 1);
}

// The mean of 2r + 1 pixels down the column.
__kernel void box_columns(__global const float *in, __global float *out, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float s = 0.0f;
  for (int d = -r; d <= r; ++d)
    s += at_clamped(in, x, y + d, w, h);
  out[y * w + x] = s / (2 * r + 1);
}

// Summed-area table, first pass: an inclusive prefix sum along each row,
// one row per work-item.
__kernel void sat_rows(__global const uint *in, __global uint *out, int w, int h) {
  int y = get_global_id(0);
  if (y >= h)
    return;
  uint s = 0;
  for (int x = 0; x < w; ++x) {
    s += in[y * w + x];
    out[y * w + x] = s;
  }
}

// Second pass: down each column, one column per work-item.
__kernel void sat_columns(__global const uint *in, __global uint *out, int w, int h) {
  int x = get_global_id(0);
  if (x >= w)
    return;
  uint s = 0;
  for (int y = 0; y < h; ++y) {
    s += in[y * w + x];
    out[y * w + x] = s;
  }
}

// A box sum of radius r read off a summed-area table (four corners).
__kernel void box_from_sat(__global const uint *sat, __global uint *out, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int x0 = max(x - r - 1, -1), y0 = max(y - r - 1, -1);
  int x1 = min(x + r, w - 1), y1 = min(y + r, h - 1);
  uint a = (x0 >= 0 && y0 >= 0) ? sat[y0 * w + x0] : 0;
  uint b = y0 >= 0 ? sat[y0 * w + x1] : 0;
  uint c = x0 >= 0 ? sat[y1 * w + x0] : 0;
  out[y * w + x] = sat[y1 * w + x1] - b - c + a;
}

// A (2r + 1)^2 convolution with the mask in __constant memory.
__kernel void convolve_mask(__global const float *in, __constant float *mask,
                            __global float *out, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int side = 2 * r + 1;
  float s = 0.0f;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      s += mask[(dy + r) * side + dx + r] * at_clamped(in, x + dx, y + dy, w, h);
  out[y * w + x] = s;
}

// A 5 x 5 binomial blur from a 20 x 20 local tile (the group's 16 x 16
// pixels and a two-pixel apron), loaded by the group's items in a loop.
#define APRON 2
#define TILE_W (16 + 2 * APRON)
__kernel void convolve_tile(__global const float *in, __global float *out, int w, int h) {
  __local float tile[TILE_W][TILE_W];
  int lx = get_local_id(0), ly = get_local_id(1);
  int ox = get_group_id(0) * 16 - APRON, oy = get_group_id(1) * 16 - APRON;
  for (int i = ly * 16 + lx; i < TILE_W * TILE_W; i += 256)
    tile[i / TILE_W][i % TILE_W] = at_clamped(in, ox + i % TILE_W, oy + i / TILE_W, w, h);
  barrier(CLK_LOCAL_MEM_FENCE);
  const float k[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
  float s = 0.0f;
  for (int dy = 0; dy < 5; ++dy)
    for (int dx = 0; dx < 5; ++dx)
      s += k[dy] * k[dx] * tile[ly + dy][lx + dx];
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[y * w + x] = s / 256.0f;
}

// A first-order recursive smoothing down each column, causal then
// anti-causal; the column is its work-item's alone.
__kernel void recursive_columns(__global const float *in, __global float *out, int w, int h,
                                float alpha) {
  int x = get_global_id(0);
  if (x >= w)
    return;
  float prev = in[x];
  for (int y = 0; y < h; ++y) {
    prev = alpha * in[y * w + x] + (1.0f - alpha) * prev;
    out[y * w + x] = prev;
  }
  prev = out[(h - 1) * w + x];
  for (int y = h - 1; y >= 0; --y) {
    prev = alpha * out[y * w + x] + (1.0f - alpha) * prev;
    out[y * w + x] = prev;
  }
}

// The median of a 3 x 3 window: nine values sorted in a private array by
// a fixed network of compare-exchanges.
#define CSWAP(a, b)                                                                                \
  {                                                                                                \
    float lo = fmin(v[a], v[b]), hi = fmax(v[a], v[b]);                                            \
    v[a] = lo;                                                                                     \
    v[b] = hi;                                                                                     \
  }
__kernel void median3x3(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float v[9];
  for (int i = 0; i < 9; ++i)
    v[i] = at_clamped(in, x + i % 3 - 1, y + i / 3 - 1, w, h);
  for (int pass = 0; pass < 5; ++pass)
    for (int i = pass & 1; i + 1 < 9; i += 2)
      CSWAP(i, i + 1);
  for (int pass = 0; pass < 5; ++pass)
    for (int i = pass & 1; i + 1 < 9; i += 2)
      CSWAP(i, i + 1);
  out[y * w + x] = v[4];
}

// Dilation and erosion of a grey image by a 3 x 3 square, in one pass.
__kernel void morphology(__global const uchar *in, __global uchar *dilated,
                         __global uchar *eroded, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uchar hi = 0, lo = 255;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      uchar p = in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
      hi = max(hi, p);
      lo = min(lo, p);
    }
  dilated[y * w + x] = hi;
  eroded[y * w + x] = lo;
}

// Thin edges: a pixel's gradient magnitude survives only where it is the
// largest along the gradient's direction (rounded to 45 degrees) and above
// the threshold.
__kernel void gradient_nonmax(__global const float *in, __global float *out, int w, int h,
                              float threshold) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float gx = at_clamped(in, x + 1, y, w, h) - at_clamped(in, x - 1, y, w, h);
  float gy = at_clamped(in, x, y + 1, w, h) - at_clamped(in, x, y - 1, w, h);
  float mag = hypot(gx, gy);
  float angle = atan2(gy, gx);
  int sector = ((int)round(angle * 4.0f / M_PI_F) + 8) % 4;
  const int dx[4] = {1, 1, 0, -1}, dy[4] = {0, 1, 1, 1};
  float n1 = 0.0f, n2 = 0.0f;
  for (int s = -1; s <= 1; s += 2) {
    int xx = x + s * dx[sector], yy = y + s * dy[sector];
    float ax = at_clamped(in, xx + 1, yy, w, h) - at_clamped(in, xx - 1, yy, w, h);
    float ay = at_clamped(in, xx, yy + 1, w, h) - at_clamped(in, xx, yy - 1, w, h);
    if (s < 0)
      n1 = hypot(ax, ay);
    else
      n2 = hypot(ax, ay);
  }
  out[y * w + x] = (mag >= n1 && mag >= n2 && mag > threshold) ? mag : 0.0f;
}

// A 5 x 5 bilateral filter: spatial weights times range weights.
__kernel void bilateral5(__global const float *in, __global float *out, int w, int h,
                         float sigma_space, float sigma_range) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float centre = in[y * w + x], sum = 0.0f, norm = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      float p = at_clamped(in, x + dx, y + dy, w, h);
      float d = p - centre;
      float wgt = exp(-(dx * dx + dy * dy) / (2.0f * sigma_space * sigma_space) -
                      d * d / (2.0f * sigma_range * sigma_range));
      sum += wgt * p;
      norm += wgt;
    }
  out[y * w + x] = sum / norm;
}

// Bilinear resampling of a sw x sh image to dw x dh.
__kernel void resize_bilinear(__global const float *in, __global float *out, int sw, int sh,
                              int dw, int dh) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= dw || y >= dh)
    return;
  float fx = (x + 0.5f) * sw / dw - 0.5f, fy = (y + 0.5f) * sh / dh - 0.5f;
  int x0 = (int)floor(fx), y0 = (int)floor(fy);
  float ax = fx - x0, ay = fy - y0;
  float top = mix(at_clamped(in, x0, y0, sw, sh), at_clamped(in, x0 + 1, y0, sw, sh), ax);
  float bottom =
      mix(at_clamped(in, x0, y0 + 1, sw, sh), at_clamped(in, x0 + 1, y0 + 1, sw, sh), ax);
  out[y * dw + x] = mix(top, bottom, ay);
}

// RGB to HSV on planar channels (plane c at c * pixels).
__kernel void rgb_to_hsv(__global const float *rgb, __global float *hsv, int pixels) {
  int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  if (i >= pixels)
    return;
  float r = rgb[i], g = rgb[pixels + i], b = rgb[2 * pixels + i];
  float hi = fmax(r, fmax(g, b)), lo = fmin(r, fmin(g, b)), d = hi - lo;
  float hue = 0.0f;
  if (d > 0.0f) {
    if (hi == r)
      hue = fmod((g - b) / d + 6.0f, 6.0f);
    else if (hi == g)
      hue = (b - r) / d + 2.0f;
    else
      hue = (r - g) / d + 4.0f;
  }
  hsv[i] = hue / 6.0f;
  hsv[pixels + i] = hi > 0.0f ? d / hi : 0.0f;
  hsv[2 * pixels + i] = hi;
}

// Luma of uchar4 pixels as integers (fixed-point weights).
__kernel void pixels_to_gray(__global const uchar4 *in, __global uchar *out, int n) {
  int i = get_global_id(0);
  if (i < n) {
    uint4 p = convert_uint4(in[i]);
    out[i] = (uchar)((77 * p.x + 150 * p.y + 29 * p.z + 128) >> 8);
  }
}

// A look-up table (an equalisation's mapping) applied to bytes.
__kernel void apply_table(__global const uchar *in, __constant uchar *table, __global uchar *out,
                          int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = table[in[i]];
}

// Pads a w x h image to pw x ph, the image at (left, top), edges repeated.
__kernel void pad_clamped(__global const float *in, __global float *out, int w, int h, int left,
                          int top, int pw, int ph) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < pw && y < ph)
    out[y * pw + x] = at_clamped(in, x - left, y - top, w, h);
}

// A horizontal flip and a quarter turn of the same image.
__kernel void flip_rotate(__global const float *in, __global float *flipped,
                          __global float *turned, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float p = in[y * w + x];
  flipped[y * w + (w - 1 - x)] = p;
  turned[x * h + (h - 1 - y)] = p;
}

// Alpha blending of two uchar4 images by the first one's alpha.
__kernel void blend_pixels(__global const uchar4 *front, __global const uchar4 *back,
                           __global uchar4 *out, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float4 f = convert_float4(front[i]), b = convert_float4(back[i]);
  float a = f.w / 255.0f;
  float4 o = f * a + b * (1.0f - a);
  o.w = 255.0f;
  out[i] = convert_uchar4_sat_rte(o);
}

// One level of an image pyramid: each output pixel is the mean of a 2 x 2
// block.
__kernel void halve_image(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  int ow = w / 2, oh = h / 2;
  if (x >= ow || y >= oh)
    return;
  float2 top = vload2(0, in + 2 * y * w + 2 * x), bottom = vload2(0, in + (2 * y + 1) * w + 2 * x);
  out[y * ow + x] = 0.25f * (top.x + top.y + bottom.x + bottom.y);
}

// The census transform: one bit per pixel of the 5 x 5 window, set where
// the pixel is darker than the centre.
__kernel void census5x5(__global const uchar *in, __global uint *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uchar c = in[y * w + x];
  uint bits = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      if (dx || dy)
        bits = (bits << 1) | (in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)] < c);
  out[y * w + x] = bits;
}

// im2col: each k x k window (stride k) of a side x side image becomes a
// column of k * k rows.
__kernel void windows_to_columns(__global const float *in, __global float *cols, int side,
                                 int k) {
  int col = get_global_id(0), row = get_global_id(1);
  int per_row = side / k;
  if (col >= per_row * per_row || row >= k * k)
    return;
  int wx = (col % per_row) * k + row % k, wy = (col / per_row) * k + row / k;
  cols[row * per_row * per_row + col] = in[wy * side + wx];
}

// col2im for the same non-overlapping windows: each pixel gathers its
// element back.
__kernel void columns_to_image(__global const float *cols, __global float *out, int side, int k) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= side || y >= side)
    return;
  int per_row = side / k;
  int col = (y / k) * per_row + x / k, row = (y % k) * k + x % k;
  out[y * side + x] = cols[row * per_row * per_row + col];
}
