// Partial sums as many samples write them: a fixed __local array of the
// group's size, each work-item adding two elements a grid apart (in[i] and
// in[i + global size]) before the tree, which halves the active items with
// a barrier per level. partial[g] gets group g's sum; n = 2 * global size.
#define GROUP 256

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void reduce_strided(__global const float *in, __global float *partial) {
  __local float sdata[GROUP];
  unsigned int tid = get_local_id(0);
  unsigned int i = get_global_id(0);
  sdata[tid] = in[i] + in[i + get_global_size(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned int s = GROUP / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    partial[get_group_id(0)] = sdata[0];
}
