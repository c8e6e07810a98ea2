; skmd-partition-ready: K__skmd_range runs exactly the flattened groups
; [first, first + count) of the real grid when launched as `count` groups.
; RUN: %opt -passes=skmd-partition-ready -S %s | FileCheck %s
; Running it twice adds nothing.
; RUN: %opt -passes=skmd-partition-ready,skmd-partition-ready -S %s | FileCheck %s --check-prefix=ONCE

target triple = "x86_64-unknown-linux-gnu"

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_group_idj(i32)
declare i64 @_Z14get_num_groupsj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z17get_global_offsetj(i32)
declare i64 @_Z20get_global_linear_idv()
declare i64 @_Z12get_local_idj(i32)
declare i32 @_Z12get_work_dimv()

; The original is left as it was.
; CHECK-LABEL: define spir_kernel void @two_d(
; CHECK: call i64 @_Z13get_global_idj(i32 1)

; The flattened group is first + the launched group; x varies fastest.
; CHECK-LABEL: define spir_kernel void @two_d__skmd_range(
; CHECK-SAME: ptr %out, i32 %n, i64 %skmd_first_group, i64 %skmd_num_groups_x, i64 %skmd_num_groups_y, i64 %skmd_num_groups_z, i64 %skmd_global_offset_x, i64 %skmd_global_offset_y, i64 %skmd_global_offset_z, i64 %skmd_groups_x_magic, i64 %skmd_groups_y_magic, i64 %skmd_work_dim) #[[RANGE:[0-9]+]]
; CHECK: %[[LAUNCHED:.*]] = call i64 @_Z12get_group_idj(i32 0)
; CHECK: %skmd.flat_group = add i64 %skmd_first_group, %[[LAUNCHED]]
; In the first row of groups (every group of a 1-D launch) x is the flat
; group and y, z are 0: no division.
; CHECK-NEXT: %skmd.in_first_row = icmp ult i64 %skmd.flat_group, %skmd_num_groups_x
; CHECK-NEXT: br i1 %skmd.in_first_row, label %skmd.real_group, label %skmd.past_first_row
; Past it, the row is flat / num_groups_x: for a flat group below 2^32,
; the high half of magic * flat (magic = ceil(2^64 / num_groups_x), 0 for
; one group), from two products of 32-bit halves; else a division.
; CHECK: skmd.past_first_row:
; CHECK-NEXT: %skmd.rows.fits_32 = icmp ult i64 %skmd.flat_group, 4294967296
; CHECK-NEXT: br i1 %skmd.rows.fits_32, label %skmd.rows.by_magic, label %skmd.rows.by_division
; CHECK: skmd.rows.by_magic:
; CHECK-NEXT: %[[MH:.*]] = lshr i64 %skmd_groups_x_magic, 32
; CHECK-NEXT: %[[HIGH:.*]] = mul nuw i64 %[[MH]], %skmd.flat_group
; CHECK-NEXT: %[[ML:.*]] = and i64 %skmd_groups_x_magic, 4294967295
; CHECK-NEXT: %[[LP:.*]] = mul nuw i64 %[[ML]], %skmd.flat_group
; CHECK-NEXT: %[[LOW:.*]] = lshr i64 %[[LP]], 32
; CHECK-NEXT: %[[SUM:.*]] = add nuw i64 %[[HIGH]], %[[LOW]]
; CHECK-NEXT: %[[Q:.*]] = lshr i64 %[[SUM]], 32
; CHECK-NEXT: %[[ONE:.*]] = icmp eq i64 %skmd_groups_x_magic, 0
; CHECK-NEXT: %skmd.rows.multiplied = select i1 %[[ONE]], i64 %skmd.flat_group, i64 %[[Q]]
; CHECK: skmd.rows.by_division:
; CHECK-NEXT: %skmd.rows.divided = udiv i64 %skmd.flat_group, %skmd_num_groups_x
; CHECK: skmd.rows.done:
; CHECK-NEXT: %skmd.rows = phi i64 [ %skmd.rows.multiplied, %skmd.rows.by_magic ], [ %skmd.rows.divided, %skmd.rows.by_division ]
; CHECK-NEXT: %[[RX:.*]] = mul i64 %skmd.rows, %skmd_num_groups_x
; CHECK-NEXT: %skmd.column = sub i64 %skmd.flat_group, %[[RX]]
; In the first plane (every group of a 2-D launch) y is the row and z is 0;
; past it, the row divided by num_groups_y the same way.
; CHECK-NEXT: %skmd.in_first_plane = icmp ult i64 %skmd.rows, %skmd_num_groups_y
; CHECK-NEXT: br i1 %skmd.in_first_plane, label %skmd.real_group, label %skmd.past_first_plane
; CHECK: skmd.past_first_plane:
; CHECK: %skmd.planes.multiplied = select i1 %{{.*}}, i64 %skmd.rows, i64 %{{.*}}
; CHECK: %skmd.planes.divided = udiv i64 %skmd.rows, %skmd_num_groups_y
; CHECK: skmd.planes.done:
; CHECK-NEXT: %skmd.planes = phi i64
; CHECK-NEXT: %[[PY:.*]] = mul i64 %skmd.planes, %skmd_num_groups_y
; CHECK-NEXT: %skmd.row_in_plane = sub i64 %skmd.rows, %[[PY]]
; CHECK-NEXT: br label %skmd.real_group
; CHECK: skmd.real_group:
; CHECK-NEXT: %skmd.group_x = phi i64 [ %skmd.flat_group, %{{.*}} ], [ %skmd.column, %skmd.rows.done ], [ %skmd.column, %skmd.planes.done ]
; CHECK-NEXT: %skmd.group_y = phi i64 [ 0, %{{.*}} ], [ %skmd.rows, %skmd.rows.done ], [ %skmd.row_in_plane, %skmd.planes.done ]
; CHECK-NEXT: %skmd.group_z = phi i64 [ 0, %{{.*}} ], [ 0, %skmd.rows.done ], [ %skmd.planes, %skmd.planes.done ]
; The launch keeps the kernel's local size and local ids.
; CHECK: %[[LSX:.*]] = call i64 @_Z14get_local_sizej(i32 0)
; CHECK: %[[LIDX:.*]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK: %[[LSY:.*]] = call i64 @_Z14get_local_sizej(i32 1)
; CHECK: %[[LIDY:.*]] = call i64 @_Z12get_local_idj(i32 1)
; global id y = group_y * local_size_y + local_id_y + offset_y
; CHECK: %[[T2:.*]] = mul i64 %skmd.group_y, %[[LSY]]
; CHECK: %[[T3:.*]] = add i64 %[[T2]], %[[LIDY]]
; CHECK: %[[GIDY:.*]] = add i64 %[[T3]], %skmd_global_offset_y
; global size x = num_groups_x * local_size_x
; CHECK: %[[GSX:.*]] = mul i64 %skmd_num_groups_x, %[[LSX]]
; global id x = group_x * local_size_x + local_id_x + offset_x
; CHECK: %[[T0:.*]] = mul i64 %skmd.group_x, %[[LSX]]
; CHECK: %[[T1:.*]] = add i64 %[[T0]], %[[LIDX]]
; CHECK: %[[GIDX:.*]] = add i64 %[[T1]], %skmd_global_offset_x
; No remapped function is called any more.
; CHECK-NOT: call i64 @_Z13get_global_idj
; CHECK-NOT: call i64 @_Z15get_global_sizej
; CHECK: %row = mul i64 %[[GIDY]], %[[GSX]]
; CHECK: %tid = add i64 %row, %[[GIDX]]
; CHECK: ret void
define spir_kernel void @two_d(ptr %out, i32 %n) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  %y = call i64 @_Z13get_global_idj(i32 1)
  %w = call i64 @_Z15get_global_sizej(i32 0)
  %x = call i64 @_Z13get_global_idj(i32 0)
  %row = mul i64 %y, %w
  %tid = add i64 %row, %x
  %p = getelementptr i32, ptr %out, i64 %tid
  store i32 1, ptr %p
  ret void
}

; Helpers are inlined so their work-item calls are remapped too; num_groups,
; global offset, linear id and a dimension known only at run time.
; CHECK-LABEL: define spir_kernel void @helpers__skmd_range(
; CHECK-NOT: call {{.*}}@helper
; CHECK-NOT: call i64 @_Z20get_global_linear_idv
; CHECK-NOT: call i64 @_Z14get_num_groupsj
; CHECK-NOT: call i64 @_Z17get_global_offsetj
; The run-time dimension picks among x, y, z, and 0 when out of range.
; CHECK: %[[IS2:.*]] = icmp eq i32 %dim, 2
; CHECK: select i1 %[[IS2]], i64 %skmd.group_z, i64 0
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
define spir_kernel void @helpers(ptr %out, i32 %dim) !kernel_arg_addr_space !0 !kernel_arg_name !5 {
  %v = call i64 @helper(i32 %dim)
  %p = getelementptr i64, ptr %out, i64 %v
  store i64 %v, ptr %p
  ret void
}

; Allocas stay in the entry block, before the branch to the real group,
; even one that followed other instructions there.
; CHECK-LABEL: define spir_kernel void @private_array__skmd_range(
; CHECK-NEXT: %tmp = alloca [4 x i32]
; CHECK-NEXT: %[[L:.*]] = call i64 @_Z12get_group_idj(i32 0)
; CHECK: br i1 %skmd.in_first_row
define spir_kernel void @private_array(ptr %out) !kernel_arg_addr_space !6 !kernel_arg_name !7 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %tmp = alloca [4 x i32]
  %e = getelementptr [4 x i32], ptr %tmp, i64 0, i64 1
  store i32 3, ptr %e
  %v = load i32, ptr %e
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %v, ptr %p
  ret void
}

; get_work_dim: the launch (1-D, or a CUDA grid) does not give it, the
; hidden word does.
; CHECK-LABEL: define spir_kernel void @work_dim__skmd_range(
; CHECK-NOT: call i32 @_Z12get_work_dimv
; CHECK: %skmd.work_dim = trunc i64 %skmd_work_dim to i32
; CHECK: store i32 %skmd.work_dim
define spir_kernel void @work_dim(ptr %out) !kernel_arg_addr_space !6 !kernel_arg_name !7 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %d = call i32 @_Z12get_work_dimv()
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %d, ptr %p
  ret void
}

; CHECK: attributes #[[RANGE]] = { "skmd-kernel"="two_d" "skmd-role"="range" }

; Clang's kernel_arg_* lists grow with the hidden arguments.
; CHECK-DAG: !{i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0}
; CHECK-DAG: !{!"int*", !"uint", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong", !"ulong"}
; CHECK-DAG: !{!"out", !"n", !"skmd_first_group", !"skmd_num_groups_x", !"skmd_num_groups_y", !"skmd_num_groups_z", !"skmd_global_offset_x", !"skmd_global_offset_y", !"skmd_global_offset_z", !"skmd_groups_x_magic", !"skmd_groups_y_magic", !"skmd_work_dim"}

; ONCE-COUNT-4: define spir_kernel void @{{.*}}__skmd_range(
; ONCE-NOT: __skmd_range__skmd_range

!0 = !{i32 1, i32 0}
!1 = !{!"none", !"none"}
!2 = !{!"int*", !"uint"}
!3 = !{!"", !""}
!4 = !{!"out", !"n"}
!5 = !{!"out", !"dim"}
!6 = !{i32 1}
!7 = !{!"out"}
