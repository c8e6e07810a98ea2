// The x86 variant is a shared object exporting a work-group function per
// kernel and per merge kernel, and nothing else.
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd
// RUN: %skmd-info --extract=x86 -o %t.so %t.skmd
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// RUN: llvm-readelf -h %t.so | FileCheck %s --check-prefix=ELF
// RUN: %skmd-cc --emit=asm %s | FileCheck %s --check-prefix=ASM

// SYMS: T offset__skmd_merge__skmd_wg
// SYMS-NEXT: T offset__skmd_wg
// SYMS-NEXT: T scale__skmd_merge__skmd_wg
// SYMS-NEXT: T scale__skmd_wg
// SYMS-NOT: T
// ELF: Type: DYN (Shared object file)
// ELF: Machine: Advanced Micro Devices X86-64
// ASM: .globl scale
// ASM: scale:

__kernel void scale(__global float *x, float s) { x[get_global_id(0)] *= s; }
__kernel void offset(__global float *x, float o) { x[get_global_id(0)] += o; }
