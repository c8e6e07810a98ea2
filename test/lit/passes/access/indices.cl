// Copies of pointers, helpers, loops with affine strides, data-dependent
// indices.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s
// At -O0 too: helpers are inlined and locals promoted for the analyses.
// RUN: %skmd-cc -O0 --emit=llvm %s | %opt -passes='print<skmd-access>' -disable-output 2>&1 | FileCheck %s --check-prefix=O0

// Pointers copied into locals and passed to a helper; the helper's two
// stores a constant apart coalesce into one 8-byte access.
// CHECK-LABEL: kernel 'copies' (1-D): contiguous always
// CHECK-NEXT: arg 0 'dst': affine, contiguous always
// CHECK-NEXT: write 8 B at 8*group.0*local_size.0 + 8*local_id.0 + 8*global_offset.0
// CHECK-NEXT: arg 1 'src': affine, contiguous always
// CHECK-NEXT: read 4 B at 4*group.0*local_size.0 + 4*local_id.0 + 4*global_offset.0
// O0-LABEL: kernel 'copies' (1-D): contiguous always
// O0-NEXT: arg 0 'dst': affine, contiguous always
// O0-NEXT: write 8 B at 8*group.0*local_size.0 + 8*local_id.0 + 8*global_offset.0
static void store_pair(__global float *p, size_t i, float v) {
  p[2 * i] = v;
  p[2 * i + 1] = -v;
}
__kernel void copies(__global float *dst, __global const float *src) {
  __global float *d = dst;
  __global const float *s = src;
  size_t i = get_global_id(0);
  store_pair(d, i, s[i]);
}

// A loop over a row: loop.0 counts columns; the rows of consecutive
// work-items follow each other, so the whole band is one run.
// CHECK-LABEL: kernel 'row_sum' (1-D): contiguous always
// The count is guarded: a loop that does not run counts as one pass.
// CHECK-NEXT: loop.0 runs (["smax",1,"arg.2"]) times
// CHECK-NEXT: arg 0 'm': affine, contiguous always
// CHECK-NEXT: read 4 B at 4*arg.2*group.0*local_size.0 + 4*arg.2*local_id.0 + 4*arg.2*global_offset.0 + 4*loop.0 (guarded)
// CHECK-NEXT: arg 1 'sums': affine, contiguous always
// An unrotated loop (-O0) tests at the top: its body runs once less than
// the header, and the count keeps its guard against negative cols.
// O0-LABEL: kernel 'row_sum'
// O0-NEXT: loop.0 runs (["smax",0,"arg.2"]) times
// O0-NEXT: arg 0 'm': affine
// O0-NEXT: read 4 B at 4*arg.2*group.0*local_size.0 + 4*arg.2*local_id.0 + 4*arg.2*global_offset.0 + 4*loop.0 (guarded)
__kernel void row_sum(__global const float *m, __global float *sums, int cols) {
  size_t r = get_global_id(0);
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c)
    acc += m[r * cols + c];
  sums[r] = acc;
}

// A stride of 4 elements: the trip count is a division, kept whole.
// CHECK-LABEL: kernel 'strided' (1-D): contiguous no
// CHECK-NEXT: loop.0 runs 1 + (["udiv",["+",-1,["smax",1,"arg.1"]],4]) times
// CHECK-NEXT: arg 0 'a': affine, contiguous no
// CHECK-NEXT: write 4 B at 256*group.0*local_size.0 + 256*local_id.0 + 256*global_offset.0 + 16*loop.0 (guarded)
__kernel void strided(__global float *a, int n) {
  size_t g = get_global_id(0);
  for (int k = 0; k < n; k += 4)
    a[g * 64 + k] = 0.0f;
}

// Indices loaded from memory: the whole buffer, and why.
// CHECK-LABEL: kernel 'gather' (1-D): contiguous no
// CHECK-NEXT: arg 0 'idx': affine, contiguous always
// CHECK-NEXT: read 4 B at
// CHECK-NEXT: arg 1 'src': whole buffer (an index depends on a value loaded from memory)
// CHECK-NEXT: arg 2 'dst': affine, contiguous always
__kernel void gather(__global const int *idx, __global const float *src,
                     __global float *dst) {
  size_t i = get_global_id(0);
  dst[i] = src[idx[i]];
}

// CHECK-LABEL: kernel 'scatter' (1-D): contiguous no
// CHECK: arg 2 'dst': whole buffer (an index depends on a value loaded from memory)
__kernel void scatter(__global const int *idx, __global const float *src,
                      __global float *dst) {
  size_t i = get_global_id(0);
  dst[idx[i]] = src[i];
}

// A quadratic index is not affine.
// CHECK-LABEL: kernel 'squares' (1-D): contiguous no
// CHECK-NEXT: arg 0 'out': whole buffer (an index is not affine in the work-item ids and loop counters)
__kernel void squares(__global int *out) {
  size_t i = get_local_id(0);
  out[i * i] = 1;
}

// An index truncated below 32 bits wraps: a mask, a uchar. The polynomial
// without the truncation would put the reads at in[i], not in[0, 8).
// CHECK-LABEL: kernel 'wrapped' (1-D): contiguous no
// CHECK: arg 1 'in': whole buffer (an index wraps at 2^3 (a mask or a narrow integer type))
// CHECK-LABEL: kernel 'narrow' (1-D): contiguous no
// CHECK: arg 1 'in': whole buffer (an index wraps at 2^8 (a mask or a narrow integer type))
__kernel void wrapped(__global float *out, __global const float *in) {
  size_t i = get_global_id(0);
  out[i] = in[i & 7];
}
__kernel void narrow(__global float *out, __global const float *in) {
  uchar c = get_global_id(0);
  out[get_global_id(0)] = in[c];
}
