// Global atomics combined across devices, a struct argument by value and a
// __local reduction.
typedef struct { int bins; float scale; } Params;
__kernel void k(__global const float *in, __global int *hist, __local int *part,
                Params p) {
  int l = get_local_id(0);
  part[l] = convert_int(in[get_global_id(0)] * p.scale) % p.bins;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) part[l] = max(part[l], part[l + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) atomic_inc(&hist[part[0] & (p.bins - 1)]);
}
