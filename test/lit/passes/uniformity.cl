// print<skmd-uniformity>: which values are the same for every work-item of
// a group. Group ids, sizes and arguments are, and loads from one address
// of a buffer, and math of them; ids, loads at a work-item's own address,
// from private memory and volatile ones are not; a loop counter is only if
// every work-item leaves the loop together.
// RUN: %skmd-cc --emit=llvm %s -o %t.ll
// RUN: %opt -passes='print<skmd-uniformity>' -disable-output %t.ll 2>&1 | FileCheck %s
// With SKMD's x86 builtins linked, as the x86 pipeline has them: their
// math computes from its operands alone.
// RUN: %llvm-link --only-needed %t.ll %x86-builtins -o %t.bc
// RUN: %opt -passes='print<skmd-uniformity>' -disable-output %t.bc 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINKED

// CHECK-LABEL: kernel mix
// CHECK-NEXT: loop for.body.i: uniform exits
// CHECK-NEXT: loop for.body11.i: varying exits
// The group id and values made from it and n.
// CHECK-DAG: %call.i: uniform
// CHECK-DAG: %add.i: uniform
// The global id, and what is loaded.
// CHECK-DAG: %call1.i: varying
// CHECK-DAG: %arrayidx.i: varying
// The first loop's counter and exit test: the same for all.
// CHECK-DAG: %k.i.09: uniform
// CHECK-DAG: %exitcond.not: uniform
// A sum of loaded values.
// CHECK-DAG: %s.i.010: varying
// The second loop runs get_global_id(0) times: its counter varies even
// though it starts at 0 and adds 1.
// CHECK-DAG: %k5.i.012: varying
// CHECK-DAG: %inc13.i: varying
// CHECK-DAG: %exitcond15.not: varying
__kernel void mix(__global const float *a, __global float *y, int n) {
  size_t g = get_group_id(0);
  size_t i = get_global_id(0);
  int bound = n * 2 + (int)g;
  float v = a[i];
  float s = 0.0f;
  for (int k = 0; k < bound; ++k)
    s += v * k;
  for (int k = 0; k < (int)i; ++k)
    s -= 1.0f;
  y[i] = s;
}

// CHECK-LABEL: kernel loads
// One address of a __global, __constant or __local buffer: the same value
// for all, and vector operations of it.
// CHECK-DAG: %1: uniform
// CHECK-DAG: %2: uniform
// CHECK-DAG: %3: uniform
// CHECK-DAG: %4: uniform
// Each work-item's own address, its private array, a volatile load.
// CHECK-DAG: %6: varying
// CHECK-DAG: %7: varying
// CHECK-DAG: %8: varying
// A builtin, unlinked, is not known to compute from its operands alone.
// CHECK-DAG: %call4.i: varying
// LINKED-LABEL: kernel loads
// LINKED-DAG: %call4.i: uniform
// LINKED-DAG: %call12.i: varying
__kernel void loads(__global const float4 *a, __constant float *c,
                    volatile __global float *v, __global float *y,
                    __local float *l) {
  size_t g = get_group_id(0), i = get_global_id(0);
  float p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = y[i * 4 + k];
  float4 shared_ = a[g];             // %1
  float root_ = sqrt(shared_.x);     // %2 = extractelement, %call4.i
  float from_constant_ = c[g];       // %3
  l[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float from_local_ = l[0];          // %4
  float own_ = a[i].y;               // %6
  float priv_ = p[g & 3];            // %7
  float vol_ = v[g];                 // %8
  float own_root_ = sqrt(own_);      // %call12.i
  y[i] = from_constant_ - root_ + from_local_ + own_root_ + priv_ + vol_;
}
