; skmd-x86-buffer-alignment caps what the x86 variant assumes of a buffer's
; alignment at its scalars' size: a double4 access through the user's
; 16-byte aligned memory faulted as an aligned 32-byte move.
; RUN: %opt -passes=skmd-x86-buffer-alignment -S %s | FileCheck %s
; RUN: %opt -passes=skmd-x86-buffer-alignment -S %s | llc -mtriple=x86_64 -mattr=+avx2 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define void @copy4(
; CHECK: load <4 x double>, ptr %src, align 8
; CHECK: store <4 x double> %v, ptr %dst, align 8
; CHECK: load double, ptr %src, align 8
; CHECK: store i8 %b, ptr %dst, align 1
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %dst, ptr align 1 %src, i64 64, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 1 %dst, i8 0, i64 64, i1 false)
; An atomic keeps its alignment.
; CHECK: atomicrmw add ptr %src, i32 1 seq_cst, align 4
; ASM-LABEL: copy4:
; ASM-NOT: vmovap
; ASM: vmovup
define void @copy4(ptr %dst, ptr %src) {
  %v = load <4 x double>, ptr %src, align 32
  store <4 x double> %v, ptr %dst, align 32
  %s = load double, ptr %src, align 32
  %b = fptosi double %s to i8
  store i8 %b, ptr %dst, align 16
  call void @llvm.memcpy.p0.p0.i64(ptr align 32 %dst, ptr align 32 %src, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr align 32 %dst, i8 0, i64 64, i1 false)
  %old = atomicrmw add ptr %src, i32 1 seq_cst, align 4
  ret void
}
