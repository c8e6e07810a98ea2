/* 256-bin histograms of bytes: global atomics straight into the result,
   and per-group local histograms (local atomics) merged with atomic_add. */
__kernel void histogram_global(__global const uchar *data, __global uint *bins, int count) {
  for (int i = get_global_id(0); i < count; i += get_global_size(0))
    atomic_inc(&bins[data[i]]);
}

__kernel void histogram_local(__global const uchar *data, __global uint *bins,
                              __local uint *local_bins, int count) {
  int lid = get_local_id(0), size = get_local_size(0);
  for (int b = lid; b < 256; b += size)
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < count; i += get_global_size(0))
    atomic_inc(&local_bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += size)
    if (local_bins[b])
      atomic_add(&bins[b], local_bins[b]);
}

__kernel void clear_bins(__global uint *bins) { bins[get_global_id(0)] = 0; }
