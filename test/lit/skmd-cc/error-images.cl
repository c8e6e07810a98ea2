// RUN: not %skmd-cc %s -o %t.skmd 2>&1 | FileCheck %s
// RUN: not ls %t.skmd
// Every -cl-std gives SKMD's own error, not a target-dependent Clang one.
// RUN: not %skmd-cc --targets=ptx -cl-std=CL2.0 %s -o %t.skmd 2>&1 | FileCheck %s

// CHECK: error-images.cl:[[@LINE+4]]:42: error: SKMD does not support OpenCL images (used here through type '__read_only image2d_t')
// CHECK-NOT: error: SKMD
// CHECK: skmd-cc: error: compilation of '{{.*}}error-images.cl' failed

__kernel void blur(__read_only image2d_t src, __global float4 *dst) {
  dst[get_global_id(0)] = read_imagef(src, (int2)(get_global_id(0), 0));
}
