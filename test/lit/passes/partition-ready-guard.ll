; skmd-partition-ready<guard>: the SKMD paper's form. The full grid is
; launched; a group whose flattened id is outside [first, first + count)
; returns before doing anything.
; RUN: %opt -passes='skmd-partition-ready<guard>' -S %s | FileCheck %s
; RUN: not %opt -passes='skmd-partition-ready<sideways>' -S %s 2>&1 | FileCheck %s --check-prefix=BAD

target triple = "nvptx64-nvidia-cuda"

declare i64 @_Z13get_global_idj(i32)

; CHECK-LABEL: define ptx_kernel void @scale__skmd_guard(ptr addrspace(1) %x, float %s, i64 %skmd_first_group, i64 %skmd_group_count)
; CHECK-NEXT: skmd.guard:
; CHECK-NEXT: %slot = alloca float
; CHECK: %[[GX:.*]] = call i64 @_Z12get_group_idj(i32 0)
; CHECK: %[[NX:.*]] = call i64 @_Z14get_num_groupsj(i32 0)
; CHECK: %[[GY:.*]] = call i64 @_Z12get_group_idj(i32 1)
; CHECK: %[[NY:.*]] = call i64 @_Z14get_num_groupsj(i32 1)
; CHECK: %[[GZ:.*]] = call i64 @_Z12get_group_idj(i32 2)
; CHECK: %[[A:.*]] = mul i64 %[[NY]], %[[GZ]]
; CHECK: %[[B:.*]] = add i64 %[[GY]], %[[A]]
; CHECK: %[[C:.*]] = mul i64 %[[NX]], %[[B]]
; CHECK: %skmd.flat_group = add i64 %[[GX]], %[[C]]
; CHECK: %[[REL:.*]] = sub i64 %skmd.flat_group, %skmd_first_group
; CHECK: %skmd.in_range = icmp ult i64 %[[REL]], %skmd_group_count
; CHECK: br i1 %skmd.in_range, label %entry, label %skmd.skip
; CHECK: entry:
; CHECK: call i64 @_Z13get_global_idj(i32 0)
; CHECK: skmd.skip:
; CHECK-NEXT: ret void
; BAD: skmd-partition-ready: unknown form 'sideways' (use exact, guard or box)

define ptx_kernel void @scale(ptr addrspace(1) %x, float %s) {
entry:
  %slot = alloca float
  store float %s, ptr %slot
  %i = call i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %p
  %f = load float, ptr %slot
  %m = fmul float %v, %f
  store float %m, ptr addrspace(1) %p
  ret void
}
