// 3-D kernels: an explicit row-major index and the global linear id.
__kernel void clear_volume(__global float *vol, int nx, int ny) {
  size_t i = (get_global_id(2) * ny + get_global_id(1)) * nx + get_global_id(0);
  vol[i] = 0.0f;
}

__kernel void number(__global uint *out) {
  out[get_global_linear_id()] = (uint)get_global_linear_id();
}
