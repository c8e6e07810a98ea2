// corpus-source: written here for SKMD: neural-network and learning kernels in the shapes public suites and libraries have (a layer's forward pass as 16 x 16 blocks of inputs times hidden units reduced in local memory, output deltas, weight updates with momentum in place, direct and depthwise convolutions over a 3-D range, pooling with the winner's index, per-channel global averages by one group each, batch and layer normalisation, activations on float4, attention scores, cross-entropy against integer labels, SGD with momentum, logistic-regression gradient partials, dropout from a counter-based hash, int8 quantisation with saturation and char4 dot products)
// corpus-run: layer_forward_blocks --global=16,64*16 --local=16,16 --arg=1024 --arg=1025*17 --arg=64*16:zero --arg=16
// corpus-run: output_delta --global=256 --local=64 --arg=250 --arg=250 --arg=250:zero --arg=250
// corpus-run: adjust_weights --global=16,256 --local=16,16 --arg=17 --arg=256 --arg=257*17 --arg=257*17 --arg=16 --arg=0.3 --arg=0.3
// corpus-run: conv2d_direct --global=32,32,4 --local=16,16,1 --arg=3*34*34 --arg=4*3*3*3 --arg=4 --arg=4*32*32:zero --arg=32 --arg=3
// corpus-run: depthwise3x3 --global=32,32,8 --local=16,16,1 --arg=8*32*32 --arg=8*9 --arg=8*32*32:zero --arg=32
// corpus-run: maxpool2x2 --global=16,16,4 --local=16,16,1 --arg=4*32*32 --arg=4*16*16:zero --arg=4*16*16:zero --arg=32
// corpus-run: channel_mean --global=8*64 --local=64 --arg=8*500 --arg=8:zero --arg=500
// corpus-run: batchnorm_infer --global=64,32 --local=64,2 --arg=32*64 --arg=32 --arg=32:0.5..2 --arg=32 --arg=32 --arg=32*64:zero --arg=64 --arg=0.001
// corpus-run: layernorm_rows --global=24*64 --local=64 --arg=24*200 --arg=200 --arg=200 --arg=24*200:zero --arg=200 --arg=0.00001
// corpus-run: activations4 --global=1024 --local=128 --arg=1024:-3..3 --arg=1024:zero --arg=1024:zero --arg=1024:zero --arg=0.01
// corpus-run: attention_scores --global=48,40 --local=16,8 --arg=40*32 --arg=48*32 --arg=40*48:zero --arg=40 --arg=48 --arg=32
// corpus-run: cross_entropy --global=128 --local=64 --arg=100*10 --arg=100:0..9 --arg=100:zero --arg=100 --arg=10
// corpus-run: sgd_momentum --global=1024 --local=256 --arg=1000 --arg=1000 --arg=1000 --arg=0.05 --arg=0.9 --arg=0.0001 --arg=1000
// corpus-run: logistic_grad --global=512 --local=64 --arg=500*8 --arg=500:0..1 --arg=8 --arg=8*8:zero --arg=500
// corpus-run: dropout --global=1024 --local=128 --arg=1000 --arg=1000:zero --arg=0.25 --arg=17 --arg=1000
// corpus-run: quantize_int8 --global=1024 --local=128 --arg=1024:-4..4 --arg=1024:zero --arg=0.03 --arg=1024
// corpus-run: int8_dot --global=128 --local=32 --arg=128*4:-128..127 --arg=4:-128..127 --arg=128:zero --arg=128 --arg=16
// corpus-note: every kernel here was written for this corpus

// A layer's forward pass in blocks: group (0, b) multiplies 16 inputs of
// block b by the 16 x 16 weights to the hidden units, reduces the products
// over the inputs in local memory, and stores the block's 16 partial sums.
// Weights are (inputs + 1) x (hidden + 1), row 0 and column 0 biases.
__kernel void layer_forward_blocks(__global const float *input, __global const float *weights,
                                   __global float *partial, int hidden) {
  __local float in_tile[16];
  __local float prod[16][16];
  int tx = get_local_id(0), ty = get_local_id(1), b = get_group_id(1);
  int row = b * 16 + ty + 1, col = tx + 1;
  if (tx == 0)
    in_tile[ty] = input[b * 16 + ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  prod[ty][tx] = weights[row * (hidden + 1) + col] * in_tile[ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 8; s > 0; s >>= 1) {
    if (ty < s)
      prod[ty][tx] += prod[ty + s][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (ty == 0)
    partial[b * hidden + tx] = prod[0][tx];
}

// The output layer's error terms for a sigmoid unit.
__kernel void output_delta(__global const float *out, __global const float *target,
                           __global float *delta, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float o = out[i];
    delta[i] = o * (1.0f - o) * (target[i] - o);
  }
}

// Weight updates with momentum, in place on the weights and the previous
// changes; each item owns one weight.
__kernel void adjust_weights(__global const float *delta, __global const float *ly,
                             __global float *w, __global float *old_w, int hidden, float eta,
                             float momentum) {
  int col = get_global_id(0) + 1, row = get_global_id(1) + 1;
  int at = row * (hidden + 1) + col;
  float change = eta * delta[col] * ly[row - 1] + momentum * old_w[at];
  w[at] += change;
  old_w[at] = change;
  if (row == 1) {
    float bias = eta * delta[col] + momentum * old_w[col];
    w[col] += bias;
    old_w[col] = bias;
  }
}

// A direct 3 x 3 convolution, channels-first: output channel z of a side x
// side map from cin input channels of (side + 2)^2 padded maps, plus bias.
__kernel void conv2d_direct(__global const float *in, __global const float *filters,
                            __global const float *bias, __global float *out, int side, int cin) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int ps = side + 2;
  float acc = bias[z];
  for (int c = 0; c < cin; ++c)
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx)
        acc += filters[((z * cin + c) * 3 + ky) * 3 + kx] * in[(c * ps + y + ky) * ps + x + kx];
  out[(z * side + y) * side + x] = acc;
}

// A depthwise 3 x 3 convolution: each channel its own filter, zero padding.
__kernel void depthwise3x3(__global const float *in, __global const float *filters,
                           __global float *out, int side) {
  int x = get_global_id(0), y = get_global_id(1), c = get_global_id(2);
  float acc = 0.0f;
  for (int ky = -1; ky <= 1; ++ky)
    for (int kx = -1; kx <= 1; ++kx) {
      int xx = x + kx, yy = y + ky;
      if (xx >= 0 && yy >= 0 && xx < side && yy < side)
        acc += filters[c * 9 + (ky + 1) * 3 + kx + 1] * in[(c * side + yy) * side + xx];
    }
  out[(c * side + y) * side + x] = acc;
}

// 2 x 2 max pooling with the index of the winner (for the backward pass).
__kernel void maxpool2x2(__global const float *in, __global float *out, __global int *which,
                         int side) {
  int x = get_global_id(0), y = get_global_id(1), c = get_global_id(2);
  int half_side = side / 2;
  float best = -INFINITY;
  int arg = 0;
  for (int k = 0; k < 4; ++k) {
    int at = (c * side + 2 * y + k / 2) * side + 2 * x + k % 2;
    if (in[at] > best) {
      best = in[at];
      arg = at;
    }
  }
  out[(c * half_side + y) * half_side + x] = best;
  which[(c * half_side + y) * half_side + x] = arg;
}

// The mean of each channel, one group per channel.
__kernel void channel_mean(__global const float *in, __global float *mean, int size) {
  __local float s[64];
  int c = get_group_id(0), lid = get_local_id(0);
  float acc = 0.0f;
  for (int i = lid; i < size; i += 64)
    acc += in[c * size + i];
  s[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 32; k > 0; k >>= 1) {
    if (lid < k)
      s[lid] += s[lid + k];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    mean[c] = s[0] / size;
}

// Batch normalisation at inference: per-channel statistics and affine
// parameters, channels along dimension 1.
__kernel void batchnorm_infer(__global const float *in, __global const float *mean,
                              __global const float *var, __global const float *gamma,
                              __global const float *beta, __global float *out, int size,
                              float eps) {
  int i = get_global_id(0), c = get_global_id(1);
  if (i >= size)
    return;
  float x = in[c * size + i];
  out[c * size + i] = gamma[c] * (x - mean[c]) * rsqrt(var[c] + eps) + beta[c];
}

// Layer normalisation of each row, one group per row: mean and variance
// reduced in local memory.
__kernel void layernorm_rows(__global const float *in, __global const float *gain,
                             __global const float *shift, __global float *out, int cols,
                             float eps) {
  __local float s[64], q[64];
  int r = get_group_id(0), lid = get_local_id(0);
  __global const float *row = in + r * cols;
  float a = 0.0f, b = 0.0f;
  for (int c = lid; c < cols; c += 64) {
    a += row[c];
    b += row[c] * row[c];
  }
  s[lid] = a;
  q[lid] = b;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 32; k > 0; k >>= 1) {
    if (lid < k) {
      s[lid] += s[lid + k];
      q[lid] += q[lid + k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float mean = s[0] / cols, var = fmax(q[0] / cols - mean * mean, 0.0f);
  float inv = rsqrt(var + eps);
  for (int c = lid; c < cols; c += 64)
    out[r * cols + c] = (row[c] - mean) * inv * gain[c] + shift[c];
}

// ReLU, leaky ReLU and the tanh form of GELU on four values per item.
__kernel void activations4(__global const float4 *in, __global float4 *relu,
                           __global float4 *leaky, __global float4 *gelu, float slope) {
  int i = get_global_id(0);
  float4 x = in[i];
  relu[i] = fmax(x, 0.0f);
  leaky[i] = select(x * slope, x, isgreater(x, (float4)(0.0f)));
  float4 inner = 0.7978845608f * (x + 0.044715f * x * x * x);
  gelu[i] = 0.5f * x * (1.0f + tanh(inner));
}

// Scaled dot-product attention scores: query i against key j.
__kernel void attention_scores(__global const float *q, __global const float *k,
                               __global float *scores, int nq, int nk, int dim) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= nq || j >= nk)
    return;
  float acc = 0.0f;
  for (int d = 0; d < dim; ++d)
    acc += q[i * dim + d] * k[j * dim + d];
  scores[i * nk + j] = acc * rsqrt((float)dim);
}

// The cross-entropy of each row's softmax against its integer label.
__kernel void cross_entropy(__global const float *logits, __global const int *labels,
                            __global float *loss, int rows, int classes) {
  int r = get_global_id(0);
  if (r >= rows)
    return;
  float m = -INFINITY;
  for (int c = 0; c < classes; ++c)
    m = fmax(m, logits[r * classes + c]);
  float sum = 0.0f;
  for (int c = 0; c < classes; ++c)
    sum += exp(logits[r * classes + c] - m);
  loss[r] = log(sum) + m - logits[r * classes + labels[r]];
}

// Stochastic gradient descent with momentum and weight decay, in place.
__kernel void sgd_momentum(__global float *param, __global const float *grad,
                           __global float *velocity, float lr, float mu, float decay, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float g = grad[i] + decay * param[i];
  float v = mu * velocity[i] + g;
  velocity[i] = v;
  param[i] -= lr * v;
}

// Logistic regression: each group's gradient over its samples (eight
// features), reduced feature by feature in local memory.
__kernel void logistic_grad(__global const float *x, __global const int *y,
                            __global const float *w, __global float *partial, int n) {
  __local float g[64][8];
  int i = get_global_id(0), lid = get_local_id(0);
  float z = 0.0f;
  if (i < n)
    for (int f = 0; f < 8; ++f)
      z += w[f] * x[i * 8 + f];
  float err = i < n ? 1.0f / (1.0f + exp(-z)) - y[i] : 0.0f;
  for (int f = 0; f < 8; ++f)
    g[lid][f] = i < n ? err * x[i * 8 + f] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s)
      for (int f = 0; f < 8; ++f)
        g[lid][f] += g[lid + s][f];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid < 8)
    partial[get_group_id(0) * 8 + lid] = g[0][lid];
}

// Inverted dropout: a counter-based hash decides which values are kept.
__kernel void dropout(__global const float *in, __global float *out, float rate, uint seed,
                      int n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  uint h = (i + seed) * 0x9E3779B1u;
  h ^= h >> 15;
  h *= 0x85EBCA77u;
  h ^= h >> 13;
  float u = (h >> 8) * (1.0f / 16777216.0f);
  out[i] = u < rate ? 0.0f : in[i] / (1.0f - rate);
}

// Symmetric int8 quantisation with rounding to nearest even and
// saturation.
__kernel void quantize_int8(__global const float *in, __global char *out, float scale, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = convert_char_sat_rte(in[i] / scale);
}

// Rows of int8 weights (width bytes each) times an int8 vector, four lanes
// at a time widened to int.
__kernel void int8_dot(__global const char4 *w, __global const char4 *x, __global int *out,
                       int rows, int width) {
  int r = get_global_id(0);
  if (r >= rows)
    return;
  int acc = 0;
  for (int q = 0; q < width / 4; ++q) {
    int4 a = convert_int4(w[r * (width / 4) + q]), b = convert_int4(x[q]);
    acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  }
  out[r] = acc;
}
