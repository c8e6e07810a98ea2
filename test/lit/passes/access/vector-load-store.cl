// vloadN/vstoreN (and the half forms) touch N elements of the pointer's
// type at offset * N elements (vloada_half3: 4), whatever IR type the
// x86-64 ABI gives the data: a uchar3 travels as an i32, a float2 as a
// double, a short3 as an i64.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s

// CHECK-LABEL: kernel 'bytes'
// CHECK-NEXT: arg 0 'a': affine, contiguous always
// CHECK-NEXT: read 3 B at 3*group.0*local_size.0 + 3*local_id.0 + 3*global_offset.0
// CHECK-NEXT: arg 1 'b': affine, contiguous always
// CHECK-NEXT: write 2 B at 2*group.0*local_size.0 + 2*local_id.0 + 2*global_offset.0
// CHECK-NEXT: arg 2 'c': affine, contiguous always
// CHECK-NEXT: write 16 B at 16*group.0*local_size.0 + 16*local_id.0 + 16*global_offset.0
__kernel void bytes(__global const uchar *a, __global char *b, __global uchar *c) {
  size_t i = get_global_id(0);
  uchar3 t = vload3(i, a);
  vstore2(convert_char2(t.xy), i, b);
  vstore16((uchar16)(t.x), i, c);
}

// CHECK-LABEL: kernel 'shorts_and_ints'
// CHECK-NEXT: arg 0 's': affine, contiguous always
// CHECK-NEXT: read 6 B at 6*group.0*local_size.0 + 6*local_id.0 + 6*global_offset.0
// CHECK-NEXT: arg 1 'n': affine, contiguous always
// CHECK-NEXT: write 12 B at 12*group.0*local_size.0 + 12*local_id.0 + 12*global_offset.0
// CHECK-NEXT: arg 2 'l': affine, contiguous always
// CHECK-NEXT: write 24 B at 24*group.0*local_size.0 + 24*local_id.0 + 24*global_offset.0
__kernel void shorts_and_ints(__global const short *s, __global uint *n,
                              __global long *l) {
  size_t i = get_global_id(0);
  short3 v = vload3(i, s);
  vstore3(convert_uint3(v), i, n);
  vstore3(convert_long3(v), i, l);
}

// CHECK-LABEL: kernel 'floats'
// CHECK-NEXT: arg 0 'x': affine, contiguous always
// CHECK-NEXT: read 8 B at 8*group.0*local_size.0 + 8*local_id.0 + 8*global_offset.0
// CHECK-NEXT: arg 1 'y': affine, contiguous always
// CHECK-NEXT: write 12 B at 12*group.0*local_size.0 + 12*local_id.0 + 12*global_offset.0
// CHECK-NEXT: arg 2 'd': affine, contiguous always
// CHECK-NEXT: write 32 B at 32*group.0*local_size.0 + 32*local_id.0 + 32*global_offset.0
__kernel void floats(__global const float *x, __global float *y,
                     __global double *d) {
  size_t i = get_global_id(0);
  float2 p = vload2(i, x);
  vstore3((float3)(p, 1.0f), i, y);
  vstore4(convert_double4((float4)(p, p)), i, d);
}

// Halves: 2 bytes each, read or written from floats; vloada_half3 steps
// by 4 halves but reads 3.
// CHECK-LABEL: kernel 'halves'
// CHECK-NEXT: arg 0 'h': affine, contiguous always
// CHECK-NEXT: read 2 B at 2*group.0*local_size.0 + 2*local_id.0 + 2*global_offset.0
// CHECK-NEXT: arg 1 'h3': affine, contiguous no
// CHECK-NEXT: read 6 B at 8*group.0*local_size.0 + 8*local_id.0 + 8*global_offset.0
// CHECK-NEXT: arg 2 'o': affine, contiguous always
// CHECK-NEXT: write 8 B at 8*group.0*local_size.0 + 8*local_id.0 + 8*global_offset.0
__kernel void halves(__global const half *h, __global const half *h3,
                     __global half *o) {
  size_t i = get_global_id(0);
  float3 v = vloada_half3(i, h3);
  vstore_half4_rte((float4)(v, vload_half(i, h)), i, o);
}

// Vectors too wide for registers: a load returns through a pointer, a
// store takes its data through one.
// CHECK-LABEL: kernel 'wide'
// CHECK-NEXT: arg 0 'x': affine, contiguous always
// CHECK-NEXT: read 64 B at 64*group.0*local_size.0 + 64*local_id.0 + 64*global_offset.0
// CHECK-NEXT: arg 1 'y': affine, contiguous always
// CHECK-NEXT: write 24 B at 24*group.0*local_size.0 + 24*local_id.0 + 24*global_offset.0
__kernel void wide(__global const double *x, __global long *y) {
  size_t i = get_global_id(0);
  double8 v = vload8(i, x);
  vstore3(convert_long3(v.s012 + v.s567), i, y);
}
