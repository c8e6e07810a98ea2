// corpus-source: written here for SKMD: select() on vectors of 8- and 16-bit elements, as byte- and text-processing code uses it (case folding of uchar16 by a char16 mask from comparisons; a short8 clamp by a short8 mask)
// corpus-run: fold_case --global=256 --local=64 --arg=256:32..126 --arg=256:zero
// corpus-run: clamp_short8 --global=128 --local=32 --arg=128:-30000..30000 --arg=128:zero --arg=1000
// corpus-note: written for this corpus; SKMD's x86 builtins library lacks select() for char, uchar, short and ushort vectors (32- and 64-bit elements work), so skmd-cc names it and stops (expected-failures.txt)

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
