// A warning in the source is shown once, not again by each target's build
// (a bundle printed it four times). Errors are still shown where they
// come from.
// RUN: %skmd-cc %s -o %t.skmd 2>&1 | FileCheck %s
// CHECK: warning: 'SCALE' macro redefined
// CHECK-NOT: warning:
#define SCALE 2.0f
#define SCALE 3.0f
__kernel void k(__global float *a) { a[get_global_id(0)] *= SCALE; }
