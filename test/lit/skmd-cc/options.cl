// -D, -I, -cl-std and -O reach the frontend and are recorded.
// RUN: %skmd-cc --emit=meta -DFACTOR=3 -I %S/Inputs -cl-std=CL1.2 -O1 %s | FileCheck %s --check-prefix=META
// RUN: %skmd-cc --emit=llvm -DFACTOR=3 -I %S/Inputs %s | FileCheck %s --check-prefix=IR
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
