// __local pointer parameters carry no `.ptr .shared` attribute in the PTX:
// the CUDA driver's JIT (driver 580) rejects a module that has one, with
// CUDA_ERROR_INVALID_IMAGE, though ptxas accepts it. Global pointers keep
// theirs. The bundle's PTX is the same text.
// RUN: %skmd-cc --emit=ptx %s | FileCheck %s
// RUN: %skmd-cc --targets=ptx %s -o %t.skmd
// RUN: %skmd-info --extract=ptx -o %t.ptx %t.skmd
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry scale(
// CHECK-NEXT: .param .u64 .ptr .global .align 4 scale_param_0,
// CHECK-NEXT: .param .u64 scale_param_1{{$}}
// CHECK-NOT: .ptr .shared
__kernel void scale(__global float *out, __local float *tile) {
  size_t l = get_local_id(0);
  tile[l] = out[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 2.0f * tile[get_local_size(0) - 1 - l];
}
