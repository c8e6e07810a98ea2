; skmd-kernel-args: which pointer arguments each kernel reads and writes,
; following copies of the pointer.
; RUN: %opt -passes='print<skmd-kernel-args>' -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare i64 @_Z13get_global_idj(i32)
declare <4 x float> @_Z6vload4mPKf(i64, ptr) memory(argmem: read)
declare void @_Z7vstore4Dv4_fmPf(<4 x float>, i64, ptr)
declare void @opaque(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: kernel 'direct'
; CHECK-NEXT: arg 0 'in': global read
; CHECK-NEXT: arg 1 'out': global write
; CHECK-NEXT: arg 2 'n': value
define spir_kernel void @direct(ptr %in, ptr %out, i32 %n) !kernel_arg_addr_space !0 !kernel_arg_name !1 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %p
  %q = getelementptr float, ptr %out, i64 %i
  store float %v, ptr %q
  ret void
}

; The pointer is kept in a local variable, picked by a select, and merged
; by a phi: all are copies of it.
; CHECK-LABEL: kernel 'copies'
; CHECK-NEXT: arg 0 'in': global read
; CHECK-NEXT: arg 1 'out': global write
; CHECK-NEXT: arg 2 'n': value
define spir_kernel void @copies(ptr %in, ptr %out, i32 %n) !kernel_arg_addr_space !0 !kernel_arg_name !1 {
entry:
  %slot = alloca ptr
  store ptr %out, ptr %slot
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %then, label %join
then:
  %alt = getelementptr float, ptr %in, i64 4
  br label %join
join:
  %src = phi ptr [ %in, %entry ], [ %alt, %then ]
  %v = load float, ptr %src
  %dst = load ptr, ptr %slot
  %sel = select i1 %c, ptr %dst, ptr %dst
  store float %v, ptr %sel
  ret void
}

; A defined helper is followed into; builtins by their names and
; attributes; memcpy by operand.
; CHECK-LABEL: kernel 'calls'
; CHECK-NEXT: arg 0 'a': global read
; CHECK-NEXT: arg 1 'b': global write
; CHECK-NEXT: arg 2 'c': global read
; CHECK-NEXT: arg 3 'd': global write
define internal void @store_through(ptr %p, float %v) noinline {
  store float %v, ptr %p
  ret void
}
define spir_kernel void @calls(ptr %a, ptr %b, ptr %c, ptr %d) !kernel_arg_addr_space !2 !kernel_arg_name !3 {
  %v = call <4 x float> @_Z6vload4mPKf(i64 0, ptr %a)
  call void @_Z7vstore4Dv4_fmPf(<4 x float> %v, i64 0, ptr %b)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %c, i64 16, i1 false)
  %e = extractelement <4 x float> %v, i32 0
  call void @store_through(ptr %d, float %e)
  ret void
}

; What cannot be followed is assumed read-write, and said so.
; CHECK-LABEL: kernel 'escapes'
; CHECK-NEXT: arg 0 'a': global read-write (escapes: assumed read-write)
; CHECK-NEXT: arg 1 'b': global read-write (escapes: assumed read-write)
; CHECK-NEXT: arg 2 'c': global read-write
; CHECK-NEXT: arg 3 'd': global unused
define spir_kernel void @escapes(ptr %a, ptr %b, ptr %c, ptr %d) !kernel_arg_addr_space !2 !kernel_arg_name !3 {
  call void @opaque(ptr %a)
  %i = ptrtoint ptr %b to i64
  %old = atomicrmw add ptr %c, i32 1 seq_cst
  %same = icmp eq ptr %d, null
  ret void
}

; Local and constant arguments are reported with their address spaces.
; CHECK-LABEL: kernel 'spaces'
; CHECK-NEXT: arg 0 'k': constant read
; CHECK-NEXT: arg 1 'tmp': local read-write
define spir_kernel void @spaces(ptr %k, ptr %tmp) !kernel_arg_addr_space !4 !kernel_arg_name !5 {
  %v = load i32, ptr %k
  store i32 %v, ptr %tmp
  %w = load i32, ptr %tmp
  store i32 %w, ptr %tmp
  ret void
}

; Not a kernel: not reported.
; CHECK-NOT: kernel 'store_through'
define void @not_a_kernel(ptr %p) {
  store i32 0, ptr %p
  ret void
}

!0 = !{i32 1, i32 1, i32 0}
!1 = !{!"in", !"out", !"n"}
!2 = !{i32 1, i32 1, i32 1, i32 1}
!3 = !{!"a", !"b", !"c", !"d"}
!4 = !{i32 2, i32 3}
!5 = !{!"k", !"tmp"}
