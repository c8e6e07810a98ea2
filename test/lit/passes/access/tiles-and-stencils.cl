// Tiled matmul, transpose and stencils: per-group footprints as bands,
// strided boxes and halos.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s

// Tiled matmul, 16x16 groups. A: a band of 16 rows (local_id.1, group.1),
// all columns through the tile loop. B: 16 columns of every row, a strided
// box. C: the group's 16x16 box.
// CHECK-LABEL: kernel 'matmul_tiled' (2-D): contiguous no
// CHECK-NEXT: loop.0 runs 1 + (["udiv",["+",-1,["smax",1,"arg.3"]],16]) times
// CHECK-NEXT: arg 0 'A': affine, contiguous no
// CHECK-NEXT: read 4 B at 4*local_id.0 + 64*group.1*arg.3 + 4*local_id.1*arg.3 + 4*global_offset.1*arg.3 + 64*loop.0 (guarded)
// CHECK-NEXT: arg 1 'B': affine, contiguous no
// CHECK-NEXT: read 4 B at 4*local_id.0 + 4*local_id.1*arg.3 + 64*arg.3*loop.0 + 64*group.0 + 4*global_offset.0 (guarded)
// CHECK-NEXT: arg 2 'C': affine, contiguous no
// CHECK-NEXT: write 4 B at 4*local_id.0 + 64*group.1*arg.3 + 4*local_id.1*arg.3 + 4*global_offset.1*arg.3 + 64*group.0 + 4*global_offset.0
#include "../../../../examples/matmul_tiled.cl"

// Transpose through a __local tile: reads a 16x16 box of `in` at
// (group.0, group.1) and writes the box at (group.1, group.0) of `out`.
// CHECK-LABEL: kernel 'transpose' (2-D): contiguous no
// CHECK-NEXT: arg 0 'in': affine, contiguous no
// CHECK-NEXT: read 4 B at 4*local_id.0 + 64*group.0 + 4*local_id.1*arg.2 + 64*group.1*arg.2
// CHECK-NEXT: arg 1 'out': affine, contiguous no
// CHECK-NEXT: write 4 B at 4*local_id.0 + 64*group.0*arg.3 + 4*local_id.1*arg.3 + 64*group.1
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose(__global const float *in, __global float *out, int w, int h) {
  __local float tile[16][17];
  int x = get_group_id(0) * 16 + get_local_id(0);
  int y = get_group_id(1) * 16 + get_local_id(1);
  tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * 16 + get_local_id(0);
  y = get_group_id(0) * 16 + get_local_id(1);
  out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];
}

// A 3-point stencil: the three reads coalesce into one 12-byte access per
// work-item; a group reads its range plus a one-element halo on each side,
// so neighbouring groups overlap, and reads stay contiguous.
// CHECK-LABEL: kernel 'blur3' (1-D): contiguous always
// CHECK-NEXT: arg 0 'in': affine, contiguous always
// CHECK-NEXT: read 12 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0
// CHECK-NEXT: arg 1 'out': affine, contiguous always
// CHECK-NEXT: write 4 B at 4 + 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0
__kernel void blur3(__global const float *in, __global float *out) {
  size_t i = get_global_id(0) + 1;
  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

// A halo of radius r from a loop.
// CHECK-LABEL: kernel 'blur_radius' (1-D): contiguous always
// CHECK-NEXT: loop.0 runs 1 + (["smax",0,["*",2,["smax",0,"arg.2"]]]) times
// CHECK-NEXT: arg 0 'in': affine, contiguous always
// CHECK-NEXT: read 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0 + 4*loop.0 (guarded)
__kernel void blur_radius(__global const float *in, __global float *out, int r) {
  size_t i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k <= 2 * r; ++k)
    s += in[i + k];
  out[i] = s;
}
