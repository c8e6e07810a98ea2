// The Box-Muller transform: each work-item turns the pair of uniform
// numbers (u1, u2) in (0, 1] at uniform[2i], uniform[2i + 1] into two
// independent standard normal numbers,
//   normal[2i] = r cos(2 pi u2),  normal[2i + 1] = r sin(2 pi u2),
//   r = sqrt(-2 ln u1).
// cospi and sinpi take the angle as 2 u2 (exact in float) instead of
// rounding 2 pi u2 first, whose error would be the output's error wherever
// the cosine or sine is near 0.
__kernel void box_muller(__global const float2 *uniform,
                         __global float2 *normal, uint pairs) {
  uint i = get_global_id(0);
  if (i >= pairs)
    return;
  float2 u = uniform[i];
  float r = sqrt(-2.0f * log(u.x));
  float half_turns = 2.0f * u.y;
  normal[i] = (float2)(r * cospi(half_turns), r * sinpi(half_turns));
}
