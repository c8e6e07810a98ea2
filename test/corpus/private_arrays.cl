// Private arrays indexed by run-time values: a sort, a histogram and a
// sliding window.

// Insertion sort of each work-item's 8 values.
__kernel void sort8(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  int v[8];
  for (int k = 0; k < 8; ++k)
    v[k] = in[8 * i + k];
  for (int k = 1; k < 8; ++k) {
    int x = v[k], j = k - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  for (int k = 0; k < 8; ++k)
    out[8 * i + k] = v[k];
}

// Each work-item counts its `per` bytes into 8 bins by their top 3 bits,
// then writes the bins and the fullest one (the first, on ties).
__kernel void private_histogram(__global const uchar *data, __global uint *hist,
                                int per) {
  size_t i = get_global_id(0);
  uint h[8] = {0};
  for (int k = 0; k < per; ++k)
    h[data[i * per + k] >> 5]++;
  uint best = 0;
  for (uint b = 1; b < 8; ++b)
    if (h[b] > h[best])
      best = b;
  for (int b = 0; b < 8; ++b)
    hist[9 * i + b] = h[b];
  hist[9 * i + 8] = best;
}

// Walks a row of w + 4 values with a private window of 5: the window's
// maximum and its weighted sum at each of the w positions.
__kernel void window_stencil(__global const float *in, __global float *out,
                             int w) {
  size_t row = get_global_id(0);
  __global const float *r = in + row * (w + 4);
  float win[5];
  for (int k = 0; k < 4; ++k)
    win[k] = r[k];
  for (int x = 0; x < w; ++x) {
    win[4] = r[x + 4];
    float m = win[0], s = 0.0f;
    for (int k = 0; k < 5; ++k) {
      m = fmax(m, win[k]);
      s += win[k] * (float)(k + 1);
    }
    out[2 * (row * w + x)] = m;
    out[2 * (row * w + x) + 1] = s;
    for (int k = 0; k < 4; ++k)
      win[k] = win[k + 1];
  }
}
