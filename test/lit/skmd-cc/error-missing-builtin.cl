// A builtin that SKMD's x86 library lacks is a compile error that names it
// (not a dlopen failure where the kernel runs), and nothing is written.
// RUN: rm -f %t.skmd
// RUN: not %skmd-cc --targets=x86 %s -o %t.skmd 2>&1 | FileCheck %s
// RUN: not ls %t.skmd
// The other targets take their builtins from libclc and do not fail.
// RUN: %skmd-cc --targets=ptx %s -o %t.ptx.skmd

// CHECK: skmd-cc: error: the kernels call OpenCL builtins that SKMD's x86 builtins library does not provide:
// CHECK-NEXT: shuffle(int vector[4], unsigned int vector[4])

__kernel void reverse(__global int4 *v) {
  size_t i = get_global_id(0);
  v[i] = shuffle(v[i], (uint4)(3, 2, 1, 0));
}
