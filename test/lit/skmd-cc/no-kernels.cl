// A source without a __kernel function (helpers only, or nothing) is a
// valid OpenCL program: skmd-cc makes a bundle with no kernels, and warns.
// RUN: %skmd-cc %s -o %t.skmd 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %skmd-cc --emit=meta %s 2>/dev/null | FileCheck %s --check-prefix=META
// RUN: printf '' > %t.empty.cl
// RUN: %skmd-cc %t.empty.cl -o %t.empty.skmd 2>&1 | FileCheck %s --check-prefix=WARN
// A kernel it does not have is named as missing.
// RUN: not %skmd-run %t.skmd helper --global=1 --local=1 2>&1 | FileCheck %s --check-prefix=MISSING

// WARN: skmd-cc: warning: '{{.*}}' defines no __kernel function; the bundle has no kernels
// META: "kernels": []
// MISSING: skmd-run: error: kernel: the bundle (no-kernels.cl) has no kernel 'helper'; it has none

float helper(float x) { return x * 2.0f; }
