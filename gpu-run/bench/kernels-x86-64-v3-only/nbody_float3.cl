// One time step of an all-pairs n-body simulation as many OpenCL samples
// write it: float3 arithmetic on float4 loads straight from global memory
// (no __local tiles), dot and rsqrt. Bodies are float4: position in xyz,
// mass in w; eps2 softens close encounters (a body with itself adds zero).
__kernel void nbody_float3(__global const float4 *pos, __global const float4 *vel,
                           __global float4 *new_pos, __global float4 *new_vel,
                           float dt, float eps2, int n) {
  int i = get_global_id(0);
  float4 me = pos[i];
  float3 p = me.xyz;
  float3 acc = (float3)(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < n; ++j) {
    float4 other = pos[j];
    float3 d = other.xyz - p;
    float inv_r = rsqrt(dot(d, d) + eps2);
    acc += d * (other.w * inv_r * inv_r * inv_r);
  }
  float3 v = vel[i].xyz + acc * dt;
  new_vel[i] = (float4)(v, 0.0f);
  new_pos[i] = (float4)(p + v * dt, me.w);
}
