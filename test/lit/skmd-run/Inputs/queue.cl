// Each work-item takes a slot of a queue by an atomic's returned value:
// where a value lands depends on the order of all groups, so no split.
__kernel void enqueue(__global const int *in, __global int *queue,
                      __global int *count) {
  int v = in[get_global_id(0)];
  if (v % 3 == 0)
    queue[atomic_inc(count)] = v;
}
