// corpus-source: written here for SKMD: application kernels in the shapes benchmark suites' applications have (a particle filter's likelihood over integer sample offsets and its weight normalisation, a facility-location gain per point, a flow solver's local time step and an explicit update from a struct of __constant constants, reaction rates from __constant Arrhenius tables over grid points, a search down an implicit B-tree, genetic-algorithm fitness of double-precision records and a hash-driven mutation, a spectral-flux onset detector, a cumulative distribution by one group for resampling)
// corpus-run: particle_likelihood --global=512 --local=64 --arg=64*64:0..255 --arg=500:0..40 --arg=500:0..40 --arg=13*2:-3..3 --arg=500:zero --arg=64 --arg=13 --arg=500
// corpus-run: normalise_weights --global=512 --local=64 --arg=500:0.1..1 --arg=500:zero --arg=300.0 --arg=500
// corpus-run: facility_gain --global=512 --local=64 --arg=500*4 --arg=500:1..3 --arg=500:0..7 --arg=8*4 --arg=500:zero --arg=4 --arg=500 --arg=3 --arg=8
// corpus-run: local_time_step --global=1024 --local=128 --arg=1000:0.5..1.5 --arg=1000 --arg=1000:1..2 --arg=1000:0.1..1 --arg=1000:zero --arg=1000
// corpus-run: flow_update --global=1024 --local=128 --arg=1000:0.5..1.5 --arg=1000 --arg=1000:0.001..0.01 --arg=1000:zero --arg=1.4,0.5,0.01,2.0 --arg=1000
// corpus-run: reaction_rates --global=1024 --local=128 --arg=1024:300..2500 --arg=12:0..2 --arg=12:0..1 --arg=12:0..30000 --arg=12*1024:zero --arg=1024 --arg=12
// corpus-run: implicit_btree --global=512 --local=64 --arg=4*16*16*16:iota --arg=512:0..16383 --arg=512:zero --arg=3 --arg=512
// corpus-run: creature_fitness --global=64 --local=16 --arg=64 --arg=64:zero --arg=64
// corpus-run: creature_mutate --global=64 --local=16 --arg=64 --arg=64:zero --arg=0.2 --arg=11 --arg=64
// corpus-run: spectral_flux --global=256 --local=64 --arg=257*64 --arg=256:zero --arg=64 --arg=256
// corpus-run: cdf_one_group --global=128 --local=128 --arg=1000 --arg=1000:zero --arg=1000
// corpus-note: every kernel here was written for this corpus; cdf_one_group is one group by design

// The likelihood of each particle: the image at the particle's position
// plus each of the model's offsets, scored against the foreground and
// background intensities.
__kernel void particle_likelihood(__global const uchar *image, __global const int *px,
                                  __global const int *py, __global const int2 *offsets,
                                  __global float *likelihood, int side, int count, int n) {
  int p = get_global_id(0);
  if (p >= n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < count; ++k) {
    int x = clamp(px[p] + offsets[k].x, 0, side - 1), y = clamp(py[p] + offsets[k].y, 0, side - 1);
    float v = image[y * side + x];
    acc += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 50.0f;
  }
  likelihood[p] = acc / count;
}

// Weights divided by their sum (given).
__kernel void normalise_weights(__global const float *w, __global float *out, float sum, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = w[i] / sum;
}

// Facility location: what each point would save by moving to a candidate
// centre (points of `dims` floats, each with a weight and its current
// centre); negative savings count as zero.
__kernel void facility_gain(__global const float *points, __global const float *weight,
                            __global const int *assigned, __global const float *centres,
                            __global float *saving, int dims, int n, int candidate,
                            int centre_count) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float to_candidate = 0.0f, to_current = 0.0f;
  int cur = assigned[i] % centre_count;
  for (int d = 0; d < dims; ++d) {
    float a = points[i * dims + d] - centres[candidate * dims + d];
    float b = points[i * dims + d] - centres[cur * dims + d];
    to_candidate += a * a;
    to_current += b * b;
  }
  saving[i] = fmax(weight[i] * (to_current - to_candidate), 0.0f);
}

// A flow solver's local time step from the cell's density, momentum,
// energy and area.
__kernel void local_time_step(__global const float *density, __global const float *momentum,
                              __global const float *energy, __global const float *area,
                              __global float *step, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float rho = density[i], u = momentum[i] / rho;
  float pressure = 0.4f * (energy[i] - 0.5f * rho * u * u);
  float sound = sqrt(1.4f * fabs(pressure) / rho);
  step[i] = 0.5f / (sqrt(area[i]) * (fabs(u) + sound));
}

// The constants of an explicit update passed by value as a struct.
typedef struct {
  float gamma;
  float cfl;
  float viscosity;
  float far_pressure;
} FlowConstants;

__kernel void flow_update(__global const float *density, __global const float *flux,
                          __global const float *step, __global float *out, FlowConstants k,
                          int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float left = i > 0 ? flux[i - 1] : k.far_pressure, right = i < n - 1 ? flux[i + 1] : k.far_pressure;
  float diffusion = k.viscosity * (left - 2.0f * flux[i] + right);
  out[i] = density[i] - k.cfl * step[i] * (right - left) / (k.gamma - 1.0f) + diffusion;
}

// Rates of each reaction at each grid point from its Arrhenius constants
// (prefactor, temperature exponent, activation energy); reaction-major
// output, as chemistry kernels store species and reactions by grid point.
__kernel void reaction_rates(__global const float *temperature, __constant float *log_a,
                             __constant float *beta, __constant float *activation,
                             __global float *rates, int points, int reactions) {
  int p = get_global_id(0);
  if (p >= points)
    return;
  float t = temperature[p], log_t = log(t), inv_rt = 1.0f / (8.314f * t);
  for (int r = 0; r < reactions; ++r)
    rates[r * points + p] = exp(log_a[r] + beta[r] * log_t - activation[r] * inv_rt);
}

// A search down an implicit B-tree of order 16: node m's children are
// 16m + 1 .. 16m + 16, each node's 16 keys rising; the leaf reached and
// the slot are stored.
__kernel void implicit_btree(__global const int *keys, __global const int *queries,
                             __global int *found, int depth, int n) {
  int q = get_global_id(0);
  if (q >= n)
    return;
  int key = queries[q], node = 0, slot = 0;
  for (int level = 0; level < depth; ++level) {
    slot = 0;
    while (slot < 15 && keys[node * 16 + slot] < key)
      ++slot;
    if (level + 1 < depth)
      node = node * 16 + 1 + slot;
  }
  found[q] = node * 16 + slot;
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  double fitness;
  double genes[15];
} Creature;

// The fitness of each record: a weighted polynomial of its genes.
__kernel void creature_fitness(__global const Creature *in, __global double *fitness, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  double f = 0.0;
  for (int g = 0; g < 15; ++g)
    f += (g + 1) * in[i].genes[g] * (1.0 - in[i].genes[g]);
  fitness[i] = f;
}

// A copy of each record with some genes replaced by hashed values.
__kernel void creature_mutate(__global const Creature *in, __global Creature *out, float rate,
                              uint seed, int n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  Creature c = in[i];
  for (int g = 0; g < 15; ++g) {
    uint h = (i * 15 + g + seed) * 2654435761u;
    h ^= h >> 13;
    if ((h & 1023) < rate * 1024)
      c.genes[g] = (double)(h >> 10) / 4194304.0;
  }
  out[i] = c;
}

// Spectral flux: the sum of each frame's magnitude increases over the
// previous frame (frames of bins + 1 values, one frame per item).
__kernel void spectral_flux(__global const float *frames, __global float *flux, int bins,
                            int n) {
  int f = get_global_id(0);
  if (f >= n)
    return;
  float s = 0.0f;
  for (int b = 0; b < bins; ++b)
    s += fmax(frames[(f + 1) * bins + b] - frames[f * bins + b], 0.0f);
  flux[f] = s;
}

// The cumulative distribution of all weights by one group: each item sums
// a contiguous stretch, the stretches' sums are scanned in local memory,
// and each item writes its stretch's running sums.
__kernel void cdf_one_group(__global const float *w, __global float *cdf, int n) {
  __local float part[128];
  int lid = get_local_id(0), size = get_local_size(0);
  int per = (n + size - 1) / size, start = lid * per, end = min(start + per, n);
  float s = 0.0f;
  for (int i = start; i < end; ++i)
    s += w[i];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < size; off <<= 1) {
    float add = lid >= off ? part[lid - off] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    part[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float run = lid > 0 ? part[lid - 1] : 0.0f;
  for (int i = start; i < end; ++i) {
    run += w[i];
    cdf[i] = run;
  }
}
