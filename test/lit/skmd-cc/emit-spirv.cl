// SPIR-V: validated in-process, one OpEntryPoint per kernel.
// REQUIRES: spirv-tools
// RUN: %skmd-cc --emit=spirv %s -o %t.spv
// RUN: spirv-val --target-env opencl2.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Printed to stdout, the module is disassembled.
// RUN: %skmd-cc --emit=spirv %s | FileCheck %s --check-prefix=TEXT

// CHECK: Version: 1.2
// CHECK-DAG: OpEntryPoint Kernel %{{[a-z_0-9]+}} "tile_sum"
// CHECK-DAG: OpEntryPoint Kernel %{{[a-z_0-9]+}} "copy"
// CHECK: OpControlBarrier
// TEXT: OpEntryPoint Kernel

__kernel void tile_sum(__global const int *in, __global int *out) {
  __local int tile[64];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (int i = 0; i < 64; ++i)
      s += tile[i];
    out[get_group_id(0)] = s;
  }
}

__kernel void copy(__global const int *in, __global int *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
