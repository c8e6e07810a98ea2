// exp of large arguments, then a bit cast: the last bits of a float's exp
// differ between SKMD's builtins and PoCL's, and as_float of a double does
// not build, so the double-precision arbiter cannot run.
__kernel void scaled_exp(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  float e = exp(in[i]) - exp(in[i] * 0.999f);
  out[i] = as_float(as_uint(e) ^ 0u);
}
