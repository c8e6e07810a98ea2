// 256-bin histograms, one per work-group (the paper's "first round"): group
// g counts the `per_group` values starting at g * per_group (each in
// [0, 256)) into a __local histogram with local atomics, and writes its 256
// bins to bins[256 g ...]. The host adds the groups' histograms. No global
// atomics, so the groups may run on different devices.
#define BINS 256

__kernel void histogram256(__global const uint *data, __global uint *bins,
                           uint per_group) {
  __local uint local_bins[BINS];
  uint lid = get_local_id(0), lsize = get_local_size(0);
  for (uint b = lid; b < BINS; b += lsize)
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const uint *chunk = data + (size_t)get_group_id(0) * per_group;
  // Strided by the group's size, so neighbouring work-items read
  // neighbouring values.
  for (uint i = lid; i < per_group; i += lsize)
    atomic_inc(&local_bins[chunk[i] & (BINS - 1)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += lsize)
    bins[get_group_id(0) * BINS + b] = local_bins[b];
}
