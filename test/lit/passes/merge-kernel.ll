; skmd-merge-kernel on hand-written cases: what stays, what goes, and when
; no merge kernel can be made.
; RUN: %opt -passes=skmd-merge-kernel -S %s | FileCheck %s
; RUN: %opt -passes=skmd-merge-kernel -S %s | FileCheck %s --check-prefix=FB

target triple = "x86_64-unknown-linux-gnu"

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z12get_group_idj(i32)
declare void @_Z7barrierj(i32) convergent
declare float @_Z3expf(float) memory(none)
declare void @_Z7vstore4Dv4_fmPf(<4 x float>, i64, ptr)

; A tiled loop with __local staging and barriers: the tile loop, the local
; memory and the barriers all go; the store of C stays, under the same
; bounds check, with its value from the copy.
; CHECK-LABEL: define spir_kernel void @tiled__skmd_merge(ptr %A, ptr %C, i32 %n, ptr %skmd_copy_C)
; CHECK-NOT: _Z7barrierj
; CHECK-NOT: @tiled.tile
; CHECK-NOT: fmul
; CHECK: %inb = icmp ult i64 %i, %nz
; CHECK: br i1 %inb, label %store, label %done
; CHECK: store:
; CHECK: %[[V:.*]] = load float, ptr %skmd.copy
; CHECK: store float %[[V]], ptr %pc
; CHECK: done:
; CHECK-NEXT: ret void
@tiled.tile = internal addrspace(3) global [16 x float] poison
define spir_kernel void @tiled(ptr %A, ptr %C, i32 %n) !kernel_arg_addr_space !0 !kernel_arg_name !1 {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %nz = zext i32 %n to i64
  br label %loop
loop:
  %t = phi i64 [ 0, %entry ], [ %t.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %pa = getelementptr float, ptr %A, i64 %t
  %a = load float, ptr %pa
  %slot = getelementptr float, ptr addrspace(3) @tiled.tile, i64 %l
  store float %a, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %b = load float, ptr addrspace(3) @tiled.tile
  %m = fmul float %a, %b
  %acc.next = fadd float %acc, %m
  call void @_Z7barrierj(i32 1)
  %t.next = add i64 %t, 16
  %more = icmp ult i64 %t.next, %nz
  br i1 %more, label %loop, label %exit
exit:
  %inb = icmp ult i64 %i, %nz
  br i1 %inb, label %store, label %done
store:
  %pc = getelementptr float, ptr %C, i64 %i
  store float %acc.next, ptr %pc
  br label %done
done:
  ret void
}

; A scatter through an index read from an input: the index load stays (the
; host has the inputs), the computed value does not. A store guarded by a
; value computed from inputs keeps that computation: it decides whether the
; store happens.
; CHECK-LABEL: define spir_kernel void @scatter__skmd_merge(ptr %idx, ptr %in, ptr %out, ptr %skmd_copy_out)
; CHECK: %j = load i32, ptr %pidx
; CHECK: %e = call float @_Z3expf(float %x)
; CHECK: %pos = fcmp ogt float %e, 1.0
; CHECK: br i1 %pos
; CHECK: store float %skmd.merged, ptr %po
; CHECK-NOT: fmul
define spir_kernel void @scatter(ptr %idx, ptr %in, ptr %out) !kernel_arg_addr_space !2 !kernel_arg_name !3 {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %pidx = getelementptr i32, ptr %idx, i64 %i
  %j = load i32, ptr %pidx
  %pin = getelementptr float, ptr %in, i64 %i
  %x = load float, ptr %pin
  %e = call float @_Z3expf(float %x)
  %pos = fcmp ogt float %e, 1.0
  br i1 %pos, label %then, label %end
then:
  %y = fmul float %e, 3.0
  %po = getelementptr float, ptr %out, i32 %j
  store float %y, ptr %po
  br label %end
end:
  ret void
}

; vstore4 becomes a 16-byte copy from the device's buffer at the same place.
; CHECK-LABEL: define spir_kernel void @vec__skmd_merge(ptr %in, ptr %out, ptr %skmd_copy_out)
; CHECK-NOT: _Z7vstore4
; CHECK: %[[OFF:.*]] = mul i64 %i, 16
; CHECK: %[[DST:.*]] = getelementptr i8, ptr %out, i64 %[[OFF]]
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[DST]], ptr align 1 %skmd.copy, i64 16, i1 false)
define spir_kernel void @vec(ptr %in, ptr %out) !kernel_arg_addr_space !4 !kernel_arg_name !5 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %v = insertelement <4 x float> poison, float 1.0, i32 0
  call void @_Z7vstore4Dv4_fmPf(<4 x float> %v, i64 %i, ptr %out)
  ret void
}

; The output address depends on a value read back from the output itself:
; no merge kernel, and the kernel says why.
; CHECK-NOT: define spir_kernel void @feedback__skmd_merge
; FB: define spir_kernel void @feedback(ptr %buf) #[[FB:[0-9]+]]
; FB-NOT: define spir_kernel void @feedback__skmd_merge
define spir_kernel void @feedback(ptr %buf) !kernel_arg_addr_space !6 !kernel_arg_name !7 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr i32, ptr %buf, i64 %i
  %k = load i32, ptr %p
  %q = getelementptr i32, ptr %buf, i32 %k
  store i32 1, ptr %q
  ret void
}

; A kernel that writes no global buffer needs no merge kernel.
; CHECK-NOT: @reader__skmd_merge
define spir_kernel void @reader(ptr %in) !kernel_arg_addr_space !6 !kernel_arg_name !8 {
  %v = load i32, ptr %in
  ret void
}

; A store that picks its output: `d == 0 ? (L[i] = r) : (U[i] = v)`, as
; LLVM shapes it (one GEP over a select of the two buffers), and an if/else
; storing to two buffers, sunk into one store through a phi (AMD's LU
; decomposition has both). The merge picks the copies the same way; the
; value's computation goes.
; CHECK-LABEL: define spir_kernel void @choose__skmd_merge(ptr %L, ptr %U, i32 %d, ptr %skmd_copy_L, ptr %skmd_copy_U)
; CHECK-DAG: %[[CL:.*]] = getelementptr i8, ptr %skmd_copy_L,
; CHECK-DAG: %[[CU:.*]] = getelementptr i8, ptr %skmd_copy_U,
; CHECK: %[[CS:.*]] = select i1 %first, ptr %[[CL]], ptr %[[CU]]
; CHECK: %[[CP:.*]] = getelementptr float, ptr %[[CS]], i64 %i
; CHECK: %[[V:.*]] = load float, ptr %[[CP]]
; CHECK: store float %[[V]], ptr %p
; CHECK: %[[PHI:skmd.copy.choice.*]] = phi ptr [ %{{.*}}, %left ], [ %{{.*}}, %right ]
; CHECK: %[[W:.*]] = load float, ptr %[[PHI]]
; CHECK: store float %[[W]], ptr %q
; CHECK-NOT: fmul
; CHECK: ret void
define spir_kernel void @choose(ptr %L, ptr %U, i32 %d) !kernel_arg_addr_space !9 !kernel_arg_name !10 {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %first = icmp eq i32 %d, 0
  %base = select i1 %first, ptr %L, ptr %U
  %p = getelementptr float, ptr %base, i64 %i
  %x = uitofp i64 %i to float
  %y = fmul float %x, 2.0
  store float %y, ptr %p
  br i1 %first, label %left, label %right
left:
  %pl = getelementptr float, ptr %L, i64 %i
  br label %join
right:
  %pu = getelementptr float, ptr %U, i64 %i
  br label %join
join:
  %q = phi ptr [ %pl, %left ], [ %pu, %right ]
  %z = fmul float %y, 3.0
  store float %z, ptr %q
  ret void
}

; FB: attributes #[[FB]] = { "skmd-no-merge"="output addresses or control flow depend on values read from output 'buf'" }

!0 = !{i32 1, i32 1, i32 0}
!1 = !{!"A", !"C", !"n"}
!2 = !{i32 1, i32 1, i32 1}
!3 = !{!"idx", !"in", !"out"}
!4 = !{i32 1, i32 1}
!5 = !{!"in", !"out"}
!6 = !{i32 1}
!7 = !{!"buf"}
!8 = !{!"in"}
!9 = !{i32 1, i32 1, i32 0}
!10 = !{!"L", !"U", !"d"}
