// corpus-source: written here for SKMD: sparse-matrix and graph kernels in the shapes public suites have (CSR by rows, one item per row and one group per row, ELL with per-row lengths, CSR to COO expansion, row counts of a dense matrix, column counts through global atomics, COO entries scattered into a dense matrix, frontier-based breadth-first levels pulled from neighbours with a flag any group may raise, Bellman-Ford and label-propagation steps, PageRank by pulling, degree histograms, nearest neighbours by distance and by group, embedding gathers, a two-level search of a sorted array)
// corpus-run: csr_rows --global=1024 --local=64 --arg=1000:iota --arg=1000:0..999 --arg=1000 --arg=1000 --arg=1000:zero --arg=999
// corpus-run: csr_group_per_row --global=64*32 --local=32 --arg=65:iota --arg=65:0..99 --arg=65 --arg=100 --arg=64:zero --arg=64
// corpus-run: ell_lengths --global=512 --local=64 --arg=500*6 --arg=500*6:0..499 --arg=500:0..6 --arg=500 --arg=500:zero --arg=500 --arg=6
// corpus-run: csr_to_coo --global=256 --local=64 --arg=257:iota --arg=256:zero --arg=256
// corpus-run: dense_row_counts --global=128 --local=32 --arg=100*80 --arg=100:zero --arg=100 --arg=80 --arg=0.7
// corpus-run: column_counts --global=2048 --local=128 --arg=2000:0..63 --arg=64:zero --arg=2000
// corpus-run: coo_to_dense --global=512 --local=64 --arg=500:iota --arg=500:0..49 --arg=500 --arg=500*50:zero --arg=500 --arg=50
// corpus-run: bfs_pull_level --global=512 --local=64 --arg=500:0..4 --arg=16:0..499 --arg=500:0..1 --arg=500:0..1 --arg=500:zero --arg=500:0..3 --arg=500:zero --arg=1:zero --arg=3 --arg=500
// corpus-run: bellman_ford_pull --global=512 --local=64 --arg=500:0..4 --arg=16:0..499 --arg=16:1..9 --arg=500:0..1000 --arg=500:zero --arg=500
// corpus-run: min_label_pull --global=512 --local=64 --arg=500:0..4 --arg=16:0..499 --arg=500:0..499 --arg=500:zero --arg=500
// corpus-run: pagerank_pull --global=512 --local=64 --arg=500:0..4 --arg=16:0..499 --arg=500:1..8 --arg=500 --arg=500:zero --arg=0.85 --arg=500
// corpus-run: degree_histogram --global=512 --local=64 --arg=500:0..4 --arg=16:zero --arg=500
// corpus-run: distances_to --global=1024 --local=128 --arg=1000 --arg=1000:zero --arg=0.25,0.75 --arg=1000
// corpus-run: nearest_in_group --global=1024 --local=128 --arg=1000 --arg=8:zero --arg=8:zero --arg=0.5,0.5,0.5,0.0 --arg=1000
// corpus-run: gather_rows --global=32,200 --local=32,4 --arg=100*32 --arg=200:0..99 --arg=200*32:zero --arg=32 --arg=200
// corpus-run: two_level_search --global=512 --local=64 --arg=4096:iota --arg=512:0..4200 --arg=512:zero --arg=4096 --arg=512
// corpus-note: every kernel here was written for this corpus; CSR row pointers are iota (one entry per row), as fills cannot build longer rows; node records are (first edge, edge count) pairs both in 0..4, so edges 0..8 of a 16-entry list

// y = A x for A in CSR, one row per work-item.
__kernel void csr_rows(__global const int *row_ptr, __global const int *cols,
                       __global const float *vals, __global const float *x, __global float *y,
                       int rows) {
  int r = get_global_id(0);
  if (r >= rows)
    return;
  float acc = 0.0f;
  for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
    acc += vals[j] * x[cols[j]];
  y[r] = acc;
}

// The same product with one group per row: the group's items stride over
// the row and reduce in local memory.
__kernel void csr_group_per_row(__global const int *row_ptr, __global const int *cols,
                                __global const float *vals, __global const float *x,
                                __global float *y, int rows) {
  __local float part[32];
  int r = get_group_id(0), lid = get_local_id(0);
  float acc = 0.0f;
  if (r < rows)
    for (int j = row_ptr[r] + lid; j < row_ptr[r + 1]; j += 32)
      acc += vals[j] * x[cols[j]];
  part[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 16; s > 0; s >>= 1) {
    if (lid < s)
      part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0 && r < rows)
    y[r] = part[0];
}

// ELL with a length per row (row-major, width entries per row).
__kernel void ell_lengths(__global const float *vals, __global const int *cols,
                          __global const int *lengths, __global const float *x, __global float *y,
                          int rows, int width) {
  int r = get_global_id(0);
  if (r >= rows)
    return;
  float acc = 0.0f;
  int len = min(lengths[r], width);
  for (int k = 0; k < len; ++k)
    acc += vals[r * width + k] * x[cols[r * width + k]];
  y[r] = acc;
}

// CSR to COO: each row writes its index into the entries it owns.
__kernel void csr_to_coo(__global const int *row_ptr, __global int *row_of, int rows) {
  int r = get_global_id(0);
  if (r < rows)
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
      row_of[j] = r;
}

// How many entries of each row of a dense matrix are above the threshold
// (a CSR conversion's first pass).
__kernel void dense_row_counts(__global const float *a, __global int *counts, int rows, int cols,
                               float threshold) {
  int r = get_global_id(0);
  if (r >= rows)
    return;
  int c = 0;
  for (int j = 0; j < cols; ++j)
    c += fabs(a[r * cols + j]) > threshold;
  counts[r] = c;
}

// Entries per column, by global atomic increments (a transpose's first
// pass).
__kernel void column_counts(__global const int *cols, __global int *counts, int nnz) {
  int i = get_global_id(0);
  if (i < nnz)
    atomic_inc(&counts[cols[i]]);
}

// COO entries stored into a dense matrix (distinct rows here).
__kernel void coo_to_dense(__global const int *rows_of, __global const int *cols_of,
                           __global const float *vals, __global float *dense, int nnz, int cols) {
  int i = get_global_id(0);
  if (i < nnz)
    dense[rows_of[i] * cols + cols_of[i]] = vals[i];
}

typedef struct {
  int first;
  int count;
} Node;

// One breadth-first level by pulling: an unvisited node whose neighbour is
// on the frontier joins the next frontier at the next level; any node that
// joins raises the flag.
__kernel void bfs_pull_level(__global const Node *nodes, __global const int *edges,
                             __global const int *frontier, __global const int *visited,
                             __global int *next, __global const int *level_in,
                             __global int *level_out, __global int *changed, int level, int n) {
  int v = get_global_id(0);
  if (v >= n)
    return;
  int joined = 0;
  if (!visited[v]) {
    Node node = nodes[v];
    for (int e = node.first; e < node.first + node.count; ++e)
      if (frontier[edges[e]]) {
        joined = 1;
        break;
      }
  }
  next[v] = joined;
  level_out[v] = joined ? level + 1 : level_in[v];
  if (joined)
    *changed = 1;
}

// A Bellman-Ford step by pulling along weighted in-edges.
__kernel void bellman_ford_pull(__global const Node *nodes, __global const int *edges,
                                __global const int *weights, __global const int *dist,
                                __global int *dist_out, int n) {
  int v = get_global_id(0);
  if (v >= n)
    return;
  int best = dist[v];
  Node node = nodes[v];
  for (int e = node.first; e < node.first + node.count; ++e)
    best = min(best, dist[edges[e]] + weights[e]);
  dist_out[v] = best;
}

// Connected components by label propagation: the smallest label among a
// node and its neighbours.
__kernel void min_label_pull(__global const Node *nodes, __global const int *edges,
                             __global const int *labels, __global int *labels_out, int n) {
  int v = get_global_id(0);
  if (v >= n)
    return;
  int best = labels[v];
  Node node = nodes[v];
  for (int e = node.first; e < node.first + node.count; ++e)
    best = min(best, labels[edges[e]]);
  labels_out[v] = best;
}

// A PageRank step by pulling: each in-neighbour's rank over its out-degree.
__kernel void pagerank_pull(__global const Node *nodes, __global const int *edges,
                            __global const int *out_degree, __global const float *rank,
                            __global float *rank_out, float damping, int n) {
  int v = get_global_id(0);
  if (v >= n)
    return;
  float s = 0.0f;
  Node node = nodes[v];
  for (int e = node.first; e < node.first + node.count; ++e) {
    int u = edges[e];
    s += rank[u] / out_degree[u];
  }
  rank_out[v] = (1.0f - damping) / n + damping * s;
}

// Nodes counted by degree with global atomic increments.
__kernel void degree_histogram(__global const Node *nodes, __global uint *bins, int n) {
  int v = get_global_id(0);
  if (v < n)
    atomic_inc(&bins[min(nodes[v].count, 15)]);
}

// The distance of each record (a float2 position) to a target passed by
// value.
__kernel void distances_to(__global const float2 *records, __global float *dist, float2 target,
                           int n) {
  int i = get_global_id(0);
  if (i < n)
    dist[i] = distance(records[i], target);
}

// The record nearest to a float4 query within each group: an arg-min in
// local memory (the first index on ties).
__kernel void nearest_in_group(__global const float4 *points, __global int *best_index,
                               __global float *best_dist, float4 query, int n) {
  __local float d[128];
  __local int at[128];
  int lid = get_local_id(0), i = get_global_id(0);
  float4 diff = points[min(i, n - 1)] - query;
  d[lid] = i < n ? dot(diff, diff) : INFINITY;
  at[lid] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 64; s > 0; s >>= 1) {
    if (lid < s && (d[lid + s] < d[lid] || (d[lid + s] == d[lid] && at[lid + s] < at[lid]))) {
      d[lid] = d[lid + s];
      at[lid] = at[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    best_index[get_group_id(0)] = at[0];
    best_dist[get_group_id(0)] = d[0];
  }
}

// Rows of a table gathered by index (an embedding look-up): dimension 0
// along the row, dimension 1 over the indices.
__kernel void gather_rows(__global const float *table, __global const int *index,
                          __global float *out, int width, int count) {
  int c = get_global_id(0), i = get_global_id(1);
  if (i < count && c < width)
    out[i * width + c] = table[index[i] * width + c];
}

// Lower bounds in a sorted array through a top level of every 64th key,
// searched first, then the 64 keys below the chosen one.
__kernel void two_level_search(__global const int *sorted, __global const int *keys,
                               __global int *places, int n, int count) {
  int i = get_global_id(0);
  if (i >= count)
    return;
  int key = keys[i];
  int blocks = (n + 63) / 64, lo = 0, hi = blocks;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (sorted[mid * 64] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  int start = max(lo - 1, 0) * 64, end = min(start + 128, n);
  int p = start;
  while (p < end && sorted[p] < key)
    ++p;
  places[i] = p;
}
