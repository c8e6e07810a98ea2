// skmd-implicit-loop-barriers puts a barrier at the start and end of each
// iteration of an innermost loop that every work-item runs the same number
// of times, that carries a floating-point value (so it cannot vectorize on
// its own) and that would not be unrolled; the work-group function then
// runs the work-items inside the loop, and its counter, the same for all,
// takes one slot per group.
// RUN: %skmd-cc --emit=llvm %s -o %t.ll
// RUN: %opt -passes=skmd-implicit-loop-barriers -S %t.ll | FileCheck %s
// RUN: %opt -passes=skmd-implicit-loop-barriers,skmd-work-group-function -S %t.ll \
// RUN:   | FileCheck %s --check-prefix=WG

// CHECK-LABEL: define {{.*}} @dot_rows(
// CHECK: for.body.i:
// CHECK-NEXT: phi
// CHECK-NEXT: phi
// CHECK-NEXT: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK-NEXT: br i1
// WG-LABEL: define {{.*}} @dot_rows__skmd_wg(
// WG-NEXT: prologue:
// WG: %indvars.iv.reg2mem = alloca i64
__kernel void dot_rows(__global const float *a, __global const float *x,
                       __global float *y, int n) {
  int row = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * x[k];
  y[row] = sum;
}

// Each work-item runs its own number of iterations: no barriers.
// CHECK-LABEL: define {{.*}} @varying_bound(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void varying_bound(__global const float *a, __global float *y) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < i; ++k)
    sum += a[k];
  y[i] = sum;
}

// The bound is read from a buffer at one address: the same for all (a
// program without data races reads one value there), so the loop turns.
// CHECK-LABEL: define {{.*}} @loaded_bound(
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: ret void
__kernel void loaded_bound(__global const float *a, __global const int *n,
                           __global float *y) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n[0]; ++k)
    sum += a[i * 64 + k];
  y[i] = sum;
}

// ... but a sum the same for every work-item (of a row every work-item
// reads alike) gains nothing from running the work-items inside the loop.
// CHECK-LABEL: define {{.*}} @uniform_sum(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void uniform_sum(__global const float *a, __global const int *n,
                          __global float *y) {
  float sum = 0.0f;
  for (int k = 0; k < n[0]; ++k)
    sum += a[k];
  y[get_global_id(0)] = sum;
}

// A bound read from private memory, or through a volatile pointer, is not
// known to be the same for all.
// CHECK-LABEL: define {{.*}} @volatile_bound(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void volatile_bound(__global const float *a, volatile __global int *n,
                             __global float *y) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n[0]; ++k)
    sum += a[i * 64 + k];
  y[i] = sum;
}

// Only some work-items reach the loop.
// CHECK-LABEL: define {{.*}} @under_a_varying_branch(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void under_a_varying_branch(__global const float *a, __global float *y,
                                     int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  if (get_local_id(0) < 4)
    for (int k = 0; k < n; ++k)
      sum += a[k * i];
  y[i] = sum;
}

// A uniform loop whose guard sits under a varying branch runs for some
// work-items only (LU factorisation's shape): no barriers in it, only the
// kernel's own. With barriers there the work-group function crashed.
// CHECK-LABEL: define {{.*}} @uniform_loop_under_a_varying_branch(
// CHECK-COUNT-1: call void @_Z7barrierj(
// CHECK-NOT: call void @_Z7barrierj(
// CHECK: ret void
__kernel void uniform_loop_under_a_varying_branch(__global float *a) {
  int tx = get_local_id(0);
  for (int i = 0; i < 3; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++)
        a[tx * 16 + i] += 1.0f;
      a[tx * 16 + i] *= 0.5f;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// 16 iterations are unrolled later; an integer sum vectorizes as it is.
// CHECK-LABEL: define {{.*}} @short_or_integer(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void short_or_integer(__global const float *a, __global const int *b,
                               __global float *y, __global int *z, int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k)
    sum += a[i + k];
  int total = 0;
  for (int k = 0; k < n; ++k)
    total += b[i * n + k];
  y[i] = sum;
  z[i] = total;
}

// A private array the loop reads and writes at indices the same for every
// work-item (a generator's state, the Mersenne twister's shape): the
// dependence through memory keeps the loop from vectorizing on its own, so
// it turns; so does the loop filling the array, which carries a varying
// integer recurrence (no induction, no reduction).
// CHECK-LABEL: define {{.*}} @array_state(
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: ret void
__kernel void array_state(__global uint *out, uint draws) {
  uint mt[64];
  mt[0] = (uint)get_global_id(0);
  for (uint i = 1; i < 64; ++i)
    mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
  uint i = 0;
  for (uint k = 0; k < draws; ++k) {
    uint next = (i + 1) % 64;
    uint y = mt[i] ^ (mt[next] >> 1) ^ mt[(i + 37) % 64];
    mt[i] = y;
    i = next;
    out[k * get_global_size(0) + get_global_id(0)] = y;
  }
}

// A linear congruential generator per work-item: a varying integer
// recurrence.
// CHECK-LABEL: define {{.*}} @integer_recurrence(
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: call void @_Z7barrierj(i32 1)
// CHECK: ret void
__kernel void integer_recurrence(__global uint *out, int n) {
  uint x = (uint)get_global_id(0);
  for (int k = 0; k < n; ++k) {
    x = x * 1103515245u + 12345u;
    out[k * get_global_size(0) + get_global_id(0)] = x;
  }
}

// An array indexed differently by each work-item would be gathered from
// per-item copies: no barriers. Neither for an integer that only feeds
// stores, a fixed-order recurrence the vectorizer widens itself.
// CHECK-LABEL: define {{.*}} @varying_index_or_fixed_order(
// CHECK-NOT: @_Z7barrierj
// CHECK: ret void
__kernel void varying_index_or_fixed_order(__global const uint *in,
                                           __global uint *out, int n) {
  uint a[64];
  uint g = (uint)get_global_id(0);
  for (uint j = 0; j < 64; ++j)
    a[j] = in[j];
  for (int k = 0; k < n; ++k) {
    uint j = (g + k) % 64;
    a[j] = a[j] * 3u + a[(j + 1) % 64];
  }
  uint prev = g;
  for (int k = 0; k < n; ++k) {
    uint cur = in[g * n + k];
    out[g * n + k] = cur - prev;
    prev = cur;
  }
  out[g] += a[g % 64];
}
