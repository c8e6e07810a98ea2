// print<skmd-uniformity>: which values are the same for every work-item of
// a group. Group ids, sizes and arguments are; ids and loads are not; a
// loop counter is only if every work-item leaves the loop together.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-uniformity>' -disable-output 2>&1 | FileCheck %s

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
