// European call options priced on a binomial tree of STEPS time steps, as
// the AMD APP SDK's BinomialOption: work-group g prices the four options of
// sample g (one per float4 lane, all four walking the same tree at once).
// Each lane's random value r in [0, 1) sets its option's spot price
// (5..30), strike (1..100) and years to expiry (0.25..10). Work-item i
// holds tree node i in __local memory; the group steps back from the
// STEPS + 1 leaves (the payoffs at expiry) to the root, a barrier between
// steps, and work-item 0 writes the root: the four options' prices.
#define STEPS 255
#define RISKFREE 0.02f
#define VOLATILITY 0.30f

__kernel __attribute__((reqd_work_group_size(STEPS + 1, 1, 1)))
void binomial_option(__global const float4 *rand, __global float4 *price) {
  // Two levels of the tree, so that a step reads one while writing the
  // other: one barrier per step instead of two.
  __local float4 call_a[STEPS + 1], call_b[STEPS + 1];
  uint tid = get_local_id(0), bid = get_group_id(0);

  float4 r = rand[bid];
  float4 s = (1.0f - r) * 5.0f + r * 30.0f;
  float4 x = (1.0f - r) * 1.0f + r * 100.0f;
  float4 years = (1.0f - r) * 0.25f + r * 10.0f;
  float4 dt = years * (1.0f / STEPS);
  float4 vsdt = VOLATILITY * sqrt(dt);
  // The up-probability (growth - d) / (u - d) with growth = e^(r dt),
  // u = e^vsdt and d = 1/u: all three are within a few percent of 1, so
  // it is formed from expm1's instead of their differences, which would
  // cancel most of the float's bits (the SDK's form is off by about 1e-4
  // after 255 steps).
  float4 em_r = expm1(RISKFREE * dt), em_u = expm1(vsdt),
         em_d = expm1(-vsdt);
  float4 growth = 1.0f + em_r;
  float4 pu = (em_r - em_d) / (em_u - em_d);
  // Discounted up and down probabilities.
  float4 pu_r = pu / growth, pd_r = (1.0f - pu) / growth;

  // Leaf tid: tid up-moves and STEPS - tid down-moves.
  float4 spot = s * exp(vsdt * (2.0f * tid - STEPS));
  call_a[tid] = fmax(spot - x, 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);

  // Two steps per pass, a_level -> b_level -> a_level; STEPS is odd, so
  // the last pass makes the root in call_b[0] and its second half is empty.
  for (int j = STEPS; j > 0; j -= 2) {
    if (tid < j)
      call_b[tid] = pu_r * call_a[tid + 1] + pd_r * call_a[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < j - 1)
      call_a[tid] = pu_r * call_b[tid + 1] + pd_r * call_b[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    price[bid] = call_b[0];
}
