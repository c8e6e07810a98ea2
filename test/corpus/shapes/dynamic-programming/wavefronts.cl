// corpus-source: written here for SKMD: dynamic-programming kernels in the shapes public suites have (a global alignment matrix filled one anti-diagonal per launch in place, 16 x 16 blocks of it swept by one group each along the block anti-diagonal with the block's edges in local memory, longest common subsequence and local alignment scores on diagonal-major buffers, a 0/1 knapsack row, Viterbi and forward steps of a hidden Markov model with the transition matrix read by columns, interval costs filled one length per launch)
// corpus-run: nw_diagonal --global=128 --local=32 --arg=101*101:-20..20 --arg=100:0..3 --arg=100:0..3 --arg=101 --arg=60 --arg=2
// corpus-run: nw_blocks --global=3*16 --local=16 --arg=65*65:-20..20 --arg=64:0..3 --arg=64:0..3 --arg=65 --arg=3 --arg=2
// corpus-run: lcs_diagonal --global=128 --local=32 --arg=128:0..300 --arg=128:0..300 --arg=128:zero --arg=120:0..3 --arg=120:0..3 --arg=120 --arg=150
// corpus-run: local_align_diagonal --global=128 --local=32 --arg=128:0..40 --arg=128:0..40 --arg=128:zero --arg=120:0..3 --arg=120:0..3 --arg=120 --arg=100 --arg=3
// corpus-run: knapsack_row --global=1024 --local=128 --arg=1001:0..500 --arg=1001:zero --arg=1000 --arg=37 --arg=55
// corpus-run: viterbi_step --global=128 --local=64 --arg=128:-10..0 --arg=128*128 --arg=128*16 --arg=128:zero --arg=128:zero --arg=128 --arg=5
// corpus-run: forward_step --global=256 --local=64 --arg=256 --arg=256*256 --arg=256*8 --arg=256:zero --arg=256 --arg=3
// corpus-run: interval_costs --global=64 --local=32 --arg=64*64:1..9 --arg=64:1..5 --arg=64 --arg=5
// corpus-note: every kernel here was written for this corpus; the in-place kernels (nw_diagonal, nw_blocks, interval_costs) read only cells of earlier diagonals or shorter intervals than the ones they write

inline int similarity(int a, int b) { return a == b ? 5 : -3; }

// One anti-diagonal d of a global alignment score matrix ((n+1) x (n+1),
// row 0 and column 0 the gap penalties), item t on cell (d - t, t).
__kernel void nw_diagonal(__global int *score, __global const int *a, __global const int *b,
                          int side, int d, int gap) {
  int t = get_global_id(0) + 1, i = d - t, j = t;
  if (i < 1 || j < 1 || i >= side || j >= side)
    return;
  int diag = score[(i - 1) * side + j - 1] + similarity(a[i - 1], b[j - 1]);
  int up = score[(i - 1) * side + j] - gap, left = score[i * side + j - 1] - gap;
  score[i * side + j] = max(diag, max(up, left));
}

// Block anti-diagonal `blocks` - 1 of the same matrix in 16 x 16 blocks
// (the first `blocks` blocks along it): each group copies its block's top
// row and left column in, sweeps the block's own 31 anti-diagonals in
// local memory with a barrier each, and stores the block.
__kernel void nw_blocks(__global int *score, __global const int *a, __global const int *b,
                        int side, int blocks, int gap) {
  __local int s[17][17];
  __local int ra[16], rb[16];
  int g = get_group_id(0), t = get_local_id(0);
  int bi = blocks - 1 - g, bj = g;
  int r0 = bi * 16, c0 = bj * 16;
  s[0][t + 1] = score[r0 * side + c0 + t + 1];
  s[t + 1][0] = score[(r0 + t + 1) * side + c0];
  if (t == 0)
    s[0][0] = score[r0 * side + c0];
  ra[t] = a[r0 + t];
  rb[t] = b[c0 + t];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 0; d < 31; ++d) {
    int i = d - t;
    if (i >= 0 && i < 16) {
      int diag = s[i][t] + similarity(ra[i], rb[t]);
      s[i + 1][t + 1] = max(diag, max(s[i][t + 1] - gap, s[i + 1][t] - gap));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < 16; ++r)
    score[(r0 + r + 1) * side + c0 + t + 1] = s[r + 1][t + 1];
}

// Longest common subsequence, diagonal-major: the lengths of diagonals
// d - 2 and d - 1 (indexed by row) give diagonal d.
__kernel void lcs_diagonal(__global const int *two_back, __global const int *one_back,
                           __global int *cur, __global const int *a, __global const int *b,
                           int n, int d) {
  int i = get_global_id(0), j = d - i;
  if (i >= n)
    return;
  if (j < 0 || j >= n) {
    cur[i] = 0;
    return;
  }
  int diag = (i > 0 && j > 0) ? two_back[i - 1] : 0;
  int up = i > 0 ? one_back[i - 1] : 0, left = j > 0 ? one_back[i] : 0;
  cur[i] = a[i] == b[j] ? diag + 1 : max(up, left);
}

// Local alignment (Smith-Waterman) scores, diagonal-major, floored at 0.
__kernel void local_align_diagonal(__global const int *two_back, __global const int *one_back,
                                   __global int *cur, __global const int *a,
                                   __global const int *b, int n, int d, int gap) {
  int i = get_global_id(0), j = d - i;
  if (i >= n)
    return;
  if (j < 0 || j >= n) {
    cur[i] = 0;
    return;
  }
  int diag = ((i > 0 && j > 0) ? two_back[i - 1] : 0) + similarity(a[i], b[j]);
  int up = (i > 0 ? one_back[i - 1] : 0) - gap, left = (j > 0 ? one_back[i] : 0) - gap;
  cur[i] = max(0, max(diag, max(up, left)));
}

// One item of a 0/1 knapsack: the best value for every capacity with or
// without it.
__kernel void knapsack_row(__global const int *prev, __global int *next, int capacity,
                           int weight, int value) {
  int c = get_global_id(0);
  if (c > capacity)
    return;
  int best = prev[c];
  if (c >= weight)
    best = max(best, prev[c - weight] + value);
  next[c] = best;
}

// A Viterbi step in log space: each state's best predecessor and score.
__kernel void viterbi_step(__global const float *prev, __global const float *trans,
                           __global const float *emit, __global float *next,
                           __global int *back, int states, int symbol) {
  int j = get_global_id(0);
  if (j >= states)
    return;
  float best = -INFINITY;
  int arg = 0;
  for (int i = 0; i < states; ++i) {
    float s = prev[i] + log(trans[i * states + j] + 1e-6f);
    if (s > best) {
      best = s;
      arg = i;
    }
  }
  next[j] = best + log(emit[j * 16 + symbol] + 1e-6f);
  back[j] = arg;
}

// A scaled forward step: alpha is staged through local memory a group's
// width at a time, each state sums over its column of the transitions.
__kernel void forward_step(__global const float *alpha, __global const float *trans,
                           __global const float *emit, __global float *next, int states,
                           int symbol) {
  __local float tile[64];
  int j = get_global_id(0), lid = get_local_id(0), width = get_local_size(0);
  float s = 0.0f;
  for (int base = 0; base < states; base += width) {
    tile[lid] = alpha[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < width; ++k)
      s += tile[k] * trans[(base + k) * states + j];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  next[j] = s * emit[j * 8 + symbol];
}

// Interval costs of length len, in place: cost[i][i+len] is the cheapest
// split of the interval plus its weight (shorter intervals are final).
__kernel void interval_costs(__global int *cost, __global const int *weight, int n, int len) {
  int i = get_global_id(0), j = i + len;
  if (j >= n)
    return;
  int best = INT_MAX;
  for (int k = i; k < j; ++k)
    best = min(best, cost[i * n + k] + cost[(k + 1) * n + j]);
  int w = 0;
  for (int k = i; k <= j; ++k)
    w += weight[k];
  cost[i * n + j] = best + w;
}
