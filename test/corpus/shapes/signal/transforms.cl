// corpus-source: written here for SKMD: signal-processing kernels in the shapes public suites and SDK samples have (radix-2 FFT butterflies on float2 with twiddles from sincos, a whole 64-point FFT per group in local memory, a direct DFT, FIR filters with taps in __constant memory and with a local window, a recursive filter per channel, Walsh-Hadamard butterflies globally and in local memory, Haar wavelet levels in local memory, an 8 x 8 DCT through local memory with a cosine table, 1-D correlation, Goertzel's single-bin recurrence, decimation, complex products, magnitudes in decibels, CRC-32 of fixed blocks)
// corpus-run: fft_radix2_pass --global=512 --local=64 --arg=1024 --arg=1024:zero --arg=1024 --arg=64
// corpus-run: fft_radix2_pass --global=512 --local=64 --arg=1024 --arg=1024:zero --arg=1024 --arg=1
// corpus-run: fft64_in_group --global=32*16 --local=32 --arg=16*64 --arg=16*64:zero --arg=-1.0
// corpus-run: dft_direct --global=256 --local=64 --arg=256 --arg=256:zero --arg=256
// corpus-run: fir_constant --global=1024 --local=128 --arg=1031 --arg=32 --arg=1000:zero --arg=1000 --arg=32
// corpus-run: fir_local_window --global=1024 --local=128 --arg=1039 --arg=16 --arg=1024:zero --arg=16
// corpus-run: iir_channels --global=64 --local=16 --arg=64*200 --arg=64*200:zero --arg=64 --arg=200 --arg=0.9 --arg=-0.2
// corpus-run: walsh_pass --global=512 --local=64 --arg=1024 --arg=1024:zero --arg=128
// corpus-run: walsh_in_group --global=1024 --local=128 --arg=2048:0..50 --arg=2048:zero
// corpus-run: haar_levels --global=512 --local=128 --arg=2048 --arg=2048:zero --arg=4
// corpus-run: dct8x8 --global=64,32 --local=8,8 --arg=64*32 --arg=64*32:zero --arg=64
// corpus-run: correlate --global=512 --local=64 --arg=600 --arg=100 --arg=500:zero --arg=100 --arg=500
// corpus-run: goertzel --global=64 --local=16 --arg=64*256 --arg=64:zero --arg=256 --arg=0.196
// corpus-run: decimate --global=256 --local=64 --arg=1032 --arg=9 --arg=256:zero --arg=4
// corpus-run: complex_multiply_conj --global=1024 --local=256 --arg=1024 --arg=1024 --arg=1024:zero --arg=1024
// corpus-run: power_db --global=1024 --local=256 --arg=1000 --arg=1000:zero --arg=1000
// corpus-run: crc32_blocks --global=256 --local=64 --arg=256*64:0..255 --arg=256:zero --arg=64
// corpus-note: every kernel here was written for this corpus; the FFT pass is one radix-2 stage of a Stockham transform (in to out), run for two strides

// One radix-2 Stockham stage of an n-point FFT: butterfly i combines
// elements i and i + n/2 into the places 2*stride apart.
__kernel void fft_radix2_pass(__global const float2 *in, __global float2 *out, int n,
                              int stride) {
  int i = get_global_id(0), half_n = n / 2;
  if (i >= half_n)
    return;
  int k = i % stride;
  float c, s = sincos(-M_PI_F * k / stride, &c);
  float2 a = in[i], b = in[i + half_n];
  float2 bw = (float2)(b.x * c - b.y * s, b.x * s + b.y * c);
  int o = (i - k) * 2 + k;
  out[o] = a + bw;
  out[o + stride] = a - bw;
}

// A 64-point FFT per group of 32 items, all six stages in local memory
// with a barrier between them; the sign picks forward or inverse.
__kernel void fft64_in_group(__global const float2 *in, __global float2 *out, float sign) {
  __local float2 buf[2][64];
  int lid = get_local_id(0), base = get_group_id(0) * 64;
  buf[0][lid] = in[base + lid];
  buf[0][lid + 32] = in[base + lid + 32];
  int src = 0;
  for (int stride = 1; stride < 64; stride *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int k = lid % stride;
    float c, s = sincos(sign * M_PI_F * k / stride, &c);
    float2 a = buf[src][lid], b = buf[src][lid + 32];
    float2 bw = (float2)(b.x * c - b.y * s, b.x * s + b.y * c);
    int o = (lid - k) * 2 + k;
    buf[1 - src][o] = a + bw;
    buf[1 - src][o + stride] = a - bw;
    src = 1 - src;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + lid] = buf[src][lid];
  out[base + lid + 32] = buf[src][lid + 32];
}

// The DFT by definition, one frequency per item.
__kernel void dft_direct(__global const float2 *in, __global float2 *out, int n) {
  int f = get_global_id(0);
  if (f >= n)
    return;
  float2 acc = (float2)(0.0f);
  for (int t = 0; t < n; ++t) {
    float c, s = sincos(-2.0f * M_PI_F * (float)((f * t) % n) / n, &c);
    float2 x = in[t];
    acc += (float2)(x.x * c - x.y * s, x.x * s + x.y * c);
  }
  out[f] = acc;
}

// A FIR filter, taps in __constant memory; the input carries taps - 1
// samples of history before the first output.
__kernel void fir_constant(__global const float *in, __constant float *taps, __global float *out,
                           int n, int count) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int t = 0; t < count; ++t)
    acc += taps[t] * in[i + count - 1 - t];
  out[i] = acc;
}

// The same filter with the group's window of input (its samples and the
// history before them) staged in local memory.
__kernel void fir_local_window(__global const float *in, __global const float *taps,
                               __global float *out, int count) {
  __local float win[128 + 16];
  __local float tap[16];
  int lid = get_local_id(0), size = get_local_size(0);
  int base = get_group_id(0) * size;
  for (int j = lid; j < size + count - 1; j += size)
    win[j] = in[base + j];
  if (lid < count)
    tap[lid] = taps[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (int t = 0; t < count; ++t)
    acc += tap[t] * win[lid + count - 1 - t];
  out[base + lid] = acc;
}

// A second-order recursive filter along each channel (one channel per
// item, samples channel-major).
__kernel void iir_channels(__global const float *in, __global float *out, int channels,
                           int samples, float a1, float a2) {
  int c = get_global_id(0);
  if (c >= channels)
    return;
  float y1 = 0.0f, y2 = 0.0f;
  for (int t = 0; t < samples; ++t) {
    float y = in[c * samples + t] + a1 * y1 + a2 * y2;
    out[c * samples + t] = y;
    y2 = y1;
    y1 = y;
  }
}

// One Walsh-Hadamard butterfly pass over the whole signal, in to out:
// item i handles the pair (lo, lo + span) of its block.
__kernel void walsh_pass(__global const float *in, __global float *out, int half_block) {
  int i = get_global_id(0);
  int lo = (i / half_block) * 2 * half_block + i % half_block, hi = lo + half_block;
  float a = in[lo], b = in[hi];
  out[lo] = a + b;
  out[hi] = a - b;
}

// The full Walsh-Hadamard transform of each group's 2 x size block in
// local memory (integers, so exact).
__kernel void walsh_in_group(__global const int *in, __global int *out) {
  __local int v[256];
  int lid = get_local_id(0), n = 2 * get_local_size(0), base = get_group_id(0) * n;
  v[lid] = in[base + lid];
  v[lid + n / 2] = in[base + lid + n / 2];
  for (int span = 1; span < n; span *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int lo = (lid / span) * 2 * span + lid % span;
    int a = v[lo], b = v[lo + span];
    v[lo] = a + b;
    v[lo + span] = a - b;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + lid] = v[lid];
  out[base + lid + n / 2] = v[lid + n / 2];
}

// Levels of a Haar wavelet on each group's 2 x size samples: averages to
// the front, details behind them, the active length halving per level.
__kernel void haar_levels(__global const float *in, __global float *out, int levels) {
  __local float v[256], w[256];
  int lid = get_local_id(0), n = 2 * get_local_size(0), base = get_group_id(0) * n;
  v[lid] = in[base + lid];
  v[lid + n / 2] = in[base + lid + n / 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  int len = n;
  for (int l = 0; l < levels; ++l) {
    int span = len / 2;
    if (lid < span) {
      float a = v[2 * lid], b = v[2 * lid + 1];
      w[lid] = (a + b) * M_SQRT1_2_F;
      w[span + lid] = (a - b) * M_SQRT1_2_F;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < len / 2) {
      v[lid] = w[lid];
      v[span + lid] = w[span + lid];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    len = span;
  }
  out[base + lid] = v[lid];
  out[base + lid + n / 2] = v[lid + n / 2];
}

// The 8 x 8 DCT-II of each block: rows, then columns, through local memory;
// the cosine table computed by the group first.
__kernel void dct8x8(__global const float *in, __global float *out, int w) {
  __local float cosines[8][8], block[8][8], rows[8][8];
  int u = get_local_id(0), v = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  float scale = v == 0 ? M_SQRT1_2_F : 1.0f;
  cosines[v][u] = 0.5f * scale * cos((2 * u + 1) * v * M_PI_F / 16.0f);
  block[v][u] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += cosines[u][k] * block[v][k];
  rows[v][u] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += cosines[v][k] * rows[k][u];
  out[y * w + x] = s;
}

// Cross-correlation of a signal with a template at every lag.
__kernel void correlate(__global const float *signal, __global const float *tmpl,
                        __global float *out, int len, int lags) {
  int lag = get_global_id(0);
  if (lag >= lags)
    return;
  float acc = 0.0f;
  for (int t = 0; t < len; ++t)
    acc += signal[lag + t] * tmpl[t];
  out[lag] = acc;
}

// The power at one frequency (omega) of each channel by Goertzel's
// recurrence.
__kernel void goertzel(__global const float *in, __global float *power, int samples,
                       float omega) {
  int c = get_global_id(0);
  float coeff = 2.0f * cos(omega), s1 = 0.0f, s2 = 0.0f;
  for (int t = 0; t < samples; ++t) {
    float s0 = in[c * samples + t] + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  power[c] = s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

// Low-pass and keep every factor-th sample.
__kernel void decimate(__global const float *in, __global const float *taps, __global float *out,
                       int factor) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int t = 0; t < 9; ++t)
    acc += taps[t] * in[i * factor + t];
  out[i] = acc;
}

// a * conj(b) on complex float2 samples (a cross-spectrum).
__kernel void complex_multiply_conj(__global const float2 *a, __global const float2 *b,
                                    __global float2 *out, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float2 x = a[i], y = b[i];
    out[i] = (float2)(x.x * y.x + x.y * y.y, x.y * y.x - x.x * y.y);
  }
}

// Magnitudes in decibels, floored.
__kernel void power_db(__global const float2 *spectrum, __global float *db, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float2 s = spectrum[i];
    db[i] = 10.0f * log10(fmax(s.x * s.x + s.y * s.y, 1e-12f));
  }
}

// CRC-32 (reflected, polynomial 0xEDB88320) of each block of bytes, bit
// by bit.
__kernel void crc32_blocks(__global const uchar *data, __global uint *crcs, int block) {
  int b = get_global_id(0);
  uint crc = 0xFFFFFFFFu;
  for (int i = 0; i < block; ++i) {
    crc ^= data[b * block + i];
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  crcs[b] = ~crc;
}
