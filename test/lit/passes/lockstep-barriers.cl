// skmd-lockstep-barriers: in kernels with barriers, barriers around the
// collective writes programs expect to finish in every work-item before
// any goes on (a memset of a whole __local buffer, a loop filling it), and
// before and at the end of each iteration of loops that hold barriers,
// where shared memory is touched on both sides; nothing where work-items
// may run a place differently often, nor in kernels without barriers.
// RUN: %skmd-cc --emit=llvm %s -o %t.ll
// RUN: %opt -passes=skmd-lockstep-barriers -S %t.ll | FileCheck %s
// RUN: %opt -passes=skmd-lockstep-barriers,skmd-work-group-function -S %t.ll \
// RUN:   | FileCheck %s --check-prefix=WG

// The zeroing loop is a memset: a barrier after it (before it, nothing
// touches shared memory).
// CHECK-LABEL: define {{.*}} @zero_then_slot(
// CHECK-NOT: call void @_Z7barrierj(i32 1)
// CHECK: call void @llvm.memset
// CHECK-NEXT: call void @_Z7barrierj(i32 1)
// CHECK: store i32
// CHECK-NEXT: call void @_Z7barrierj(i32 noundef 1)
// CHECK: ret void
// WG-LABEL: define {{.*}} @zero_then_slot__skmd_wg(
__kernel void zero_then_slot(__global int *out, __local int *buf) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  for (size_t i = 0; i < n; ++i)
    buf[i] = 0;
  buf[lid] = (int)lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[n - 1 - lid];
}

// A fill that stays a loop (-1.5f is no repeated byte) stores at a uniform
// address: a barrier at the end of each iteration (none before the loop,
// where nothing touches shared memory).
// CHECK-LABEL: define {{.*}} @fill_then_slot(
// CHECK: entry:
// CHECK-NEXT: br label %[[BODY:.*]]
// CHECK: [[BODY]]:
// CHECK-NOT: call void @_Z7barrierj
// CHECK: store float -1.500000e+00
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK-NEXT: br i1 %{{.*}}, label %{{.*}}, label %[[BODY]]
// CHECK: ret void
// WG-LABEL: define {{.*}} @fill_then_slot__skmd_wg(
__kernel void fill_then_slot(__global float *out) {
  __local float buf[64];
  size_t lid = get_local_id(0);
  for (int i = 0; i < 64; ++i)
    buf[i] = -1.5f;
  if (lid < 64)
    buf[lid] = (float)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[63 - lid % 64];
}

// A loop holding barriers (a wavelet's levels): a barrier at the end of
// its preheader (the load before it, the stores in it) and of its latch,
// unless one is there already. The zeroing loop inside it (not a memset
// here) gets them too.
// CHECK-LABEL: define {{.*}} @levels(
// CHECK: load float
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK-NEXT: br label %[[OUTER:.*]]
// CHECK: [[OUTER]]:
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK-NEXT: br label %[[INNER:.*]]
// CHECK: call void @_Z7barrierj(i32 noundef 1)
// CHECK: call void @_Z7barrierj(i32 noundef 1)
// CHECK-NOT: call void @_Z7barrierj
// CHECK: br i1 %{{.*}}, label %{{.*}}, label %[[OUTER]]
// CHECK: store float 0.000000e+00
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK-NEXT: br label %[[INNER]]
// CHECK: ret void
// WG-LABEL: define {{.*}} @levels__skmd_wg(
__kernel void levels(__global float *data, __local float *buf, int n) {
  size_t lid = get_local_id(0);
  float v = data[get_global_id(0)];
  for (int l = 0; l < n; ++l) {
    for (size_t i = 0; i < get_local_size(0); ++i)
      buf[i] = 0.0f;
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += buf[lid ^ 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
}

// Nothing touching shared memory before the loop nor after its last
// barrier (binomial option's shape): a barrier there would change
// nothing, and none is added.
// CHECK-LABEL: define {{.*}} @quiet_ends(
// CHECK-NOT: call void @_Z7barrierj(i32 1)
// CHECK: ret void
__kernel void quiet_ends(__global float *out, __local float *buf, int n) {
  size_t lid = get_local_id(0);
  float v = 0.0f;
  for (int j = n; j > 0; j -= 2) {
    buf[lid] = v + j;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    v *= 0.5f;
  }
  out[get_global_id(0)] = v;
}

// Without barriers in the kernel, nothing is added.
// CHECK-LABEL: define {{.*}} @no_barriers(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void no_barriers(__global int *out, __local int *buf) {
  for (int i = 0; i < 64; ++i)
    buf[i] = 7;
  buf[get_local_id(0)] = 1;
  out[get_global_id(0)] = buf[0];
}

// Each work-item fills its own slots (a varying address), only some
// work-items zero the buffer, a private array: no barriers but the
// kernel's own.
// CHECK-LABEL: define {{.*}} @not_collective(
// CHECK-NOT: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 noundef 1)
// CHECK-NOT: call void @_Z7barrierj(i32 1)
// CHECK: ret void
__kernel void not_collective(__global float *out, __local float *buf, int n) {
  size_t lid = get_local_id(0);
  for (int i = 0; i < n; ++i)
    buf[lid * n + i] = 1.5f;
  if (lid == 0)
    for (int i = 0; i < n; ++i)
      buf[i] = -1.5f;
  float p[16];
  for (int i = 0; i < 16; ++i)
    p[i] = out[i * lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[lid] + p[lid % 16];
}
