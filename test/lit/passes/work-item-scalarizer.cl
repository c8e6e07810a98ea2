// skmd-work-item-scalarizer splits vector code into scalars, so that
// work-item loops widen across work-items, except in a work-group function
// whose hottest work-item loops only run float4 code under a branch that
// differs between work-items: the vectorizer does not widen those, and the
// float4 code runs one SSE operation where the split ran four.
// RUN: %skmd-cc --emit=llvm %s -o %t.ll
// RUN: %opt -passes=skmd-implicit-loop-barriers,skmd-work-group-function,skmd-work-item-loop-versioning,skmd-work-item-scalarizer \
// RUN:   -S %t.ll | FileCheck %s

// A binomial-tree step: float4 loads and stores under `tid < j`, in a loop
// with barriers. The float4 code stays.
// CHECK-LABEL: define {{.*}} @tree_steps__skmd_wg(
// CHECK: load <4 x float>
// CHECK: store <4 x float>
// CHECK: ret void
__kernel void tree_steps(__global const float4 *in, __global float4 *out) {
  __local float4 a[64], b[64];
  uint tid = get_local_id(0);
  float4 p = in[get_group_id(0)], q = 1.0f - p;
  a[tid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 63; j > 0; j -= 2) {
    if (tid < j)
      b[tid] = p * a[tid + 1] + q * a[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < j - 1)
      a[tid] = p * b[tid + 1] + q * b[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    out[get_group_id(0)] = b[0];
}

// float4 code every work-item runs: split, for the vectorizer.
// CHECK-LABEL: define {{.*}} @scale__skmd_wg(
// CHECK-NOT: {{load|store}} <4 x float>
// CHECK: ret void
__kernel void scale(__global const float4 *in, __global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f;
}

// Under a guard of its own, but most of the work is scalar math: split,
// the vectorizer widens the loop for the math (Box-Muller's shape).
// CHECK-LABEL: define {{.*}} @guarded_math__skmd_wg(
// CHECK-NOT: {{load|store}} <2 x float>
// CHECK: ret void
__kernel void guarded_math(__global const float2 *in, __global float2 *out,
                           uint n) {
  uint i = get_global_id(0);
  if (in[i].x > 0.5f)
    return;
  float2 u = in[i];
  float r = sqrt(-2.0f * log(u.x));
  out[i] = (float2)(r * cospi(2.0f * u.y), r * sinpi(2.0f * u.y));
}
