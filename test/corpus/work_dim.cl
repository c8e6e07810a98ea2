// corpus-targets: x86,spirv
// get_work_dim(): skmd-cc refuses it for PTX (a CUDA launch does not record
// the dimension count).
__kernel void work_dim(__global uint *out) {
  out[get_global_linear_id()] = get_work_dim() * 1000 + get_local_linear_id();
}
