// C's shortcuts are not taken for a kernel's printf: printf("...\n") once
// became a call to puts, which no variant provides ("calls 'puts',
// declared but not defined"). Incompatible pointer conversions are
// warnings, as OpenCL drivers' compilers have them (Clang 16 made them
// errors; piglit's fract/modf/sincos tests rely on them).
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd 2>&1 | FileCheck %s --check-prefix=CC
// RUN: %skmd-run %t.skmd lines --global=1 --local=1 --arg=32 | FileCheck %s --check-prefix=OUT
// CC: warning: incompatible pointer types
// OUT: hello
// OUT-NEXT: x

__kernel void lines(__global float *o) {
  __global float8 *p = o;
  printf("hello\n");
  printf("x");
  printf("\n");
  p[0] = (float8)(1.0f);
}
