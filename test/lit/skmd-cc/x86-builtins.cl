// The x86 variant takes OpenCL builtins from SKMD's own library, inlined
// into the work-group functions: no OpenCL-mangled symbol is left undefined,
// only glibc's vector math that the vectorizer chose.
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd
// RUN: %skmd-info --extract=x86 -o %t.so %t.skmd
// RUN: llvm-nm -D --undefined-only %t.so | FileCheck %s
// A missing library is named, and nothing is written.
// RUN: rm -f %t2.skmd
// RUN: not %skmd-cc --targets=x86 --x86-builtins=%t.none.bc %s -o %t2.skmd 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ls %t2.skmd

// CHECK-NOT: U _Z{{[0-9]}}
// CHECK: U _ZGV{{[A-Za-z0-9]+}}_sinf
// CHECK-NOT: U _Z{{[0-9]}}
// MISSING: skmd-cc: error: SKMD's x86 builtins library not found at '{{.*}}none.bc' (given by --x86-builtins)

__kernel void waves(__global const float4 *t, __global float4 *out, float k) {
  size_t i = get_global_id(0);
  out[i] = clamp(exp(-k * t[i]) * sin(t[i]) + fabs(cos(t[i])), -1.0f, 1.0f);
}

// Memory fences of every kind (a global one failed to build: "builtins
// library does not provide mem_fence(unsigned int)").
__kernel void fences(__global volatile uint *o, __local uint *t) {
  size_t i = get_global_id(0);
  o[i] = 1;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  t[get_local_id(0)] = 2;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  o[i] += t[get_local_id(0)];
}
