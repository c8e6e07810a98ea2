; skmd-spirv-vector-selects: a select of vectors on one i1 gets a vector
; condition (SPIR-V before 1.4 requires OpSelect's condition to have as many
; components as its result); selects of scalars and on vector conditions
; stay as they are.
; RUN: %opt -passes=skmd-spirv-vector-selects -S %s | FileCheck %s

target triple = "spirv64-unknown-unknown"

; CHECK-LABEL: define spir_func <4 x float> @vector_on_scalar(
; CHECK: %[[INS:.*]] = insertelement <4 x i1> poison, i1 %c, i64 0
; CHECK: %[[SPLAT:.*]] = shufflevector <4 x i1> %[[INS]], <4 x i1> poison, <4 x i32> zeroinitializer
; CHECK: select <4 x i1> %[[SPLAT]], <4 x float> %x, <4 x float> %y
define spir_func <4 x float> @vector_on_scalar(i1 %c, <4 x float> %x, <4 x float> %y) {
  %r = select i1 %c, <4 x float> %x, <4 x float> %y
  ret <4 x float> %r
}

; CHECK-LABEL: define spir_func <2 x i32> @vector_on_vector(
; CHECK-NEXT: select <2 x i1> %c, <2 x i32> %x, <2 x i32> %y
define spir_func <2 x i32> @vector_on_vector(<2 x i1> %c, <2 x i32> %x, <2 x i32> %y) {
  %r = select <2 x i1> %c, <2 x i32> %x, <2 x i32> %y
  ret <2 x i32> %r
}

; CHECK-LABEL: define spir_func float @scalar(
; CHECK-NEXT: select i1 %c, float %x, float %y
define spir_func float @scalar(i1 %c, float %x, float %y) {
  %r = select i1 %c, float %x, float %y
  ret float %r
}
