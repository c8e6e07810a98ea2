// A builtin that SKMD's x86 library lacks is a compile error that names it
// (not a dlopen failure where the kernel runs), and nothing is written.
// RUN: rm -f %t.skmd
// RUN: not %skmd-cc --targets=x86 %s -o %t.skmd 2>&1 | FileCheck %s
// RUN: not ls %t.skmd

// CHECK: skmd-cc: error: the kernels call OpenCL builtins that SKMD's x86 builtins library does not provide:
// CHECK-NEXT: work_group_reduce_add(int)

// The devices lack the work-group collectives, so Clang no longer declares
// them; a program that declares one itself still reaches the check.
int __attribute__((overloadable)) work_group_reduce_add(int);

__kernel void group_sums(__global int *v) {
  size_t i = get_global_id(0);
  v[i] = work_group_reduce_add(v[i]);
}
