// Private arrays used only between barriers: the work-group function keeps
// one copy on its stack, which the work-items use in turn.

// Rounds through a __local table, the state in two arrays indexed by a
// column loop (AES's shape): registers once unrolled.
__kernel void rounds(__global const uint *in, __global uint *out) {
  __local uint box[64];
  int l = get_local_id(0);
  box[l] = in[l] * 2654435761u;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  uint s[4];
  for (int c = 0; c < 4; ++c)
    s[c] = in[(i * 4 + c) % get_global_size(0)];
  for (int r = 0; r < 5; ++r) {
    uint t[4];
    for (int c = 0; c < 4; ++c)
      t[c] = box[s[(c + 1) & 3] & 63] ^ rotate(s[c], 8u);
    for (int c = 0; c < 4; ++c)
      s[c] = t[c];
  }
  out[i] = s[0] ^ s[1] ^ s[2] ^ s[3];
}

// A histogram of each item's own values, indexed by data: the array stays
// memory, shared by the items in turn, so the work-item loop must not run
// items side by side over it.
__kernel void bins(__global const uint *in, __global uint *out) {
  __local uint total[1];
  if (get_local_id(0) == 0)
    total[0] = in[get_group_id(0)] & 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  uint h[8];
  for (int k = 0; k < 8; ++k)
    h[k] = total[0];
  for (int k = 0; k < 16; ++k)
    h[in[(i * 16 + k) % get_global_size(0)] & 7]++;
  out[i] = h[0] + 3 * h[1] + 5 * h[in[i] & 7] + 7 * h[7];
}
