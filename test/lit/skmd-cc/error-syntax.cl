// A syntax error is reported as clang reports it, the exit code is non-zero,
// and no bundle, not even a partial one, is left behind.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: not %skmd-cc %s -o %t.dir/out.skmd 2>&1 | FileCheck %s
// RUN: ls -A %t.dir | count 0
// An existing bundle is not touched by a failed compile.
// RUN: echo previous > %t.dir/out.skmd
// RUN: not %skmd-cc %s -o %t.dir/out.skmd 2>/dev/null
// RUN: FileCheck %s --check-prefix=KEPT < %t.dir/out.skmd
// RUN: ls -A %t.dir | FileCheck %s --check-prefix=ONLY

// CHECK: error-syntax.cl:[[@LINE+6]]:11: error: expected ';' after expression
// CHECK: skmd-cc: error: compilation of '{{.*}}error-syntax.cl' failed
// KEPT: previous
// ONLY: {{^}}out.skmd{{$}}

__kernel void broken(__global int *x) {
  x[0] = 1
}
