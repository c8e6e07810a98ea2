// 256-bin histogram of bytes. Each work-group counts its share of the data
// (a grid-stride loop, so a few groups cover any n) into a __local
// histogram with local atomics, then adds its non-zero bins to the global
// histogram with one global atomic each. `bins` must be zero beforehand.
#define BINS 256

__kernel void histogram256(__global const uchar *data, uint n,
                           __global uint *bins) {
  __local uint local_bins[BINS];
  uint lid = get_local_id(0), lsize = get_local_size(0);
  for (uint b = lid; b < BINS; b += lsize)
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&local_bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += lsize)
    if (local_bins[b] != 0)
      atomic_add(&bins[b], local_bins[b]);
}
