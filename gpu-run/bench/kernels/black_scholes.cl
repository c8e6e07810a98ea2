// European call and put prices under Black-Scholes, one option per work-item.
// The cumulative normal distribution is the 5th-order polynomial of
// Abramowitz and Stegun (26.2.17), absolute error below 7.5e-8.

float cumulative_normal(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float inv_sqrt_2pi = 0.398942280401432678f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float tail = inv_sqrt_2pi * exp(-0.5f * d * d) *
               (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - tail : tail;
}

__kernel void black_scholes(__global const float *spot,
                            __global const float *strike,
                            __global const float *years,
                            __global float *call, __global float *put,
                            float rate, float volatility, uint n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  float s = spot[i], k = strike[i], t = years[i];
  float vol_sqrt_t = volatility * sqrt(t);
  float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) /
             vol_sqrt_t;
  float d2 = d1 - vol_sqrt_t;
  float discounted_strike = k * exp(-rate * t);
  float n1 = cumulative_normal(d1), n2 = cumulative_normal(d2);
  call[i] = s * n1 - discounted_strike * n2;
  put[i] = discounted_strike * (1.0f - n2) - s * (1.0f - n1);
}
