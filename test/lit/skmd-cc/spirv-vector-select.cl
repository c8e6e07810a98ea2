// A vector ?: with a scalar condition builds a valid SPIR-V module (the
// backend's OpSelect took the scalar condition, which spirv-val refuses
// before SPIR-V 1.4, and the whole file's default build failed).
// REQUIRES: spirv-tools
// RUN: %skmd-cc %s -o %t.skmd
// RUN: %skmd-cc --emit=spirv %s -o %t.spv
// RUN: spirv-val --target-env opencl2.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// CHECK: OpSelect %v4float %{{[a-z_0-9.]+}}
// CHECK-NOT: OpSelect %v4float %{{[0-9]+}} %x %y

__kernel void pick(__global float4 *a, float4 x, float4 y, int n) {
  int i = get_global_id(0);
  a[i] = (i < n) ? x : y;
}
