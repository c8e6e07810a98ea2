// print<skmd-access> on 1-D, 2-D and 3-D kernels. Offsets are in bytes over
// group.d, local_id.d, local_size.d, num_groups.d, global_offset.d and arg.i.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s

// The paper's contiguous family: 4 * (L0 * w0 + l0).
// CHECK-LABEL: kernel 'one_d' (1-D): contiguous always
// CHECK-NEXT: arg 0 'x': affine, contiguous always
// CHECK-NEXT: read 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0
// CHECK-NEXT: write 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0
__kernel void one_d(__global float *x) { x[get_global_id(0)] *= 2.0f; }

// Rows of width w: contiguous only when w equals the global width, which
// the compiler cannot know; the runtime evaluates the actual launch.
// CHECK-LABEL: kernel 'two_d' (2-D): contiguous no
// CHECK-NEXT: arg 0 'img': affine, contiguous no
// CHECK-NEXT: write 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0 + 4*arg.1*group.1*local_size.1 + 4*arg.1*local_id.1 + 4*arg.1*global_offset.1
__kernel void two_d(__global float *img, int w) {
  img[get_global_id(1) * w + get_global_id(0)] = 1.0f;
}

// Row width from get_global_size(0): contiguous when the groups are one
// row high, a case the paper's a*(W0*w0 + l0) form calls discontiguous.
// CHECK-LABEL: kernel 'two_d_global_width' (2-D): contiguous when_local_size_yz_is_1
// CHECK-NEXT: arg 0 'img': affine, contiguous when_local_size_yz_is_1
__kernel void two_d_global_width(__global float *img) {
  img[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1.0f;
}

// CHECK-LABEL: kernel 'three_d' (3-D): contiguous no
// CHECK-NEXT: arg 0 'vol': affine, contiguous no
// CHECK-NEXT: write 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0 + 4*arg.1*arg.2*group.2*local_size.2 + 4*arg.1*arg.2*local_id.2 + 4*arg.1*arg.2*global_offset.2 + 4*arg.1*group.1*local_size.1 + 4*arg.1*local_id.1 + 4*arg.1*global_offset.1
__kernel void three_d(__global float *vol, int nx, int ny) {
  size_t i = (get_global_id(2) * ny + get_global_id(1)) * nx + get_global_id(0);
  vol[i] = 0.0f;
}

// get_global_linear_id uses all three dimensions; global offsets cancel.
// CHECK-LABEL: kernel 'linear' (3-D): contiguous when_local_size_yz_is_1
// CHECK-NEXT: arg 0 'out': affine, contiguous when_local_size_yz_is_1
// CHECK-NOT: global_offset
__kernel void linear(__global int *out) { out[get_global_linear_id()] = 7; }

// reqd_work_group_size(64, 1, 1) fixes the local size: local_id.1 is 0.
// CHECK-LABEL: kernel 'fixed' (2-D): contiguous always
// CHECK-NEXT: arg 0 'out': affine, contiguous always
// CHECK-NEXT: write 4 B at 256*group.0 + 4*local_id.0 + 4*global_offset.0 + 256*group.1*num_groups.0 + 256*global_offset.1*num_groups.0
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void fixed(__global float *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 0.0f;
}
