// --emit=llvm prints the kernel IR that SKMD's passes see: one function per
// kernel, Clang's body helper inlined, for the target chosen by --targets.
// RUN: %skmd-cc --emit=llvm %s | FileCheck %s --check-prefix=X86
// RUN: %skmd-cc --emit=llvm --targets=ptx %s | FileCheck %s --check-prefix=PTX
// RUN: %skmd-cc --emit=llvm --targets=spirv %s | FileCheck %s --check-prefix=SPIRV
// RUN: %skmd-cc --emit=llvm -O0 %s | FileCheck %s --check-prefix=O0

// X86: target triple = "x86_64-unknown-linux-gnu"
// X86: define {{.*}}spir_kernel void @add_one(ptr {{.*}}%data)
// X86-NOT: __clang_ocl_kern_imp
// PTX: target triple = "nvptx64-nvidia-cuda"
// PTX: define {{.*}}ptx_kernel void @add_one(ptr addrspace(1) {{.*}}%data)
// PTX-NOT: call {{.*}}__clang_ocl_kern_imp
// SPIRV: target triple = "spirv64v1.2-unknown-unknown"
// SPIRV: define {{.*}}spir_kernel void @add_one(ptr addrspace(1) {{.*}}%data)
// O0: define {{.*}}spir_kernel void @add_one(
// O0-NOT: call {{.*}}@__clang_ocl_kern_imp_add_one

__kernel void add_one(__global int *data) { data[get_global_id(0)] += 1; }
