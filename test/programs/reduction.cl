/* Reductions in local memory: a float sum per work-group (launched again
   on the partial sums until one is left), an int min/max with two __local
   arrays, and a kernel whose __local arguments have four element types. */
__kernel void sum_float(__global const float *in, __global float *out, __local float *part,
                        int count) {
  int gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  part[lid] = gid < count ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1) {
    if (lid < stride)
      part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = part[0];
}

__kernel void minmax_int(__global const int *in, __global int2 *out, __local int *lo,
                         __local int *hi, int count) {
  int gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  lo[lid] = gid < count ? in[gid] : INT_MAX;
  hi[lid] = gid < count ? in[gid] : INT_MIN;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      lo[lid] = min(lo[lid], lo[lid + stride]);
      hi[lid] = max(hi[lid], hi[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = (int2)(lo[0], hi[0]);
}

/* Per group: the sum of its float4s, of its shorts, of its uchars and the
   xor of its uints, each staged through a __local array of that type. */
__kernel void local_types(__global const float4 *f, __global const short *s,
                          __global const uchar *c, __global const uint *u,
                          __global float4 *fsum, __global int *ssum, __global uint *csum,
                          __global uint *uxor, __local float4 *lf, __local short *ls,
                          __local uchar *lc, __local uint *lu) {
  int gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  lf[lid] = f[gid];
  ls[lid] = s[gid];
  lc[lid] = c[gid];
  lu[lid] = u[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float4 a = (float4)(0.0f);
    int b = 0;
    uint d = 0, e = 0;
    for (int i = 0; i < size; ++i) {
      a += lf[i];
      b += ls[i];
      d += lc[i];
      e ^= lu[i];
    }
    int g = get_group_id(0);
    fsum[g] = a;
    ssum[g] = b;
    csum[g] = d;
    uxor[g] = e;
  }
}
