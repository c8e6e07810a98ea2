; skmd-spirv-any-all: any() and all() of integers as OpenCL defines them,
; sign comparisons or-ed (any) or and-ed (all), so that the SPIR-V backend
; does not emit OpAny/OpAll on integer vectors (invalid SPIR-V).
; RUN: %opt -passes=skmd-spirv-any-all -S %s | FileCheck %s

target triple = "spirv64-unknown-unknown"

declare spir_func i32 @_Z3anyDv3_i(<3 x i32>)
declare spir_func i32 @_Z3allDv4_c(<4 x i8>)
declare spir_func i32 @_Z3anyi(i32)

; CHECK-LABEL: define spir_func i32 @any3(
; CHECK: %sign = icmp slt <3 x i32> %x, zeroinitializer
; CHECK: extractelement <3 x i1> %sign, i64 0
; CHECK: or i1
; CHECK: or i1
; CHECK: %any = zext i1 %{{.*}} to i32
; CHECK-NOT: @_Z3any
; CHECK: ret i32 %any
define spir_func i32 @any3(<3 x i32> %x) {
  %r = call spir_func i32 @_Z3anyDv3_i(<3 x i32> %x)
  ret i32 %r
}

; CHECK-LABEL: define spir_func i32 @all4(
; CHECK: %sign = icmp slt <4 x i8> %x, zeroinitializer
; CHECK: and i1
; CHECK: and i1
; CHECK: and i1
; CHECK: %all = zext i1 %{{.*}} to i32
define spir_func i32 @all4(<4 x i8> %x) {
  %r = call spir_func i32 @_Z3allDv4_c(<4 x i8> %x)
  ret i32 %r
}

; CHECK-LABEL: define spir_func i32 @any1(
; CHECK: %sign = icmp slt i32 %x, 0
; CHECK: %any = zext i1 %sign to i32
define spir_func i32 @any1(i32 %x) {
  %r = call spir_func i32 @_Z3anyi(i32 %x)
  ret i32 %r
}
