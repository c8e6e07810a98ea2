// corpus-source: written here for SKMD: select() on vectors of 8- and 16-bit elements, as byte- and text-processing code uses it (case folding of uchar16 by a char16 mask from comparisons; a short8 clamp by a short8 mask)
// corpus-run: fold_case --global=256 --local=64 --arg=256:32..126 --arg=256:zero
// corpus-run: clamp_short8 --global=128 --local=32 --arg=128:-30000..30000 --arg=128:zero --arg=1000
// corpus-run: narrow_bounds --global=128 --local=32 --arg=128:0..255 --arg=128:-300..300 --arg=128:zero
// corpus-note: written for this corpus; it found select() on char, uchar, short and ushort vectors missing from the x86 builtins library (now there)

// Upper case to lower case, sixteen characters per item.
__kernel void fold_case(__global const uchar16 *in, __global uchar16 *out) {
  int i = get_global_id(0);
  uchar16 c = in[i];
  char16 upper = (c >= (uchar16)('A')) & (c <= (uchar16)('Z'));
  out[i] = select(c, c + (uchar16)(32), upper);
}

// Values beyond +-limit replaced by the limit, through a mask of shorts.
__kernel void clamp_short8(__global const short8 *in, __global short8 *out, short limit) {
  int i = get_global_id(0);
  short8 v = in[i];
  short8 hi = select(v, (short8)(limit), v > (short8)(limit));
  out[i] = select(hi, (short8)(-limit), hi < (short8)(-limit));
}

// OpenCL 1.1's integer min, max and clamp of a vector with scalar bounds,
// on 8- and 16-bit lanes.
__kernel void narrow_bounds(__global const uchar8 *pix, __global const short2 *d,
                            __global short2 *out) {
  int i = get_global_id(0);
  uchar8 c = clamp(pix[i], (uchar)16, (uchar)235);
  short2 v = max(min(d[i], (short)255), (short)-255);
  out[i] = v + (short2)(c.s0, c.s7);
}
