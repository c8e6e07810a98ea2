// Work-item functions over 1-, 2- and 3-D ranges with global offsets.

// Each work-item writes 16 ints at 16 times its global linear id; the
// dimension is a loop variable, so every query takes a run-time argument.
// (get_work_dim() is in x86-only/work_dim.cl: PTX cannot provide it.)
__kernel void ids(__global int *out) {
  __global int *o = out + 16 * get_global_linear_id();
  o[0] = get_global_linear_id();
  o[1] = get_local_linear_id();
  for (uint d = 0; d < 3; ++d) {
    o[2 + d] = get_global_id(d);
    o[5 + d] = get_group_id(d);
    o[8 + d] = get_num_groups(d);
    o[11 + d] = get_global_offset(d);
  }
  o[14] = get_global_size(0) * 10000 + get_global_size(1) * 100 +
          get_global_size(2);
  o[15] = get_local_size(0) * 10000 + get_local_size(1) * 100 +
          get_local_size(2);
}

// 5-point average over a w x h grid whose sides are not multiples of the
// work-group's: guarded, with borders clamped.
__kernel void blur_2d(__global const float *in, __global float *out, int w,
                      int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
  int yu = max(y - 1, 0), yd = min(y + 1, h - 1);
  float s = in[y * w + x] + in[y * w + xl] + in[y * w + xr] + in[yu * w + x] +
            in[yd * w + x];
  out[y * w + x] = s * 0.2f;
}
