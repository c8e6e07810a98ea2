// A guarded access records the conditions that hold wherever it happens,
// as P < 0 with P affine in the index variables (comparisons of both
// signs, an equality as two, both sides of an `&&`), for the runtime to
// narrow its footprint with. Conditions that are not affine, and `!=`, are
// left out.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s

// CHECK-LABEL: kernel 'below_the_diagonal_row'
// CHECK: write 4 B at {{.*}} (guarded) [-group.1*local_size.1 - local_id.1 - global_offset.1 + arg.2 < 0] [group.0*local_size.0 + local_id.0 + global_offset.0 - arg.1 < 0]
__kernel void below_the_diagonal_row(__global float *a, int n, int t) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row > t && col < n)
    a[row * n + col] = 0.0f;
}

// The false edge of an `||`: both negated.
// CHECK-LABEL: kernel 'inside'
// CHECK: write 4 B at {{.*}} (guarded) [-1 - group.0*local_size.0 - local_id.0 - global_offset.0 + arg.1 < 0] [group.0*local_size.0 + local_id.0 + global_offset.0 - arg.2 < 0]
__kernel void inside(__global float *a, int lo, int hi) {
  int i = get_global_id(0);
  if (i < lo || i >= hi)
    return;
  a[i] = 1.0f;
}

// An equality is two conditions (i <= k and k <= i); an inequality none.
// CHECK-LABEL: kernel 'equal'
// CHECK: write 4 B at {{.*}} (guarded) [-1 - group.0*local_size.0 - local_id.0 - global_offset.0 + arg.1 < 0] [-1 + group.0*local_size.0 + local_id.0 + global_offset.0 - arg.1 < 0]
// CHECK-LABEL: kernel 'unequal'
// CHECK: write 4 B at {{.*}} (guarded){{$}}
__kernel void equal(__global float *a, int k) {
  int i = get_global_id(0);
  if (i == k)
    a[i] = 1.0f;
}

__kernel void unequal(__global float *a, int k) {
  int i = get_global_id(0);
  if (i != k)
    a[i] = 1.0f;
}

// `int gid = get_global_id(0); if (gid < 0)` reaches the analysis as
// InstCombine's (gid & 2^31) != 0: a signed test of gid in 32 bits. A mask
// of several bits is no sign test and says nothing (reading it as one
// crashed the analysis).
// CHECK-LABEL: kernel 'sign_test'
// CHECK: write 4 B at 0 (guarded) [group.0*local_size.0 + local_id.0 + global_offset.0 < 0]
// CHECK-LABEL: kernel 'mask_test'
// CHECK: write 4 B at {{.*}} (guarded){{$}}
__kernel void sign_test(__global float *a) {
  int gid = get_global_id(0);
  if (gid < 0)
    a[0] = 1.0f;
  a[gid] = 2.0f;
}
__kernel void mask_test(__global float *a) {
  size_t i = get_global_id(0);
  if ((i & 6) == 0)
    a[i] = 1.0f;
}
