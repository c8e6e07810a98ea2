// skmd-work-group-function keeps per-work-item state only for values live
// at a barrier.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes=skmd-work-group-function -S | FileCheck %s

// Only values live at a barrier take per-item state: `v` (4 bytes, padded
// to 16). `w` is computed after the barrier; the local id is recomputed
// from the loop counter where it is used.
// CHECK-LABEL: define {{.*}}void @two_phase__skmd_wg(
// CHECK-NOT: call {{.*}}get_local_id
// CHECK: "skmd-wg-local-mem-bytes"="256" "skmd-wg-state-bytes"="16"
__kernel void two_phase(__global int *out) {
  __local int tmp[64];
  int l = get_local_id(0);
  int v = l * 3;
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  int w = tmp[63 - l] + 1;
  out[get_global_id(0)] = v + w;
}
