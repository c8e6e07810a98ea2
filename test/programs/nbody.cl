/* N-body: each body's acceleration from all others, bodies staged through
   local memory a tile at a time (float4: position and mass), then an
   integration kernel. */
__kernel void nbody_accel(__global const float4 *pos, __global float4 *acc, __local float4 *tile,
                          int n, float softening) {
  int i = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  float4 p = i < n ? pos[i] : (float4)(0.0f);
  float3 a = (float3)(0.0f);
  for (int base = 0; base < n; base += size) {
    tile[lid] = base + lid < n ? pos[base + lid] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < size; ++j) {
      float3 d = tile[j].xyz - p.xyz;
      float r2 = dot(d, d) + softening;
      float inv = rsqrt(r2);
      a += d * (tile[j].w * inv * inv * inv);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n)
    acc[i] = (float4)(a, 0.0f);
}

__kernel void nbody_step(__global const float4 *pos, __global float4 *vel,
                         __global const float4 *acc, __global float4 *next, int n, float dt) {
  int i = get_global_id(0);
  if (i < n) {
    float4 v = vel[i] + acc[i] * dt;
    vel[i] = v;
    next[i] = (float4)(pos[i].xyz + v.xyz * dt, pos[i].w);
  }
}
