// A plain `inline` helper is a definition (as OpenCL drivers take it): at
// -O0, where nothing is inlined, it was left an undefined symbol that only
// the x86 variant's loading found. A helper declared but never defined is
// refused when compiling, named.
// RUN: %skmd-cc -O 0 %s -o %t.skmd
// RUN: %skmd-run %t.skmd twice_all --global=64 --local=16 --arg=64:iota \
// RUN:   --devices=cpu,discrete --plan=even --check --print=a:4 | FileCheck %s
// CHECK: a: 0 2 4 6
// CHECK: check: ok
// RUN: not %skmd-cc -DUNDEFINED %s -o %t2.skmd 2>&1 | FileCheck %s --check-prefix=UNDEF
// UNDEF: skmd-cc: error: {{.*}}functions.cl: the kernels call 'thrice', declared but not defined in the file (SKMD compiles one file: define it there)
// RUN: not ls %t2.skmd

inline int twice(int x) { return 2 * x; }

__kernel void twice_all(__global int *a) {
  a[get_global_id(0)] = twice(a[get_global_id(0)]);
}

#ifdef UNDEFINED
int thrice(int x);
__kernel void thrice_all(__global int *a) {
  a[get_global_id(0)] = thrice(a[get_global_id(0)]);
}
#endif
