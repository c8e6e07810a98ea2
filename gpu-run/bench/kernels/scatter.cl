// out[perm[i]] = in[i]: the addresses written come from a buffer, so the
// compiler cannot say which bytes a work-group writes; a device with its
// own memory writes into a copy of `out`, and the host merges the copy
// into the user's buffer with the merge kernel (merge-bandwidth measures
// that merge against memcpy).
__kernel void scatter(__global const uint *perm, __global const float *in,
                      __global float *out) {
  size_t i = get_global_id(0);
  out[perm[i]] = in[i];
}

// out[(i * s) % n] = in[i]: the addresses are computed, not read, but the
// modulo by a value known only at run time is beyond the affine analysis:
// merged like scatter, with no index buffer for the merge to read.
__kernel void scatter_modulo(__global const float *in, __global float *out,
                             uint s, uint n) {
  size_t i = get_global_id(0);
  out[(i * s) % n] = in[i];
}
