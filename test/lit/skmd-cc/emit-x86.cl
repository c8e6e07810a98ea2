// The x86 variant is a shared object exporting each kernel by name.
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd
// RUN: %skmd-info --extract=x86 -o %t.so %t.skmd
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// RUN: llvm-readelf -h %t.so | FileCheck %s --check-prefix=ELF
// RUN: %skmd-cc --emit=asm %s | FileCheck %s --check-prefix=ASM

// SYMS-DAG: T scale
// SYMS-DAG: T offset
// SYMS-NOT: __clang_ocl_kern_imp
// ELF: Type: DYN (Shared object file)
// ELF: Machine: Advanced Micro Devices X86-64
// ASM: .globl scale
// ASM: scale:

__kernel void scale(__global float *x, float s) { x[get_global_id(0)] *= s; }
__kernel void offset(__global float *x, float o) { x[get_global_id(0)] += o; }
