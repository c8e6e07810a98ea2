// On PTX a __local argument is an offset into the block's dynamic shared
// memory, reached through an extern array wherever the driver puts it: the
// runtime's computed address (static size rounded up) met the kernel's
// static __local variables on an H100 (SHOC's top_scan lost its seed).
// RUN: %skmd-cc --emit=ptx %s | FileCheck %s
// CHECK-DAG: .extern .shared .align 128 .b8 skmd_dynamic_shared[];
// CHECK-DAG: .shared .align 4 .u32 t_$_seed;
// CHECK-LABEL: .entry t(
// CHECK-DAG: st.shared.b32 [t_$_seed]
// CHECK-DAG: skmd_dynamic_shared
// CHECK-LABEL: .entry t__skmd_range(
// CHECK: skmd_dynamic_shared
// CHECK-LABEL: .entry t__skmd_box(
// CHECK: skmd_dynamic_shared
__kernel void t(__global uint *out, __local uint *lmem, const int n) {
  __local int seed;
  if (get_local_id(0) == 0)
    seed = n;
  lmem[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = lmem[n - 1 - get_local_id(0)] + seed;
}
