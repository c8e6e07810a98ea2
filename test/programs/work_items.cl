/* Every work-item function, recorded per item: 3-D ranges with global
   offsets and odd work-group sizes. */
__kernel void record_ids(__global int *out, int nx, int ny, int nz) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1),
         z = get_global_id(2) - get_global_offset(2);
  if (x >= (size_t)nx || y >= (size_t)ny || z >= (size_t)nz)
    return;
  __global int *r = out + ((z * ny + y) * nx + x) * 8;
  r[0] = (int)(get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2));
  r[1] = (int)(get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2));
  r[2] = (int)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2));
  r[3] = (int)(get_num_groups(0) + 100 * get_num_groups(1) + 10000 * get_num_groups(2));
  r[4] = (int)(get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2));
  r[5] = (int)(get_global_size(0) + 1000 * get_global_size(1) + 1000000 * get_global_size(2));
  r[6] = (int)(get_global_offset(0) + 100 * get_global_offset(1) + 10000 * get_global_offset(2));
  r[7] = (int)get_work_dim();
}

/* A 2-D range: each item adds its group's linear index to a cell. */
__kernel void group_linear(__global int *cells, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  int group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  cells[y * width + x] += group * 1000 + get_local_id(1) * get_local_size(0) + get_local_id(0);
}
