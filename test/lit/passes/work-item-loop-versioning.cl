// skmd-work-item-loop-versioning copies each work-item x loop for rows of a
// group whose guards on the global id are the same for every item; the
// copy has each such comparison replaced by its value.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes=skmd-work-group-function,skmd-work-item-loop-versioning -S | FileCheck %s
// Off, no copies:
// RUN: %skmd-cc --emit=llvm %s | %opt -passes=skmd-work-group-function,skmd-work-item-loop-versioning -skmd-version-work-item-loops=false -S | FileCheck %s --check-prefix=OFF
// OFF-NOT: .interior

// A tail guard: before the loop, i at the first and last item (computed in
// 128 bits, which proves that i does not wrap) compared with n; the copy
// branches on the first item's answer, an invariant the optimizer then
// unswitches.
// CHECK-LABEL: define {{.*}}void @guarded__skmd_wg(
// CHECK: r0.y:
// CHECK: %[[LAST:[0-9]+]] = add i128 %{{[0-9]+}}, %{{[0-9]+}}
// CHECK: %[[NOWRAP:[0-9]+]] = icmp sle i128 %[[LAST]], 4294967295
// CHECK: %[[A1:[0-9]+]] = trunc i128 %[[LAST]] to i32
// CHECK: %[[FIRST:[0-9]+]] = icmp ult i32 %[[A0:[0-9]+]], %n
// CHECK: %[[ATLAST:[0-9]+]] = icmp ult i32 %[[A1]], %n
// CHECK: %[[SAME:[0-9]+]] = icmp eq i1 %[[FIRST]], %[[ATLAST]]
// CHECK: %[[HOLDS:[0-9]+]] = and i1 %[[NOWRAP]], %[[SAME]]
// CHECK: br i1 %[[HOLDS]], label %r0.x.interior, label %r0.x
// The original loop still tests every item:
// CHECK: entry.r0:
// CHECK: icmp ugt i32 %n, %conv.i.r0
// The copy, with the loop's own exit test kept:
// CHECK: entry.r0.interior:
// CHECK-NOT: icmp
// CHECK: br i1 %[[FIRST]], label %if.then.i.r0.interior
// CHECK: r0.x.latch.interior:
// CHECK: icmp ult i64 %{{[0-9]+}}, %local_size.0
// CHECK: br i1 %{{[0-9]+}}, label %r0.x.interior, label %r0.y.latch, !llvm.loop ![[COPYLOOP:[0-9]+]]
__kernel void guarded(__global const float *in, __global float *out, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    out[i] = in[i] * 2.0f;
}

// Sobel's borders: == holds for no item when the value is outside the
// first-to-last range, so in the copy both tests are false. The two
// comparisons share one range computation.
// CHECK-LABEL: define {{.*}}void @border__skmd_wg(
// CHECK: r0.y:
// CHECK-COUNT-1: icmp sle i128
// CHECK-NOT: icmp sle i128
// CHECK: br i1 %{{[0-9]+}}, label %r0.x.interior, label %r0.x
// CHECK: entry.r0.interior:
// CHECK: or i1 false, false
__kernel void border(__global const float *in, __global float *out, uint width) {
  uint x = get_global_id(0);
  if (x == 0 || x == width - 1)
    out[x] = 0.0f;
  else
    out[x] = in[x - 1] + in[x + 1];
}

// Not affine in the id: nothing to decide before the loop.
// CHECK-LABEL: define {{.*}}void @data_dependent__skmd_wg(
// CHECK-NOT: .interior
// CHECK: ret void
__kernel void data_dependent(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  if (in[i] > 0.0f)
    out[i] = in[i];
}

// CHECK-LABEL: define {{.*}}void @alternating__skmd_wg(
// CHECK-NOT: .interior
// CHECK: ret void
__kernel void alternating(__global float *out) {
  size_t i = get_global_id(0);
  if ((i & 1) == 0)
    out[i] = 1.0f;
}

// A guard in uniform code only (the group id): LLVM's unswitching serves
// it; no copy.
// CHECK-LABEL: define {{.*}}void @uniform_guard__skmd_wg(
// CHECK-NOT: .interior
// CHECK: ret void
__kernel void uniform_guard(__global float *out, uint g) {
  if (get_group_id(0) == g)
    out[get_global_id(0)] = 1.0f;
}

// The copy is a distinct loop, still declared parallel.
// CHECK-DAG: ![[COPYLOOP]] = distinct !{![[COPYLOOP]], ![[PAR:[0-9]+]]}
// CHECK-DAG: ![[PAR]] = !{!"llvm.loop.parallel_accesses"
