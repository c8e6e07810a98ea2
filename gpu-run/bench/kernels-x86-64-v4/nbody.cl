// One time step of an all-pairs gravitational n-body simulation. Bodies are
// float4: position in xyz, mass in w. Each work-group walks the bodies in
// tiles of TILE, staged in __local memory by the whole group; the softening
// eps2 keeps the force finite when two bodies are close (and for a body
// with itself, whose contribution is then zero). n must be a multiple of
// TILE.
#define TILE 256

__kernel __attribute__((reqd_work_group_size(TILE, 1, 1)))
void nbody_step(__global const float4 *pos, __global const float4 *vel,
                __global float4 *new_pos, __global float4 *new_vel,
                float dt, float eps2, uint n) {
  __local float4 tile[TILE];
  uint i = get_global_id(0), lid = get_local_id(0);
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (uint base = 0; base < n; base += TILE) {
    tile[lid] = pos[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < TILE; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float inv_r = rsqrt(dx * dx + dy * dy + dz * dz + eps2);
      float s = q.w * inv_r * inv_r * inv_r;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = vel[i];
  v.x += ax * dt;
  v.y += ay * dt;
  v.z += az * dt;
  new_vel[i] = v;
  new_pos[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}
