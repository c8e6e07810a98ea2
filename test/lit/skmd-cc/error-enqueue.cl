// RUN: not %skmd-cc -cl-std=CL2.0 %s -o %t.skmd 2>&1 | FileCheck %s
// RUN: not ls %t.skmd

// One error per feature, at its first use.
// CHECK: error-enqueue.cl:[[@LINE+4]]:11: error: SKMD does not support OpenCL device-side enqueue (used here through type 'queue_t')
// CHECK-NOT: error: SKMD

__kernel void parent(__global int *out) {
  queue_t q = get_default_queue();
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                 ^{ out[0] = 42; });
}
