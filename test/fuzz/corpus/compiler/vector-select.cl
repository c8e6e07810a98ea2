// Issue 19 items 2 and 3: two barriers in a row; a vector ?: with a scalar
// condition.
typedef float4 DATA_TYPE;
__kernel void k(__global DATA_TYPE *a, __local float *t, int n) {
  int i = get_global_id(0);
  t[get_local_id(0)] = a[i].x;
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  DATA_TYPE x = a[i], y = (DATA_TYPE)(t[0]);
  a[i] = (i < n) ? x : y;
}
