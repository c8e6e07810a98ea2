// A bundle holds all three variants and the metadata, and skmd-info reads it
// back with the runtime's reader.
// RUN: rm -f %t.skmd
// RUN: %skmd-cc %s -o %t.skmd
// RUN: %skmd-info %t.skmd | FileCheck %s
// RUN: %skmd-info --json %t.skmd | FileCheck %s --check-prefix=JSON
// RUN: %skmd-cc --targets=spirv,x86 %s -o %t2.skmd
// RUN: %skmd-info %t2.skmd | FileCheck %s --check-prefix=TWO
// Without -o the bundle is named after the input, in the current folder.
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && %skmd-cc %s && %skmd-info bundle.skmd | FileCheck %s

// CHECK: producer: skmd-cc {{.*}} (LLVM 22.
// CHECK: variants:
// CHECK-NEXT: x86 x86_64-unknown-linux-gnu x86-64-v3 {{[0-9]+}} bytes
// CHECK-NEXT: needs: avx avx2 bmi bmi2 fma popcnt sse4.1 sse4.2
// CHECK-NEXT: ptx nvptx64-nvidia-cuda sm_90 {{[0-9]+}} bytes
// CHECK-NEXT: spirv spirv64v1.2-unknown-unknown - {{[0-9]+}} bytes
// CHECK: kernels:
// CHECK-NEXT: histogram
// CHECK-NEXT: reqd_work_group_size 256x1x1
// CHECK-NEXT: x86 entry points: histogram__skmd_wg, histogram__skmd_merge__skmd_wg
// CHECK-NEXT: ptx entry points: histogram, histogram__skmd_range, histogram__skmd_box, histogram__skmd_merge
// CHECK-NEXT: spirv entry points: histogram, histogram__skmd_range, histogram__skmd_merge
// CHECK-NEXT: cpu: 256 B __local, {{[0-9]+}} B per work-item across barriers
// CHECK-NEXT: partitionable, contiguous no
// CHECK-NEXT: 'bins': atomic add only; each device's copy is combined
// CHECK-NEXT: arg 0 data uint* global_buffer size 8 elem 4 read const
// CHECK-NEXT: footprint: 1 affine access (1 guarded, 1 below a bound), contiguous always
// CHECK-NEXT: arg 1 bins uint* global_buffer size 8 elem 4 read-write
// CHECK-NEXT: footprint: 1 affine access (1 guarded, 1 below a bound), contiguous no
// CHECK-NEXT: arg 2 n uint scalar size 4 elem 0 value
// JSON: "schema": 5
// TWO: variants:
// TWO-NEXT: spirv
// TWO-NEXT: x86
// TWO-NEXT: needs:
// TWO-NEXT: kernels:

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram(__global const uint *data, __global uint *bins, uint n) {
  __local uint local_bins[64];
  size_t l = get_local_id(0);
  if (l < 64)
    local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  if (i < n)
    atomic_inc(&local_bins[data[i] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64)
    atomic_add(&bins[l], local_bins[l]);
}
