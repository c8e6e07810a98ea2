// The PTX variant's box form maps its launched groups as the kernel as
// written does, plus the box's base: on a 2-D and a 3-D stencil, no
// branch, compare or division on the way to the first load, where the
// range form unflattens its group past the first row (a division by
// multiplying with a magic number, a 64-bit division beyond 2^32 groups).
// What is left is one add of the id base per dimension (32-bit in SASS
// for indices taken as uint: ptxas drops the unused high halves).
// RUN: %skmd-cc --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .visible .entry blur2d__skmd_range(
// CHECK: div.u64
// CHECK-LABEL: .visible .entry blur2d__skmd_box(
// CHECK-COUNT-9: .param .u64 blur2d__skmd_box_param_{{[0-9]+}}
// CHECK-NOT: bra
// CHECK-NOT: div
// CHECK-NOT: setp
// CHECK-NOT: mul.hi
// CHECK: mov.u32 {{.*}}%ctaid.x
// CHECK-NOT: bra
// CHECK-NOT: div
// CHECK: ld.global
// CHECK: ret;
__kernel void blur2d(__global const float *in, __global float *out, uint width) {
  uint x = get_global_id(0), y = get_global_id(1);
  uint at = y * width + x;
  out[at] = 0.5f * in[at] + 0.25f * (in[at - 1] + in[at + 1]);
}

// CHECK-LABEL: .visible .entry blur3d__skmd_box(
// CHECK-NOT: bra
// CHECK-NOT: div
// CHECK-NOT: setp
// CHECK-NOT: mul.hi
// CHECK: mov.u32 {{.*}}%ctaid.z
// CHECK-NOT: bra
// CHECK-NOT: div
// CHECK: ld.global
// CHECK: ret;
__kernel void blur3d(__global const float *in, __global float *out, uint width,
                     uint height) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  uint at = (z * height + y) * width + x;
  out[at] = 0.5f * in[at] + 0.25f * (in[at - width] + in[at + width]);
}
