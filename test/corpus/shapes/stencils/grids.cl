// corpus-source: written here for SKMD: stencil kernels in the shapes public suites have (a chip temperature step with clamped neighbours, several steps of a tile iterated in local memory with a shrinking valid region, the two SRAD passes, one and several rows of a minimum-path wavefront, a local tile whose halo the edge items load, the wave equation, D2Q9 streaming and collision on planes of one buffer, the game of life on bytes, fluxes over neighbour lists with wall and far-field codes, a 3-D sweep that marches along z with a register queue and a local slice, a finite difference with __constant coefficients, periodic upwinding, a red-black relaxation in place, 1-D FDTD)
// corpus-run: chip_heat --global=80,64 --local=16,16 --arg=80*60 --arg=80*60 --arg=80*60:zero --arg=80 --arg=60 --arg=0.1 --arg=0.05 --arg=0.05 --arg=0.2 --arg=0.01
// corpus-run: heat_pyramid --global=64,64 --local=16,16 --arg=48*48 --arg=48*48 --arg=48*48:zero --arg=48 --arg=48 --arg=2 --arg=0.15
// corpus-run: srad_coefficients --global=64,64 --local=16,16 --arg=64*64:1..2 --arg=64*64:zero --arg=64*64:zero --arg=64*64:zero --arg=64*64:zero --arg=64*64:zero --arg=64 --arg=64 --arg=0.05
// corpus-run: srad_update --global=64,64 --local=16,16 --arg=64*64:1..2 --arg=64*64 --arg=64*64 --arg=64*64 --arg=64*64 --arg=64*64 --arg=64*64:zero --arg=64 --arg=64 --arg=0.5
// corpus-run: path_row --global=1024 --local=128 --arg=1000 --arg=20*1000:0..9 --arg=1000:zero --arg=7 --arg=1000
// corpus-run: path_rows_local --global=1152 --local=128 --arg=1000:0..9 --arg=20*1000:0..9 --arg=1000:zero --arg=4 --arg=3 --arg=1000
// corpus-run: heat_halo_tile --global=64,64 --local=16,16 --arg=60*60 --arg=60*60:zero --arg=60 --arg=60 --arg=0.2
// corpus-run: wave_step --global=128,64 --local=32,8 --arg=120*60 --arg=120*60 --arg=120*60:zero --arg=120 --arg=60 --arg=0.25
// corpus-run: d2q9_step --global=64,32 --local=16,8 --arg=9*64*32:0.05..0.15 --arg=9*64*32:zero --arg=64 --arg=32 --arg=1.2
// corpus-run: life --global=64,64 --local=16,16 --arg=64*64:0..1 --arg=64*64:zero --arg=64 --arg=64
// corpus-run: cell_fluxes --global=1024 --local=128 --arg=1000:0.5..1.5 --arg=1000:-2..999 --arg=1000:zero --arg=1000 --arg=0.1
// corpus-run: march_z --global=32,32 --local=16,16 --arg=32*32*24 --arg=32*32*24:zero --arg=32 --arg=32 --arg=24 --arg=0.1
// corpus-run: derivative8 --global=1024 --local=128 --arg=1000 --arg=5:0..1 --arg=1000:zero --arg=1000 --arg=0.5
// corpus-run: upwind_periodic --global=512 --local=64 --arg=500 --arg=500:zero --arg=500 --arg=0.3 --arg=500
// corpus-run: red_black --global=64,64 --local=16,16 --arg=64*64 --arg=64*64 --arg=64 --arg=64 --arg=0
// corpus-run: red_black --global=64,64 --local=16,16 --arg=64*64 --arg=64*64 --arg=64 --arg=64 --arg=1
// corpus-run: fdtd_1d --global=512 --local=64 --arg=500 --arg=500 --arg=500:zero --arg=500:zero --arg=500 --arg=0.5 --arg=500
// corpus-note: every kernel here was written for this corpus; each launch is one step from fresh inputs into separate outputs, except red_black, which updates one colour in place from the other

inline int clampi(int v, int hi) { return min(max(v, 0), hi - 1); }

// One step of a chip's temperature: the four neighbours clamped at the
// edges, the power dissipated, the ambient's pull.
__kernel void chip_heat(__global const float *power, __global const float *temp,
                        __global float *out, int w, int h, float cap, float rx, float ry,
                        float rz, float step) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float t = temp[y * w + x];
  float n = temp[clampi(y - 1, h) * w + x], s = temp[clampi(y + 1, h) * w + x];
  float e = temp[y * w + clampi(x + 1, w)], west = temp[y * w + clampi(x - 1, w)];
  float delta = step / cap *
                (power[y * w + x] + (s + n - 2.0f * t) * ry + (e + west - 2.0f * t) * rx +
                 (80.0f - t) * rz);
  out[y * w + x] = t + delta;
}

// Several heat steps per launch: a group loads a 16 x 16 tile (its
// neighbours' cells included) and iterates in local memory; after each
// step one more ring at the tile's edge is invalid, so groups overlap by
// 2 * steps and store only their valid middle.
__kernel void heat_pyramid(__global const float *temp, __global const float *power,
                           __global float *out, int w, int h, int steps, float k) {
  __local float cur[16][16], nxt[16][16];
  int lx = get_local_id(0), ly = get_local_id(1);
  int valid = 16 - 2 * steps;
  int x = get_group_id(0) * valid - steps + lx, y = get_group_id(1) * valid - steps + ly;
  int cx = clampi(x, w), cy = clampi(y, h);
  cur[ly][lx] = temp[cy * w + cx];
  float p = power[cy * w + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < steps; ++s) {
    float v = cur[ly][lx];
    if (lx > 0 && lx < 15 && ly > 0 && ly < 15)
      v += k * (cur[ly - 1][lx] + cur[ly + 1][lx] + cur[ly][lx - 1] + cur[ly][lx + 1] -
                4.0f * v) +
           0.01f * p;
    nxt[ly][lx] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    cur[ly][lx] = nxt[ly][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  bool inside = lx >= steps && lx < 16 - steps && ly >= steps && ly < 16 - steps;
  if (inside && x >= 0 && x < w && y >= 0 && y < h)
    out[y * w + x] = cur[ly][lx];
}

// SRAD, first pass: the four differences and the diffusion coefficient
// from the image's local statistics against the speckle scale q0sq.
__kernel void srad_coefficients(__global const float *img, __global float *dn,
                                __global float *ds, __global float *dw, __global float *de,
                                __global float *c, int w, int h, float q0sq) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  float v = img[i];
  float n = img[clampi(y - 1, h) * w + x] - v, s = img[clampi(y + 1, h) * w + x] - v;
  float west = img[y * w + clampi(x - 1, w)] - v, e = img[y * w + clampi(x + 1, w)] - v;
  float g2 = (n * n + s * s + west * west + e * e) / (v * v);
  float l = (n + s + west + e) / v;
  float num = 0.5f * g2 - 0.0625f * l * l;
  float den = 1.0f + 0.25f * l;
  float q = num / (den * den);
  float coef = 1.0f / (1.0f + (q - q0sq) / (q0sq * (1.0f + q0sq)));
  dn[i] = n;
  ds[i] = s;
  dw[i] = west;
  de[i] = e;
  c[i] = clamp(coef, 0.0f, 1.0f);
}

// SRAD, second pass: the divergence from this cell's and its south and
// east neighbours' coefficients.
__kernel void srad_update(__global const float *img, __global const float *dn,
                          __global const float *ds, __global const float *dw,
                          __global const float *de, __global const float *c, __global float *out,
                          int w, int h, float lambda) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  float cn = c[i], cw = c[i];
  float cs = c[clampi(y + 1, h) * w + x], ce = c[y * w + clampi(x + 1, w)];
  float div = cn * dn[i] + cs * ds[i] + cw * dw[i] + ce * de[i];
  out[i] = img[i] + 0.25f * lambda * div;
}

// One row of a minimum path down a grid: each column takes the cheapest of
// the three cells above it.
__kernel void path_row(__global const int *prev, __global const int *costs, __global int *next,
                       int row, int cols) {
  int x = get_global_id(0);
  if (x >= cols)
    return;
  int best = prev[x];
  if (x > 0)
    best = min(best, prev[x - 1]);
  if (x < cols - 1)
    best = min(best, prev[x + 1]);
  next[x] = best + costs[row * cols + x];
}

// Several rows per launch: each group keeps its columns and a halo of
// `rows` columns each side in local memory and computes the rows there;
// only the middle, untouched by the halo's error, is stored.
__kernel void path_rows_local(__global const int *prev, __global const int *costs,
                              __global int *next, int first_row, int rows, int cols) {
  __local int cur[128], nxt[128];
  int lid = get_local_id(0), size = get_local_size(0);
  int valid = size - 2 * rows;
  int x = get_group_id(0) * valid - rows + lid;
  int cx = clampi(x, cols);
  cur[lid] = prev[cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = 0; r < rows; ++r) {
    int best = cur[lid];
    if (lid > 0 && x > 0)
      best = min(best, cur[lid - 1]);
    if (lid < size - 1 && x < cols - 1)
      best = min(best, cur[lid + 1]);
    nxt[lid] = best + costs[(first_row + r) * cols + cx];
    barrier(CLK_LOCAL_MEM_FENCE);
    cur[lid] = nxt[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid >= rows && lid < size - rows && x >= 0 && x < cols)
    next[x] = cur[lid];
}

// A diffusion step from a 18 x 18 local tile: the group's cells and a
// one-cell halo loaded by the items on the tile's edges.
__kernel void heat_halo_tile(__global const float *in, __global float *out, int w, int h,
                             float k) {
  __local float t[18][18];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  int cx = clampi(x, w), cy = clampi(y, h);
  t[ly + 1][lx + 1] = in[cy * w + cx];
  if (lx == 0)
    t[ly + 1][0] = in[cy * w + clampi(x - 1, w)];
  if (lx == 15)
    t[ly + 1][17] = in[cy * w + clampi(x + 1, w)];
  if (ly == 0)
    t[0][lx + 1] = in[clampi(y - 1, h) * w + cx];
  if (ly == 15)
    t[17][lx + 1] = in[clampi(y + 1, h) * w + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x < w && y < h) {
    float c = t[ly + 1][lx + 1];
    out[y * w + x] =
        c + k * (t[ly][lx + 1] + t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2] - 4.0f * c);
  }
}

// The wave equation: the next field from the current and the previous;
// the boundary held at zero.
__kernel void wave_step(__global const float *prev, __global const float *cur,
                        __global float *next, int w, int h, float c2) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    next[i] = 0.0f;
    return;
  }
  float lap = cur[i - 1] + cur[i + 1] + cur[i - w] + cur[i + w] - 4.0f * cur[i];
  next[i] = 2.0f * cur[i] - prev[i] + c2 * lap;
}

// Lattice Boltzmann D2Q9: each cell pulls its nine populations from its
// neighbours (periodic), then relaxes them towards equilibrium. Population
// q of all cells is plane q of the buffer.
__constant int EX[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant int EY[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
__constant float WEIGHT[9] = {4.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9,
                              1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

__kernel void d2q9_step(__global const float *f, __global float *f_out, int w, int h,
                        float omega) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int cells = w * h;
  float pop[9], rho = 0.0f, ux = 0.0f, uy = 0.0f;
  for (int q = 0; q < 9; ++q) {
    int sx = (x - EX[q] + w) % w, sy = (y - EY[q] + h) % h;
    pop[q] = f[q * cells + sy * w + sx];
    rho += pop[q];
    ux += pop[q] * EX[q];
    uy += pop[q] * EY[q];
  }
  ux /= rho;
  uy /= rho;
  float usq = ux * ux + uy * uy;
  for (int q = 0; q < 9; ++q) {
    float eu = EX[q] * ux + EY[q] * uy;
    float eq = WEIGHT[q] * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - 1.5f * usq);
    f_out[q * cells + y * w + x] = pop[q] + omega * (eq - pop[q]);
  }
}

// A generation of the game of life on a torus.
__kernel void life(__global const uchar *in, __global uchar *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int alive = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx || dy)
        alive += in[((y + dy + h) % h) * w + (x + dx + w) % w];
  uchar me = in[y * w + x];
  out[y * w + x] = (alive == 3 || (me && alive == 2)) ? 1 : 0;
}

// Fluxes over an unstructured mesh: each cell's four faces name a
// neighbour, or -1 for a wall (reflecting) or -2 for the far field. The
// variables (density, two momenta, energy) are a float4 per cell.
__kernel void cell_fluxes(__global const float4 *vars, __global const int4 *neighbours,
                          __global float4 *flux, int cells, float dt) {
  int i = get_global_id(0);
  if (i >= cells)
    return;
  float4 me = vars[i], acc = (float4)(0.0f);
  const float4 far_field = (float4)(1.0f, 0.2f, 0.0f, 2.5f);
  int nb[4] = {neighbours[i].x, neighbours[i].y, neighbours[i].z, neighbours[i].w};
  for (int f = 0; f < 4; ++f) {
    float4 other;
    if (nb[f] >= 0)
      other = vars[nb[f]];
    else if (nb[f] == -1)
      other = (float4)(me.x, -me.y, -me.z, me.w);
    else
      other = far_field;
    float speed = sqrt(1.4f * fabs(other.w / other.x)) + sqrt(1.4f * fabs(me.w / me.x));
    acc += 0.5f * speed * (other - me);
  }
  flux[i] = me + dt * acc;
}

// A 7-point diffusion over a 3-D grid swept along z: each item keeps the
// cells below and above in registers and shares its current slice through
// local memory, with two barriers per plane.
__kernel void march_z(__global const float *in, __global float *out, int nx, int ny, int nz,
                      float k) {
  __local float slice[16][16];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  int plane = nx * ny, at = y * nx + x;
  bool mine = x < nx && y < ny;
  float below = mine ? in[at] : 0.0f, cur = below;
  for (int z = 0; z < nz; ++z) {
    float above = (mine && z + 1 < nz) ? in[(z + 1) * plane + at] : cur;
    barrier(CLK_LOCAL_MEM_FENCE);
    slice[ly][lx] = cur;
    barrier(CLK_LOCAL_MEM_FENCE);
    float west = lx > 0 ? slice[ly][lx - 1] : (x > 0 ? in[z * plane + at - 1] : cur);
    float east = lx < 15 ? slice[ly][lx + 1] : (x + 1 < nx ? in[z * plane + at + 1] : cur);
    float south = ly > 0 ? slice[ly - 1][lx] : (y > 0 ? in[z * plane + at - nx] : cur);
    float north = ly < 15 ? slice[ly + 1][lx] : (y + 1 < ny ? in[z * plane + at + nx] : cur);
    if (mine)
      out[z * plane + at] = cur + k * (west + east + south + north + below + above - 6.0f * cur);
    below = cur;
    cur = above;
  }
}

// An eighth-order first derivative: coefficients in __constant memory, the
// group's span and a four-cell halo each side in local memory.
__kernel void derivative8(__global const float *u, __constant float *coef, __global float *du,
                          int n, float inv_dx) {
  __local float t[128 + 8];
  int lid = get_local_id(0), i = get_global_id(0);
  int base = get_group_id(0) * get_local_size(0) - 4;
  for (int j = lid; j < 128 + 8; j += get_local_size(0))
    t[j] = u[clampi(base + j, n)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i >= n)
    return;
  float d = 0.0f;
  for (int r = 1; r <= 4; ++r)
    d += coef[r] * (t[lid + 4 + r] - t[lid + 4 - r]);
  du[i] = d * inv_dx;
}

// First-order upwind advection on a periodic line, the velocity's sign
// choosing the side.
__kernel void upwind_periodic(__global const float *u, __global float *next,
                              __global const float *velocity, float courant, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float v = velocity[i] - 0.5f;
  float left = u[(i + n - 1) % n], right = u[(i + 1) % n];
  float grad = v > 0.0f ? u[i] - left : right - u[i];
  next[i] = u[i] - courant * v * grad;
}

// Red-black relaxation in place: the cells of one colour take the mean of
// their four neighbours (of the other colour) and the source term.
__kernel void red_black(__global float *u, __global const float *f, int w, int h, int colour) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1 || ((x + y) & 1) != colour)
    return;
  int i = y * w + x;
  u[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - f[i]);
}

// One-dimensional FDTD: the magnetic field from the electric one and the
// electric one from the new magnetic one (each item also recomputes its
// left neighbour's magnetic value, so no group reads another's output).
__kernel void fdtd_1d(__global const float *e, __global const float *hfield,
                      __global float *e_out, __global float *h_out,
                      __global const float *permittivity, float courant, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float h_here = hfield[i] + courant * (e[min(i + 1, n - 1)] - e[i]);
  float h_left = i > 0 ? hfield[i - 1] + courant * (e[i] - e[i - 1]) : 0.0f;
  h_out[i] = h_here;
  e_out[i] = e[i] + courant / (1.0f + permittivity[i]) * (h_here - h_left);
}
