// The x86 variant is a shared object exporting a work-group function per
// kernel and per merge kernel, and nothing else. Below AVX-512 (the
// default x86-64-v3) each is an ifunc choosing an AVX2 or an AVX-512 body
// when the variant is loaded; built for x86-64-v4, a plain function.
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd
// RUN: %skmd-info --extract=x86 -o %t.so %t.skmd
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// RUN: llvm-readelf -h %t.so | FileCheck %s --check-prefix=ELF
// RUN: %skmd-cc --emit=asm %s | FileCheck %s --check-prefix=ASM

// RUN: %skmd-cc --targets=x86 --x86-cpu=x86-64-v4 %s -o %t.v4.skmd
// RUN: %skmd-info --extract=x86 -o %t.v4.so %t.v4.skmd
// RUN: llvm-nm -D --defined-only %t.v4.so | FileCheck %s --check-prefix=V4
// Without the AVX-512 bodies, the x86-64-v3 code alone: plain functions.
// RUN: %skmd-cc --targets=x86 --x86-avx512-bodies=false %s -o %t.v3.skmd
// RUN: %skmd-info --extract=x86 -o %t.v3.so %t.v3.skmd
// RUN: llvm-nm -D --defined-only %t.v3.so | FileCheck %s --check-prefix=V4

// SYMS: i offset__skmd_merge__skmd_wg
// SYMS-NEXT: i offset__skmd_wg
// SYMS-NEXT: i scale__skmd_merge__skmd_wg
// SYMS-NEXT: i scale__skmd_wg
// SYMS-NOT: {{ [Tti] }}
// V4: T offset__skmd_merge__skmd_wg
// V4-NEXT: T offset__skmd_wg
// V4-NEXT: T scale__skmd_merge__skmd_wg
// V4-NEXT: T scale__skmd_wg
// V4-NOT: T
// ELF: Type: DYN (Shared object file)
// ELF: Machine: Advanced Micro Devices X86-64
// ASM: .globl scale
// ASM: scale:

__kernel void scale(__global float *x, float s) { x[get_global_id(0)] *= s; }
__kernel void offset(__global float *x, float o) { x[get_global_id(0)] += o; }
