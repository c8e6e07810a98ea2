// get_work_dim(): a CUDA launch does not record the dimension count, so
// the partition-ready kernels take it as a hidden argument.
__kernel void work_dim(__global uint *out) {
  out[get_global_linear_id()] = get_work_dim() * 1000 + get_local_linear_id();
}
