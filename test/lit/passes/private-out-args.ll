; skmd-private-out-args: a math builtin's second result written through a
; pointer into a buffer goes through a private slot, stored to the pointer
; right after the call; a pointer that is already a private variable stays.
; RUN: %opt -passes=skmd-private-out-args -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

declare spir_func float @_Z6sincosfPU3AS4f(float, ptr addrspace(4))
declare spir_func <4 x float> @_Z5frexpDv4_fPU3AS4Dv4_i(<4 x float>, ptr addrspace(4))
declare spir_func double @_Z5frexpDv2_fPU3AS4Dv2_i(double, ptr addrspace(4))

; CHECK-LABEL: define spir_kernel void @into_buffer(
; CHECK: %out.slot = alloca float
; CHECK: %[[ARG:.*]] = addrspacecast ptr %out.slot to ptr addrspace(4)
; CHECK: %s = call spir_func float @_Z6sincosfPU3AS4f(float %x, ptr addrspace(4) %[[ARG]])
; CHECK-NEXT: %[[C:.*]] = load float, ptr %out.slot
; CHECK-NEXT: store float %[[C]], ptr addrspace(4) %at
define spir_kernel void @into_buffer(ptr addrspace(1) %c, float %x, i64 %i) {
  %p = getelementptr float, ptr addrspace(1) %c, i64 %i
  %at = addrspacecast ptr addrspace(1) %p to ptr addrspace(4)
  %s = call spir_func float @_Z6sincosfPU3AS4f(float %x, ptr addrspace(4) %at)
  ret void
}

; frexp's exponents are ints, as many as the result has lanes.
; CHECK-LABEL: define spir_kernel void @exponents(
; CHECK: %out.slot = alloca <4 x i32>
; CHECK: store <4 x i32> %{{.*}}, ptr addrspace(4) %e
define spir_kernel void @exponents(ptr addrspace(4) %e, <4 x float> %x) {
  %m = call spir_func <4 x float> @_Z5frexpDv4_fPU3AS4Dv4_i(<4 x float> %x, ptr addrspace(4) %e)
  ret void
}

; On x86-64 a float2 travels as a double: the slot's type comes from the
; mangled name (two ints), not from the call's (the second exponent was
; lost).
; CHECK-LABEL: define spir_kernel void @coerced_pair(
; CHECK: %out.slot = alloca <2 x i32>
; CHECK: store <2 x i32> %{{.*}}, ptr addrspace(4) %e
define spir_kernel void @coerced_pair(ptr addrspace(4) %e, double %x) {
  %m = call spir_func double @_Z5frexpDv2_fPU3AS4Dv2_i(double %x, ptr addrspace(4) %e)
  ret void
}

; CHECK-LABEL: define spir_kernel void @already_private(
; CHECK-NOT: out.slot
; CHECK: call spir_func float @_Z6sincosfPU3AS4f(float %x, ptr addrspace(4) %g)
define spir_kernel void @already_private(float %x) {
  %cc = alloca float
  %g = addrspacecast ptr %cc to ptr addrspace(4)
  %s = call spir_func float @_Z6sincosfPU3AS4f(float %x, ptr addrspace(4) %g)
  ret void
}

; A file's own function under a builtin's name may read through the
; pointer: left alone.
; CHECK-LABEL: define spir_kernel void @own_definition(
; CHECK-NOT: out.slot
define spir_func float @_Z6sincosfPU3AS4d(float %x, ptr addrspace(4) %p) {
  %old = load float, ptr addrspace(4) %p
  store float %x, ptr addrspace(4) %p
  ret float %old
}
define spir_kernel void @own_definition(ptr addrspace(4) %c, float %x) {
  %s = call spir_func float @_Z6sincosfPU3AS4d(float %x, ptr addrspace(4) %c)
  ret void
}
