// A store reached only through `if (i < n)`, at i times its size, happens at
// exactly the offsets below n times that size: the analysis records the
// bound, and the runtime then needs none of the buffer's old bytes.
// Guards of other shapes stay plain "(guarded)".
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s

// CHECK-LABEL: kernel 'bounded'
// CHECK:  arg 2 'c': affine, contiguous always
// CHECK-NEXT: write 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0 (guarded: below 4*arg.3 bytes)
__kernel void bounded(__global const float *a, __global const float *b,
                      __global float *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

// Vectors: the bound is in the store's own units (16 bytes).
// CHECK-LABEL: kernel 'bounded_vectors'
// CHECK:  arg 1 'out': affine, contiguous always
// CHECK-NEXT: write 16 B at {{.*}} (guarded: below 16*arg.2 bytes)
__kernel void bounded_vectors(__global const float4 *in, __global float4 *out, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i] * 2.0f;
}

// The store is not at the compared index: no bound.
// CHECK-LABEL: kernel 'shifted'
// CHECK:  arg 1 'out': affine, contiguous always
// CHECK-NEXT: write 4 B at 4 + {{.*}} (guarded){{( \[.*\])*$}}
__kernel void shifted(__global const float *in, __global float *out, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    out[i + 1] = in[i];
}

// Two conditions: the store's block is not reached from one test of its
// index alone.
// CHECK-LABEL: kernel 'two_conditions'
// CHECK:  arg 1 'out':
// CHECK: write 4 B at {{.*}} (guarded){{( \[.*\])*$}}
__kernel void two_conditions(__global const float *in, __global float *out, uint n,
                             uint m) {
  size_t i = get_global_id(0);
  if (i < n && in[i] > 0.0f)
    out[i] = in[i];
}

// The bound depends on the work-item: no bound.
// CHECK-LABEL: kernel 'per_item_bound'
// CHECK:  arg 1 'out':
// CHECK-NEXT: write 4 B at {{.*}} (guarded){{( \[.*\])*$}}
__kernel void per_item_bound(__global const uint *lim, __global float *out) {
  size_t i = get_global_id(0);
  if (i < lim[i])
    out[i] = 1.0f;
}
