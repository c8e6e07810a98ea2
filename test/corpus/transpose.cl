// Matrix transpose through a padded __local tile.
#define T 16
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void transpose(__global const float *in, __global float *out, int w, int h) {
  __local float tile[T][T + 1];
  int x = get_group_id(0) * T + get_local_id(0);
  int y = get_group_id(1) * T + get_local_id(1);
  tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * T + get_local_id(0);
  y = get_group_id(0) * T + get_local_id(1);
  out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];
}
