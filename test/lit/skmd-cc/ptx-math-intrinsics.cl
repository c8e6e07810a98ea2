// Math that libclc leaves as LLVM intrinsics the NVPTX back end cannot
// select (native_log10 is llvm.log10, which has no PTX instruction and no
// libcall) becomes libdevice's functions, lane by lane for vectors, and
// compiles to self-contained PTX.
// RUN: %skmd-cc --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .entry logs(
// CHECK-NOT: .extern .func
// CHECK-NOT: call{{.*}}log10

__kernel void logs(__global float4 *v, __global float *s) {
  size_t i = get_global_id(0);
  v[i] = native_log10(v[i]) + half_log10(v[i]);
  s[i] = native_log10(s[i]) + native_exp10(s[i]);
}
