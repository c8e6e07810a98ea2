// -D, -I, -cl-std and -O reach the frontend and are recorded.
// RUN: %skmd-cc --emit=meta -DFACTOR=3 -I %S/Inputs -cl-std=CL1.2 -O1 %s | FileCheck %s --check-prefix=META
// RUN: %skmd-cc --emit=llvm -DFACTOR=3 -I %S/Inputs %s | FileCheck %s --check-prefix=IR
// The bundle, which keeps the source and its header, is the same bytes
// from run to run (the files came out in the order of the source
// manager's pointers, which changes between runs).
// RUN: %skmd-cc -DFACTOR=3 -I %S/Inputs %s -o %t.1.skmd
// RUN: %skmd-cc -DFACTOR=3 -I %S/Inputs %s -o %t.2.skmd
// RUN: %skmd-cc -DFACTOR=3 -I %S/Inputs %s -o %t.3.skmd
// RUN: cmp %t.1.skmd %t.2.skmd
// RUN: cmp %t.1.skmd %t.3.skmd
// Without the define the kernel does not compile.
// RUN: not %skmd-cc --emit=llvm -I %S/Inputs %s 2>&1 | FileCheck %s --check-prefix=NODEF

// META:      "options": [
// META-NEXT:   "-cl-std=CL1.2",
// META-NEXT:   "-O1",
// META-NEXT:   "-DFACTOR=3"
// IR: mul {{.*}}, 3
// NODEF: options.cl:[[@LINE+4]]:{{[0-9]+}}: error: use of undeclared identifier 'FACTOR'

#include "common.h"
__kernel void triple(__global int *x) {
  x[get_global_id(0)] = TWICE(x[get_global_id(0)]);
}
