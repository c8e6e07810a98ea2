// skmd-work-group-function: K__skmd_wg(args, ctx) runs a whole work-group
// in loops over the local ids; barriers split it into sub-CFGs, each with
// its own loop nest; values live across barriers go to per-work-item state.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes=skmd-work-group-function -S | FileCheck %s

// Without barriers: one loop nest, x innermost, the body inside.
// CHECK-LABEL: define {{.*}}void @vadd__skmd_wg(ptr %args, ptr %ctx)
// CHECK: prologue:
// CHECK: %group.0 = load i64
// CHECK: %local_size.0 = load i64
// CHECK: %a = load ptr
// CHECK-NOT: alloca
// CHECK: br label %region0
// CHECK: r0.x:
// CHECK-NEXT: %r0.lid.x = phi i64 [ 0, %r0.y ], [ %{{[0-9]+}}, %r0.x.latch ]
// Work-items are independent between barriers: the x loop is parallel.
// CHECK: r0.x.latch:
// CHECK: icmp ult i64 %{{[0-9]+}}, %local_size.0
// CHECK-NEXT: br i1 %{{[0-9]+}}, label %r0.x, label %r0.y.latch, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: r0.done:
// CHECK-NEXT: br label %exit
// CHECK-NOT: call {{.*}}get_global_id
// CHECK: load float, ptr %{{.*}}, !llvm.access.group ![[GROUP:[0-9]+]]
// CHECK-NOT: call {{.*}}get_global_id
// CHECK: ret void
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// Barriers in a loop: the __local tiles move to ctx->local_mem, the tile
// loop spans three sub-CFGs, and the accumulator lives in wi_state.
// CHECK-LABEL: define {{.*}}void @tiled__skmd_wg(ptr %args, ptr %ctx)
// CHECK: %local_mem = load ptr
// CHECK: %wi_state = load ptr
// CHECK: getelementptr inbounds i8, ptr %local_mem, i64 0
// CHECK: getelementptr inbounds i8, ptr %local_mem, i64 256
// CHECK: %skmd.next = alloca i32
// CHECK: r0.done:
// CHECK: r1.done:
// CHECK: r2.done:
// CHECK: switch i32
// CHECK-NOT: call void @_Z7barrierj
// CHECK: ret void
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tiled(__global const float *A, __global const float *B, __global float *C,
           int N) {
  __local float As[8][8], Bs[8][8];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N; t += 8) {
    As[ly][lx] = A[row * N + t + lx];
    Bs[ly][lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 8; ++k)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

// CHECK-DAG: ![[LOOP]] = distinct !{![[LOOP]], ![[PAR:[0-9]+]]}
// CHECK-DAG: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}

// The sizes the runtime must provide travel as attributes on the kernel.
// CHECK-DAG: "skmd-wg-local-mem-bytes"="0" "skmd-wg-state-bytes"="0"
// CHECK-DAG: "skmd-wg-local-mem-bytes"="512" "skmd-wg-state-bytes"="{{[1-9][0-9]*}}"

