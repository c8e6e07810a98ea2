; skmd-partition-ready<box>: K__skmd_box runs the box of groups it is
; launched as, from a base: launched group g is real group g + group_base,
; and a work-item's global id is g * local size + local id + id_base
; (= group_base * local size + global offset, from the runtime). What the
; kernel as written computes, and one add per dimension: no branch, no
; division, whatever the grid's dimensions.
; RUN: %opt -passes='skmd-partition-ready<box>' -S %s | FileCheck %s
; RUN: %opt -passes='skmd-partition-ready<box>' -S %s | FileCheck %s --check-prefix=FLAT
; Running it twice adds nothing; beside the range form it is its own variant.
; RUN: %opt -passes='skmd-partition-ready<box>,skmd-partition-ready<box>' -S %s | FileCheck %s --check-prefix=ONCE
; RUN: %opt -passes='skmd-partition-ready,skmd-partition-ready<box>' -S %s | FileCheck %s --check-prefix=BOTH

target triple = "nvptx64-nvidia-cuda"

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_group_idj(i32)
declare i64 @_Z14get_num_groupsj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z17get_global_offsetj(i32)
declare i64 @_Z20get_global_linear_idv()
declare i32 @_Z12get_work_dimv()

; CHECK-LABEL: define ptx_kernel void @three_d__skmd_box(
; CHECK-SAME: ptr %out, i32 %n, i64 %skmd_group_base_x, i64 %skmd_group_base_y, i64 %skmd_group_base_z, i64 %skmd_id_base_x, i64 %skmd_id_base_y, i64 %skmd_id_base_z, i64 %skmd_num_groups_x, i64 %skmd_num_groups_y, i64 %skmd_num_groups_z, i64 %skmd_work_dim) #[[BOX:[0-9]+]]
; One block: nothing branches, nothing divides, nothing selects.
; FLAT-LABEL: define ptx_kernel void @three_d__skmd_box(
; FLAT-NOT: {{^[a-z0-9_.]+:}}
; FLAT-NOT: {{ br | udiv | urem | select | phi }}
; FLAT: ret void
; Per dimension, the launch's group, local size and local id, as the kernel
; as written reads them.
; CHECK: %[[GX:.*]] = call i64 @_Z12get_group_idj(i32 0)
; CHECK-NEXT: %[[LSX:.*]] = call i64 @_Z14get_local_sizej(i32 0)
; CHECK-NEXT: %[[LIX:.*]] = call i64 @_Z12get_local_idj(i32 0)
; The real group: the launched one plus the base.
; CHECK-NEXT: %skmd.group_x = add i64 %[[GX]], %skmd_group_base_x
; The global offset, for get_global_offset: id base - group base * local size.
; CHECK-NEXT: %[[BX:.*]] = mul i64 %skmd_group_base_x, %[[LSX]]
; CHECK-NEXT: %skmd.global_offset_x = sub i64 %skmd_id_base_x, %[[BX]]
; The global id: as the kernel as written computes it, plus the id base.
; CHECK-NEXT: %[[MX:.*]] = mul i64 %[[GX]], %[[LSX]]
; CHECK-NEXT: %[[AX:.*]] = add i64 %[[MX]], %[[LIX]]
; CHECK-NEXT: %skmd.global_id_x = add i64 %[[AX]], %skmd_id_base_x
; CHECK: %skmd.global_id_y = add i64 %{{.*}}, %skmd_id_base_y
; CHECK: %skmd.global_id_z = add i64 %{{.*}}, %skmd_id_base_z
; No work-item function that depends on the grid is left.
; CHECK-NOT: call i64 @_Z13get_global_idj
; CHECK-NOT: call i64 @_Z15get_global_sizej
; CHECK-NOT: call i64 @_Z14get_num_groupsj
; The real grid's size comes from the arguments.
; CHECK: %w = mul i64 %skmd_num_groups_x, %[[LSX]]
; CHECK: %h = mul i64 %skmd_num_groups_y,
; CHECK: %plane = mul i64 %w, %h
; CHECK: %zoff = mul i64 %skmd.global_id_z, %plane
; CHECK: %row = mul i64 %skmd.global_id_y, %w
; CHECK: %tid = add i64 %zy, %skmd.global_id_x
; CHECK: ret void
define ptx_kernel void @three_d(ptr %out, i32 %n) !kernel_arg_addr_space !0 !kernel_arg_name !1 {
  %z = call i64 @_Z13get_global_idj(i32 2)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %x = call i64 @_Z13get_global_idj(i32 0)
  %w = call i64 @_Z15get_global_sizej(i32 0)
  %h = call i64 @_Z15get_global_sizej(i32 1)
  %plane = mul i64 %w, %h
  %zoff = mul i64 %z, %plane
  %row = mul i64 %y, %w
  %zy = add i64 %zoff, %row
  %tid = add i64 %zy, %x
  %p = getelementptr i32, ptr %out, i64 %tid
  store i32 1, ptr %p
  ret void
}

; Helpers are inlined so that their work-item calls are remapped too; the
; group id, num_groups, global offset and linear id, and a dimension known
; only at run time.
; CHECK-LABEL: define ptx_kernel void @helpers__skmd_box(
; CHECK-NOT: call {{.*}}@helper
; CHECK-NOT: call i64 @_Z20get_global_linear_idv
; CHECK-NOT: call i64 @_Z14get_num_groupsj
; CHECK-NOT: call i64 @_Z17get_global_offsetj
; CHECK: %[[IS2:.*]] = icmp eq i32 %dim, 2
; CHECK: select i1 %[[IS2]], i64 %skmd.group_z, i64 0
; The linear id counts from the grid's start, without the global offset.
; CHECK: mul i64 %skmd.group_z,
; CHECK: %[[BO:.*]] = add i64 %a.i, %skmd.global_offset_x
; CHECK: ret void
define internal i64 @helper(i32 %d) {
  %g = call i64 @_Z12get_group_idj(i32 %d)
  %n = call i64 @_Z14get_num_groupsj(i32 2)
  %o = call i64 @_Z17get_global_offsetj(i32 0)
  %l = call i64 @_Z20get_global_linear_idv()
  %a = add i64 %g, %n
  %b = add i64 %a, %o
  %c = add i64 %b, %l
  ret i64 %c
}
define ptx_kernel void @helpers(ptr %out, i32 %dim) !kernel_arg_addr_space !0 !kernel_arg_name !2 {
  %v = call i64 @helper(i32 %dim)
  %p = getelementptr i64, ptr %out, i64 %v
  store i64 %v, ptr %p
  ret void
}

; Allocas stay first in the entry block, even one that followed other
; instructions there.
; CHECK-LABEL: define ptx_kernel void @private_array__skmd_box(
; CHECK-NEXT: %tmp = alloca [4 x i32]
; CHECK-NEXT: call i64 @_Z12get_group_idj(i32 0)
define ptx_kernel void @private_array(ptr %out) !kernel_arg_addr_space !3 !kernel_arg_name !4 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %tmp = alloca [4 x i32]
  %e = getelementptr [4 x i32], ptr %tmp, i64 0, i64 1
  store i32 3, ptr %e
  %v = load i32, ptr %e
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %v, ptr %p
  ret void
}

; get_work_dim, which a CUDA launch does not record, from its hidden word.
; CHECK-LABEL: define ptx_kernel void @work_dim__skmd_box(
; CHECK-NOT: call i32 @_Z12get_work_dimv
; CHECK: %skmd.work_dim = trunc i64 %skmd_work_dim to i32
; CHECK: store i32 %skmd.work_dim
define ptx_kernel void @work_dim(ptr %out) !kernel_arg_addr_space !3 !kernel_arg_name !4 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %d = call i32 @_Z12get_work_dimv()
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %d, ptr %p
  ret void
}

; CHECK: attributes #[[BOX]] = { "skmd-kernel"="three_d" "skmd-role"="box" }
; Clang's kernel_arg_* lists grow with the hidden arguments.
; CHECK-DAG: !{!"out", !"n", !"skmd_group_base_x", !"skmd_group_base_y", !"skmd_group_base_z", !"skmd_id_base_x", !"skmd_id_base_y", !"skmd_id_base_z", !"skmd_num_groups_x", !"skmd_num_groups_y", !"skmd_num_groups_z", !"skmd_work_dim"}

; ONCE-COUNT-4: define ptx_kernel void @{{.*}}__skmd_box(
; ONCE-NOT: __skmd_box__skmd_box
; BOTH-COUNT-4: define ptx_kernel void @{{.*}}__skmd_range(
; BOTH-COUNT-4: define ptx_kernel void @{{.*}}__skmd_box(
; BOTH-NOT: __skmd_range__skmd_box

!0 = !{i32 1, i32 0}
!1 = !{!"out", !"n"}
!2 = !{!"out", !"dim"}
!3 = !{i32 1}
!4 = !{!"out"}
