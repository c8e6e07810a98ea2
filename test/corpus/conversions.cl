// Conversions with saturation and every rounding mode, and half storage:
// one work-item per input value, each result in its own slot, so the C++
// reference checks every lane exactly.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// float -> int: saturated in every mode; unsaturated on in-range values
// (out of range it is undefined).
__kernel void float_to_int(__global const float *in, __global int *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  float r = clamp(x, -1.0e9f, 1.0e9f);
  __global int *o = out + 8 * i;
  o[0] = convert_int_sat(x);
  o[1] = convert_int_sat_rte(x);
  o[2] = convert_int_sat_rtz(x);
  o[3] = convert_int_sat_rtp(x);
  o[4] = convert_int_sat_rtn(x);
  o[5] = convert_int_rte(r);
  o[6] = convert_int_rtp(r);
  o[7] = convert_int_rtn(r);
}

// float4 -> narrow and wide integers through the vector forms.
__kernel void float4_to_integers(__global const float4 *in,
                                 __global uchar4 *u8, __global char4 *s8,
                                 __global short4 *s16, __global ulong4 *u64) {
  size_t i = get_global_id(0);
  float4 x = in[i];
  u8[i] = convert_uchar4_sat_rte(x);
  s8[i] = convert_char4_sat(x);
  s16[i] = convert_short4_sat_rtn(x);
  u64[i] = convert_ulong4_sat_rtp(x);
}

// 64- and 32-bit integers -> float and double, rounded each way.
__kernel void integers_to_float(__global const long *in, __global float *f,
                                __global double *d) {
  size_t i = get_global_id(0);
  long x = in[i];
  ulong u = as_ulong(x);
  int w = (int)x;
  __global float *o = f + 12 * i;
  o[0] = convert_float(x);
  o[1] = convert_float_rtz(x);
  o[2] = convert_float_rtp(x);
  o[3] = convert_float_rtn(x);
  o[4] = convert_float_rte(u);
  o[5] = convert_float_rtz(u);
  o[6] = convert_float_rtp(u);
  o[7] = convert_float_rtn(u);
  o[8] = convert_float(w);
  o[9] = convert_float_rtz(w);
  o[10] = convert_float_rtp(w);
  o[11] = convert_float_rtn(w);
  d[3 * i] = convert_double_rtz(x);
  d[3 * i + 1] = convert_double_rtp(u);
  d[3 * i + 2] = convert_double_rtn(x);
}

__kernel void double_to_float(__global const double *in, __global float *out) {
  size_t i = get_global_id(0);
  double x = in[i];
  out[4 * i] = convert_float(x);
  out[4 * i + 1] = convert_float_rtz(x);
  out[4 * i + 2] = convert_float_rtp(x);
  out[4 * i + 3] = convert_float_rtn(x);
}

// long -> every integer type, saturated (stored widened back to long), and
// one vector path.
__kernel void integer_saturation(__global const long *in, __global long *out,
                                 __global short *narrow) {
  size_t i = get_global_id(0);
  long x = in[i];
  __global long *o = out + 8 * i;
  o[0] = convert_char_sat(x);
  o[1] = convert_uchar_sat(x);
  o[2] = convert_short_sat(x);
  o[3] = convert_ushort_sat(x);
  o[4] = convert_int_sat(x);
  o[5] = convert_uint_sat(x);
  o[6] = as_long(convert_ulong_sat(x));
  o[7] = convert_long_sat(as_ulong(x));
  if (i % 8 == 0)
    vstore8(convert_short8_sat(vload8(i / 8, in)), i / 8, narrow);
}

// float and double -> half in each rounding mode, and back with vload_half.
__kernel void half_round_trip(__global const float *in, __global half *h,
                              __global float *back, __global half *from_double) {
  size_t i = get_global_id(0);
  float x = in[i];
  vstore_half(x, 4 * i, h);
  vstore_half_rtz(x, 4 * i + 1, h);
  vstore_half_rtp(x, 4 * i + 2, h);
  vstore_half_rtn(x, 4 * i + 3, h);
  vstore4(vload_half4(i, h), i, back);
  back[4 * i] += vload_half(4 * i, h);
  double d = (double)x * (1.0 + 0x1p-30);
  vstore_half_rte(d, 4 * i, from_double);
  vstore_half_rtz(d, 4 * i + 1, from_double);
  vstore_half_rtp(d, 4 * i + 2, from_double);
  vstore_half_rtn(d, 4 * i + 3, from_double);
}
