// PTX: one .entry per kernel, with libclc's builtins and libdevice's math
// linked in, so no call is left to an external function.
// RUN: %skmd-cc --emit=ptx %s | FileCheck %s
// RUN: %skmd-cc --emit=ptx --cuda-arch=sm_80 %s | FileCheck %s --check-prefix=SM80

// CHECK: .target sm_90
// CHECK-NOT: .extern .func
// CHECK-DAG: .visible .entry saxpy(
// CHECK-DAG: .visible .entry expo(
// CHECK-NOT: __clang_ocl_kern_imp
// SM80: .target sm_80

__kernel void saxpy(__global float *y, __global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = fma(a, x[i], y[i]);
}

__kernel void expo(__global float *y) {
  size_t i = get_global_id(0) + get_group_id(1) * get_global_size(0);
  y[i] = exp(y[i]) + sin(y[i]);
}
