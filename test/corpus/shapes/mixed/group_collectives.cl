// corpus-source: written here for SKMD: OpenCL 2.0 work-group collectives as kernels written for 2.0 use them instead of local-memory trees (a group's sum and maximum, an exclusive scan, a broadcast of the first item's value)
// corpus-run: group_functions --global=1024 --local=128 --arg=1024:0..50 --arg=1024:zero --arg=8:zero --arg=8:zero
// corpus-note: written for this corpus; SKMD's x86 builtins library has no work-group collectives yet (docs/design.md), so skmd-cc refuses the file by naming them (expected-failures.txt)

// OpenCL 2.0 work-group functions: the group's sum and maximum, an
// exclusive scan, and the first item's value broadcast.
__kernel void group_functions(__global const int *in, __global int *scan, __global int *sums,
                              __global int *tops) {
  int v = in[get_global_id(0)];
  int sum = work_group_reduce_add(v);
  int top = work_group_reduce_max(v);
  int first = work_group_broadcast(v, 0);
  scan[get_global_id(0)] = work_group_scan_exclusive_add(v) + first;
  if (get_local_id(0) == 0) {
    sums[get_group_id(0)] = sum;
    tops[get_group_id(0)] = top;
  }
}
