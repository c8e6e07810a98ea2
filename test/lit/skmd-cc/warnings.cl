// Warnings are printed; -Werror makes them errors (and nothing is
// written), -w hides them; both are part of the compile options recorded.
// RUN: %skmd-cc --targets=x86 %s -o %t.skmd 2>&1 | FileCheck %s --check-prefix=SHOWN
// RUN: not %skmd-cc --targets=x86 -Werror %s -o %t.err.skmd 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not ls %t.err.skmd
// RUN: %skmd-cc --targets=x86 -w %s -o %t.quiet.skmd 2>&1 | FileCheck %s --check-prefix=HIDDEN --allow-empty
// RUN: %skmd-cc --targets=x86 -w --emit=meta %s | FileCheck %s --check-prefix=META

// SHOWN: warning: OpenCL extension 'made_up_extension' unknown
// ERROR: error: OpenCL extension 'made_up_extension' unknown
// HIDDEN-NOT: warning
// META: "-w"

#pragma OPENCL EXTENSION made_up_extension : enable
__kernel void k(__global int *x) { x[0] = 1; }
