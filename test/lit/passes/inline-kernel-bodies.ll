; skmd-inline-kernel-bodies puts Clang's __clang_ocl_kern_imp_* body into the
; kernel entry, even where Clang marked it noinline (as it does on NVPTX);
; other calls stay.
; RUN: %opt -passes=skmd-inline-kernel-bodies -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: call void @__clang_ocl_kern_imp_k
; CHECK: store i32 7, ptr addrspace(1) %p
; CHECK: call void @helper(
; CHECK: ret void
define ptx_kernel void @k(ptr addrspace(1) %p) noinline {
  call void @__clang_ocl_kern_imp_k(ptr addrspace(1) %p)
  ret void
}

define void @__clang_ocl_kern_imp_k(ptr addrspace(1) %p) noinline {
  store i32 7, ptr addrspace(1) %p
  call void @helper(ptr addrspace(1) %p)
  ret void
}

; A helper that is not a kernel body is left alone.
; CHECK-LABEL: define void @helper(
define void @helper(ptr addrspace(1) %p) noinline {
  store i32 8, ptr addrspace(1) %p
  ret void
}

; Outside kernels nothing is inlined.
; CHECK-LABEL: define void @not_a_kernel(
; CHECK: call void @__clang_ocl_kern_imp_k(
define void @not_a_kernel(ptr addrspace(1) %p) {
  call void @__clang_ocl_kern_imp_k(ptr addrspace(1) %p)
  ret void
}
