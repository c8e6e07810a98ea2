// The AVX-512 bodies keep AVX-512's gathers but store scattered lanes one
// by one: AVX-512's scattered stores were slower than scalar stores on the
// Intel and AMD hosts measured (lib/Transforms/CpuDispatch.cpp).
// out[perm[i]] = in[i] in a work-group loop is the vectorizer's textbook
// scatter; its merge kernel stores the same way.
// RUN: %skmd-cc --targets=x86 --emit=asm %s | FileCheck %s

// CHECK: "scatter__skmd_wg.x86-64-v4":
// CHECK-NOT: scatter{{[dq]}}p
// CHECK: .size "scatter__skmd_merge__skmd_wg.x86-64-v4"
__kernel void scatter(__global const uint *perm, __global const float *in,
                      __global float *out) {
  size_t i = get_global_id(0);
  out[perm[i]] = in[i];
}
