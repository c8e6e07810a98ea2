// print<skmd-partition>: which kernels may be split across devices, and why
// not.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='skmd-partition-ready,skmd-merge-kernel,print<skmd-partition>' -disable-output 2>&1 | FileCheck %s

// Commutative integer atomics alone, their results unused: the devices'
// copies are combined.
// CHECK-LABEL: kernel 'histogram': partitionable
// CHECK-NEXT: 'bins' is updated by atomic add only: devices' copies combined
__kernel void histogram(__global const uint *data, __global uint *bins) {
  atomic_inc(&bins[data[get_global_id(0)] % 64]);
}

// Not commutative, so not combined, and i % 8 wraps: no footprint either.
// CHECK-LABEL: kernel 'exchange': not partitionable
// CHECK-NEXT: because global atomics on 'slots' (atomic_xchg(int volatile CLglobal*, int)): atomic_xchg(int volatile CLglobal*, int) is not a commutative integer update
__kernel void exchange(__global int *slots) {
  atomic_xchg(&slots[get_global_id(0) % 8], (int)get_global_id(0));
}

// Reading neighbours of a buffer that groups also write: whether groups
// of different devices meet is tested at launch, with the real ranges.
// CHECK-LABEL: kernel 'in_place': partitionable
// CHECK-NEXT: groups may read what others write in 'x': tested at launch
__kernel void in_place(__global float *x) {
  size_t i = get_global_id(0) + 1;
  x[i] = x[i - 1] + x[i + 1];
}

// A store whose address comes from the output itself: neither a footprint
// nor a merge kernel can describe it.
// CHECK-LABEL: kernel 'chase': not partitionable
// CHECK-NEXT: because 'next' may be written at addresses the analysis cannot describe (an index depends on a value loaded from memory) and has no merge kernel (output addresses or control flow depend on values read from output 'next')
__kernel void chase(__global int *next) {
  size_t i = get_global_id(0);
  next[next[i]] = (int)i;
}

// Reading and writing one's own element is fine.
// CHECK-LABEL: kernel 'own': partitionable
__kernel void own(__global float *x) {
  size_t i = get_global_id(0);
  x[i] = x[i] * 2.0f + 1.0f;
}

// A scatter through an input index: whole-buffer output, merged by the
// merge kernel.
// CHECK-LABEL: kernel 'scatter': partitionable
__kernel void scatter(__global const int *idx, __global float *dst) {
  dst[idx[get_global_id(0)]] = 1.0f;
}

// Atomics on a buffer that is also stored to, or whose result is used: the
// footprint holds them (an atomic reads and writes its bytes), so whether
// pieces meet is tested at launch. AMD's copy1DCompletePath: an atomic
// under a condition that never holds beside plain stores.
// CHECK-LABEL: kernel 'dead_atomic': partitionable
// CHECK-NEXT: groups may read what others write in 'out': tested at launch
__kernel void dead_atomic(__global const float *in, __global float *out) {
  int gid = get_global_id(0);
  if (gid < 0)
    atom_add((__global int *)out, 1);
  out[gid] = in[gid];
}

// A counter per group whose value is used.
// CHECK-LABEL: kernel 'group_counter': partitionable
// CHECK-NEXT: groups may read what others write in 'count': tested at launch
__kernel void group_counter(__global const int *in, __global int *out,
                            __global int *count) {
  size_t i = get_global_id(0);
  int n = atomic_inc(&count[get_group_id(0)]);
  out[i] = in[i] + n;
}

// A flag that work-items only set to one constant, at one place: the
// devices' copies are combined by taking the constant where a copy holds
// it (Rodinia's BFS `*g_over = true`). Set per work-item, or to a value
// that varies, it is not a flag.
// CHECK-LABEL: kernel 'flag': partitionable
// CHECK-NEXT: 'changed' is only set to 1, at one place for every work-item: devices' copies combined
// CHECK-LABEL: kernel 'per_item': partitionable
// CHECK-NOT: combined
// CHECK-LABEL: kernel 'last_writer': partitionable
// CHECK-NOT: combined
// CHECK-LABEL: kernel 'read_flag'
// CHECK-NOT: combined
__kernel void flag(__global const int *data, __global char *changed) {
  if (data[get_global_id(0)] > 100)
    *changed = 1;
}
__kernel void per_item(__global char *mask) { mask[get_global_id(0)] = 0; }
__kernel void last_writer(__global int *who) { who[0] = get_global_id(0); }
__kernel void read_flag(__global int *flag) {
  if (flag[0] == 0)
    flag[0] = 2;
}

// Work-group copies (lowered to the loops the group's items share): each
// group reads its tile of 'in' and writes every other element of its part
// of 'out'.
// CHECK-LABEL: kernel 'staged_tiles': partitionable
__kernel void staged_tiles(__global const int *in, __global int *out) {
  __local int tile[64], reversed[64];
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  reversed[l] = tile[n - 1 - l] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + 2 * g * n, reversed, n, 2, 0);
  wait_group_events(1, &e);
}
