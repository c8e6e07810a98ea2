/* Black-Scholes European option prices: float with built-in math, and
   double where the device has cl_khr_fp64. */
float cnd(float d) {
  return 0.5f * erfc(-d * M_SQRT1_2_F);
}

__kernel void black_scholes(__global const float *spot, __global const float *strike,
                            __global const float *years, __global float *call,
                            __global float *put, float rate, float volatility, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float s = spot[i], x = strike[i], t = years[i];
  float sqrt_t = sqrt(t);
  float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
  float d2 = d1 - volatility * sqrt_t;
  float discount = exp(-rate * t);
  call[i] = s * cnd(d1) - x * discount * cnd(d2);
  put[i] = x * discount * cnd(-d2) - s * cnd(-d1);
}

/* Put-call parity residual of each pair, as a second pass. */
__kernel void parity(__global const float *spot, __global const float *strike,
                     __global const float *years, __global const float *call,
                     __global const float *put, __global float *residual, float rate, int n) {
  int i = get_global_id(0);
  if (i < n)
    residual[i] = call[i] - put[i] - (spot[i] - strike[i] * exp(-rate * years[i]));
}

#ifdef HAVE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void black_scholes_double(__global const double *spot, __global const double *strike,
                                   __global const double *years, __global double *call,
                                   double rate, double volatility, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  double s = spot[i], x = strike[i], t = years[i];
  double d1 = (log(s / x) + (rate + 0.5 * volatility * volatility) * t) / (volatility * sqrt(t));
  double d2 = d1 - volatility * sqrt(t);
  call[i] = s * 0.5 * erfc(-d1 * M_SQRT1_2) - x * exp(-rate * t) * 0.5 * erfc(-d2 * M_SQRT1_2);
}
#endif
