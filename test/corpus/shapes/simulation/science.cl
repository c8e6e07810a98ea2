// corpus-source: written here for SKMD: scientific and financial kernels in the shapes public suites and SDK samples have (all-pairs n-body through local tiles, Lennard-Jones forces over neighbour lists, a cell-list density sum, Black-Scholes on float4, binomial option trees in local memory one group per option, Monte Carlo paths from a counter-based generator, pi by hit counting with local and global atomics, an embarrassingly parallel Gaussian-pair tally, Mandelbrot escape counts, ray and sphere intersections over a __constant scene, k-means assignment and per-group centroid sums, a Verlet integration step, an Ising energy change, random walks, a heat-bath of particles with struct records)
// corpus-run: nbody_tiles --global=512 --local=64 --arg=500 --arg=500 --arg=500:zero --arg=500:zero --arg=0.01 --arg=0.05 --arg=500
// corpus-run: lj_neighbours --global=1024 --local=128 --arg=1000 --arg=1000*16:0..999 --arg=1000:zero --arg=16 --arg=1000 --arg=6.25 --arg=1.0 --arg=1.0
// corpus-run: cell_density --global=512 --local=64 --arg=512 --arg=512:zero --arg=512 --arg=0.2
// corpus-run: black_scholes4 --global=256 --local=64 --arg=256:0.1..1.0 --arg=256:0.1..1.0 --arg=256:0.1..2.0 --arg=256:zero --arg=256:zero --arg=0.02 --arg=0.3
// corpus-run: binomial_tree --global=32*64 --local=64 --arg=32:0.5..1.5 --arg=32:0.5..1.5 --arg=32:0.1..2.0 --arg=32:zero --arg=0.03 --arg=0.25
// corpus-run: monte_carlo_paths --global=1024 --local=128 --arg=1024:zero --arg=1.0 --arg=1.05 --arg=0.02 --arg=0.3 --arg=1.0 --arg=64 --arg=42
// corpus-run: pi_hits --global=4096 --local=256 --arg=1:zero --arg=32 --arg=7
// corpus-run: gaussian_pairs --global=1024 --local=128 --arg=8*10:zero --arg=16 --arg=99
// corpus-run: mandelbrot --global=128,96 --local=16,16 --arg=128*96:zero --arg=128 --arg=96 --arg=100
// corpus-run: ray_spheres --global=64,64 --local=16,16 --arg=8 --arg=64*64:zero --arg=64 --arg=64 --arg=8
// corpus-run: kmeans_assign --global=1024 --local=128 --arg=1000*4 --arg=6*4 --arg=1000:zero --arg=1000 --arg=6 --arg=4
// corpus-run: kmeans_group_sums --global=1024 --local=128 --arg=1000 --arg=1000:0..5 --arg=8*6:zero --arg=8*6:zero --arg=1000
// corpus-run: verlet_step --global=512 --local=64 --arg=500 --arg=500 --arg=500 --arg=500:zero --arg=500:zero --arg=0.01 --arg=500
// corpus-run: ising_delta --global=64,64 --local=16,16 --arg=64*64:0..1 --arg=64*64:zero --arg=64 --arg=0.44
// corpus-run: random_walks --global=1024 --local=64 --arg=1024:zero --arg=200 --arg=3
// corpus-run: thermostat --global=256 --local=64 --arg=250 --arg=250:zero --arg=250 --arg=1.5
// corpus-note: every kernel here was written for this corpus; random numbers come from counter-based hashes of the item's index, so every split draws the same ones

// Acceleration of each body from all bodies, the positions (xyz, mass in
// w) streamed through a local tile; then a step of velocity and position.
__kernel void nbody_tiles(__global const float4 *pos, __global const float4 *vel,
                          __global float4 *pos_out, __global float4 *vel_out, float dt,
                          float soften, int n) {
  __local float4 tile[64];
  int i = get_global_id(0), lid = get_local_id(0);
  float4 me = pos[min(i, n - 1)];
  float3 acc = (float3)(0.0f);
  for (int start = 0; start < n; start += 64) {
    tile[lid] = start + lid < n ? pos[start + lid] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < 64; ++j) {
      float3 d = tile[j].xyz - me.xyz;
      float r2 = dot(d, d) + soften * soften;
      float inv = rsqrt(r2);
      acc += d * (tile[j].w * inv * inv * inv);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n) {
    float4 v = vel[i];
    v.xyz += acc * dt;
    vel_out[i] = v;
    pos_out[i] = (float4)(me.xyz + v.xyz * dt, me.w);
  }
}

// Lennard-Jones forces over a neighbour list (neighbour-major, max_nb per
// atom), within a cut-off.
__kernel void lj_neighbours(__global const float4 *pos, __global const int *neighbours,
                            __global float4 *force, int max_nb, int atoms, float cutsq,
                            float eps, float sigma6) {
  int i = get_global_id(0);
  if (i >= atoms)
    return;
  float4 me = pos[i], f = (float4)(0.0f);
  for (int k = 0; k < max_nb; ++k) {
    int j = neighbours[k * atoms + i];
    float4 d = me - pos[j];
    d.w = 0.0f;
    float r2 = dot(d, d);
    if (r2 < cutsq && r2 > 0.0f) {
      float inv2 = 1.0f / r2, inv6 = inv2 * inv2 * inv2 * sigma6;
      f += d * (24.0f * eps * inv2 * inv6 * (2.0f * inv6 - 1.0f));
    }
  }
  force[i] = f;
}

// A smoothed density at each particle from the particles of its own and
// the neighbouring cells of a 1-D cell list (sixteen particles per cell).
__kernel void cell_density(__global const float2 *particles, __global float *density, int n,
                           float radius) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  int cell = i / 16, cells = (n + 15) / 16;
  float2 me = particles[i];
  float rho = 0.0f;
  for (int c = max(cell - 1, 0); c <= min(cell + 1, cells - 1); ++c)
    for (int j = c * 16; j < min(c * 16 + 16, n); ++j) {
      float q = distance(me, particles[j]) / radius;
      if (q < 1.0f)
        rho += (1.0f - q) * (1.0f - q) * (1.0f - q);
    }
  density[i] = rho;
}

// Black-Scholes call and put prices, four options per item.
inline float4 normal_cdf4(float4 x) { return 0.5f * erfc(-x * M_SQRT1_2_F); }

__kernel void black_scholes4(__global const float4 *spot, __global const float4 *strike,
                             __global const float4 *years, __global float4 *call,
                             __global float4 *put, float rate, float vol) {
  int i = get_global_id(0);
  float4 s = spot[i], k = strike[i], t = years[i];
  float4 sqt = sqrt(t);
  float4 d1 = (log(s / k) + (rate + 0.5f * vol * vol) * t) / (vol * sqt);
  float4 d2 = d1 - vol * sqt;
  float4 disc = k * exp(-rate * t);
  call[i] = s * normal_cdf4(d1) - disc * normal_cdf4(d2);
  put[i] = disc * normal_cdf4(-d2) - s * normal_cdf4(-d1);
}

// A European call priced on a 63-step binomial tree, one option per group:
// the leaves' values in local memory, folded back a level per step.
__kernel void binomial_tree(__global const float *spot, __global const float *strike,
                            __global const float *years, __global float *price, float rate,
                            float vol) {
  __local float v[64];
  int o = get_group_id(0), lid = get_local_id(0), steps = get_local_size(0) - 1;
  float dt = years[o] / steps;
  float up = exp(vol * sqrt(dt)), down = 1.0f / up;
  float p = (exp(rate * dt) - down) / (up - down), disc = exp(-rate * dt);
  float leaf = spot[o] * pown(up, lid) * pown(down, steps - lid);
  v[lid] = fmax(leaf - strike[o], 0.0f);
  for (int level = steps; level > 0; --level) {
    barrier(CLK_LOCAL_MEM_FENCE);
    float folded = lid < level ? disc * (p * v[lid + 1] + (1.0f - p) * v[lid]) : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < level)
      v[lid] = folded;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    price[o] = v[0];
}

// A counter-based generator: a 32-bit hash of (key, counter), then a
// uniform in (0, 1).
inline uint mix32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

inline float uniform01(uint key, uint counter) {
  return (mix32(key * 0x9E3779B9U ^ mix32(counter)) >> 8) * (1.0f / 16777216.0f) +
         0.5f / 16777216.0f;
}

// The discounted payoff of an Asian call along one geometric Brownian
// path per item (Box-Muller normals).
__kernel void monte_carlo_paths(__global float *payoff, float s0, float strike, float rate,
                                float vol, float years, int steps, uint seed) {
  uint i = get_global_id(0);
  float dt = years / steps, s = s0, sum = 0.0f;
  for (int t = 0; t < steps; t += 2) {
    float u1 = uniform01(seed + i, 2 * t), u2 = uniform01(seed + i, 2 * t + 1);
    float r = sqrt(-2.0f * log(u1)), c, sn = sincos(2.0f * M_PI_F * u2, &c);
    float z[2] = {r * c, r * sn};
    for (int k = 0; k < 2; ++k) {
      s *= exp((rate - 0.5f * vol * vol) * dt + vol * sqrt(dt) * z[k]);
      sum += s;
    }
  }
  payoff[i] = exp(-rate * years) * fmax(sum / steps - strike, 0.0f);
}

// Points in the unit square that fall in the quarter circle: counted per
// group with a local atomic, the group's count added to the total.
__kernel void pi_hits(__global uint *hits, int per_item, uint seed) {
  __local uint group_hits;
  uint i = get_global_id(0);
  if (get_local_id(0) == 0)
    group_hits = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint mine = 0;
  for (int k = 0; k < per_item; ++k) {
    float x = uniform01(seed ^ i, 2 * k), y = uniform01(seed ^ i, 2 * k + 1);
    mine += x * x + y * y <= 1.0f;
  }
  atomic_add(&group_hits, mine);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_add(hits, group_hits);
}

// Gaussian pairs tallied by annulus (the NAS EP shape): each group keeps
// ten counts in local memory and stores them in its row.
__kernel void gaussian_pairs(__global uint *counts, int per_item, uint seed) {
  __local uint c[10];
  int lid = get_local_id(0);
  if (lid < 10)
    c[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint i = get_global_id(0);
  for (int k = 0; k < per_item; ++k) {
    float x = 2.0f * uniform01(seed + i, 2 * k) - 1.0f;
    float y = 2.0f * uniform01(seed + i, 2 * k + 1) - 1.0f;
    float t = x * x + y * y;
    if (t <= 1.0f && t > 0.0f) {
      float f = sqrt(-2.0f * log(t) / t);
      int annulus = (int)fmax(fabs(x * f), fabs(y * f));
      if (annulus < 10)
        atomic_inc(&c[annulus]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 10)
    counts[get_group_id(0) * 10 + lid] = c[lid];
}

// Escape counts of the Mandelbrot set over a 2-D range.
__kernel void mandelbrot(__global int *iterations, int w, int h, int limit) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float cr = -2.0f + 2.6f * x / w, ci = -1.2f + 2.4f * y / h;
  float zr = 0.0f, zi = 0.0f;
  int n = 0;
  while (n < limit && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++n;
  }
  iterations[y * w + x] = n;
}

// The nearest sphere (centre xyz, radius w) each primary ray hits, shaded
// by the angle to the light; spheres in __constant memory.
__kernel void ray_spheres(__constant float4 *spheres, __global float *shade, int w, int h,
                          int count) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float3 dir = normalize((float3)((x - w / 2) / (float)w, (y - h / 2) / (float)h, 1.0f));
  float nearest = INFINITY, value = 0.0f;
  for (int s = 0; s < count; ++s) {
    float3 c = spheres[s].xyz * (float3)(2.0f, 2.0f, 4.0f) + (float3)(-1.0f, -1.0f, 1.0f);
    float r = 0.2f + 0.3f * spheres[s].w;
    float b = dot(dir, c), disc = b * b - dot(c, c) + r * r;
    if (disc > 0.0f) {
      float t = b - sqrt(disc);
      if (t > 0.0f && t < nearest) {
        nearest = t;
        float3 normal = (dir * t - c) / r;
        value = fmax(dot(normal, normalize((float3)(-1.0f, 1.0f, -1.0f))), 0.0f);
      }
    }
  }
  shade[y * w + x] = value;
}

// k-means: the nearest centre of each point (features point-major).
__kernel void kmeans_assign(__global const float *points, __global const float *centres,
                            __global int *member, int n, int k, int features) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  int best = 0;
  float best_d = INFINITY;
  for (int c = 0; c < k; ++c) {
    float d = 0.0f;
    for (int f = 0; f < features; ++f) {
      float diff = points[i * features + f] - centres[c * features + f];
      d += diff * diff;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  member[i] = best;
}

// k-means: each group's sums of its points' features per centre (six
// centres of four features) and counts, reduced in local memory by the
// group's first items, stored in the group's rows.
__kernel void kmeans_group_sums(__global const float4 *points, __global const int *member,
                                __global float4 *sums, __global int *counts, int n) {
  __local float4 p[128];
  __local int m[128];
  int lid = get_local_id(0), i = get_global_id(0), g = get_group_id(0);
  p[lid] = i < n ? points[i] : (float4)(0.0f);
  m[lid] = i < n ? member[i] : -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 6) {
    float4 s = (float4)(0.0f);
    int c = 0;
    for (int j = 0; j < 128; ++j)
      if (m[j] == lid) {
        s += p[j];
        ++c;
      }
    sums[g * 6 + lid] = s;
    counts[g * 6 + lid] = c;
  }
}

// Velocity Verlet: positions from velocities and forces, velocities half
// a step on.
__kernel void verlet_step(__global const float4 *pos, __global const float4 *vel,
                          __global const float4 *acc, __global float4 *pos_out,
                          __global float4 *vel_out, float dt, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float4 v = vel[i] + 0.5f * dt * acc[i];
  pos_out[i] = pos[i] + dt * v;
  vel_out[i] = v;
}

// The acceptance probability of flipping each spin of a periodic Ising
// lattice (spins stored as 0 or 1).
__kernel void ising_delta(__global const uchar *spins, __global float *accept, int side,
                          float beta) {
  int x = get_global_id(0), y = get_global_id(1);
  int s = 2 * spins[y * side + x] - 1;
  int sum = 0;
  sum += 2 * spins[y * side + (x + 1) % side] - 1;
  sum += 2 * spins[y * side + (x + side - 1) % side] - 1;
  sum += 2 * spins[((y + 1) % side) * side + x] - 1;
  sum += 2 * spins[((y + side - 1) % side) * side + x] - 1;
  accept[y * side + x] = fmin(1.0f, exp(-2.0f * beta * s * sum));
}

// Random walks on a line: each item's final position after the steps.
__kernel void random_walks(__global int *final_pos, int steps, uint seed) {
  uint i = get_global_id(0);
  int x = 0;
  for (int t = 0; t < steps; ++t)
    x += (mix32(mix32(seed + i) + t) & 1) ? 1 : -1;
  final_pos[i] = x;
}

// Particle records (a struct of a position, a velocity and a mass) with
// their kinetic energy rescaled towards a target temperature.
typedef struct {
  float3 position;
  float3 velocity;
  float mass;
} Particle;

__kernel void thermostat(__global const Particle *in, __global Particle *out, int n,
                         float target) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  Particle p = in[i];
  float kinetic = 0.5f * (p.mass + 1.0f) * dot(p.velocity, p.velocity);
  float scale = sqrt(target / (kinetic + 1.0f));
  p.velocity *= scale;
  p.position += p.velocity * 0.01f;
  out[i] = p;
}
