// A __local variable stays memory on x86: LLVM's GlobalOpt would make a
// global that one non-recursive function uses that function's local, a
// register per work-item, and the seed one item adds would never reach the
// others (SHOC's top_scan).
// RUN: %skmd-cc --emit=llvm --targets=x86 %s | FileCheck %s
// CHECK: @t.seed = internal {{.*}}externally_initialized global i32
// CHECK-LABEL: define {{.*}}@t(
// CHECK: call void @_Z7barrierj
// CHECK: load i32, ptr @t.seed
// CHECK: store i32 {{.*}}, ptr @t.seed
__kernel void t(__global int *out, const int n) {
  __local int seed;
  seed = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int l = get_local_id(0);
  for (int d = 0; d < 3; d++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[n * d + l] = l + seed;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l + 1 == n)
      seed += l + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
