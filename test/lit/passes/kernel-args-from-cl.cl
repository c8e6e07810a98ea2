// The passes run in a user's own opt pipeline on what skmd-cc --emit=llvm
// prints, for any target.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='print<skmd-kernel-args>' -disable-output 2>&1 | FileCheck %s
// RUN: %skmd-cc --emit=llvm --targets=ptx %s | %opt -passes='print<skmd-kernel-args>' -disable-output 2>&1 | FileCheck %s
// RUN: %skmd-cc --emit=llvm --targets=spirv -O0 %s | %opt -passes='print<skmd-kernel-args>' -disable-output 2>&1 | FileCheck %s

// CHECK-LABEL: kernel 'blackscholes_like'
// CHECK-NEXT: arg 0 'call': global write
// CHECK-NEXT: arg 1 'put': global write
// CHECK-NEXT: arg 2 'price': global read
// CHECK-NEXT: arg 3 'strike': global read
// CHECK-NEXT: arg 4 'r': value

static void body(float *c, float *p, float s, float k, float r) {
  *c = fmax(s - k, 0.0f) * exp(-r);
  *p = fmax(k - s, 0.0f) * exp(-r);
}

__kernel void blackscholes_like(__global float *call, __global float *put,
                                __global const float *price,
                                __global const float *strike, float r) {
  size_t tid = get_global_id(1) * get_global_size(0) + get_global_id(0);
  // A copy of the output pointer, as in the SKMD paper's example.
  __global float *out = call;
  float c, p;
  body(&c, &p, price[tid], strike[tid], r);
  out[tid] = c;
  put[tid] = p;
}
