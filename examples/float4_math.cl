// Vector math on float4: a damped oscillation per element, exercising
// exp, sin, cos, sqrt, fma, mix and clamp on 4-wide vectors.
__kernel void damped_wave(__global const float4 *t, __global const float4 *phase,
                          __global float4 *out, float decay, float omega) {
  size_t i = get_global_id(0);
  float4 x = t[i];
  float4 p = phase[i];
  float4 envelope = exp(-decay * x);
  float4 wave = sin(fma((float4)(omega), x, p)) + 0.5f * cos(omega * x);
  float4 r = envelope * wave + sqrt(fabs(wave)) * 0.01f;
  out[i] = clamp(mix(r, wave, 0.25f), -1.0f, 1.0f);
}
