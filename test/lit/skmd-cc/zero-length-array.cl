// A zero-length array (a GNU extension clang accepts, here in a struct
// passed by value): the x86 and PTX variants carry it; LLVM 22's SPIR-V
// backend ended the process on it ("LLVM ERROR: Runtime arrays are not
// allowed in non-shader SPIR-V modules", found by fuzz-compiler), so the
// default build warns and leaves SPIR-V out, and asking for SPIR-V is an
// error that names the type. The struct's layout in the metadata is its
// int alone (the array holds no scalars; a run of none was a corrupt bundle).
// RUN: %skmd-cc %s -o %t.skmd 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %skmd-info %t.skmd | FileCheck %s --check-prefix=INFO
// RUN: not %skmd-cc --targets=spirv %s -o %t2.skmd 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ls %t2.skmd
// RUN: not %skmd-cc --targets=spirv -DLOCAL %s -o %t3.skmd 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not %skmd-cc --targets=spirv -DPRIVATE %s -o %t3.skmd 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %skmd-cc --emit=meta %s 2>/dev/null | FileCheck %s --check-prefix=META

// WARN: skmd-cc: warning: the SPIR-V variant cannot carry a zero-length array {{.*}}; the bundle has no SPIR-V variant
// INFO: variants:
// INFO-NEXT: x86
// INFO: ptx
// INFO-NOT: spirv
// ERR: skmd-cc: error: the SPIR-V variant cannot carry a zero-length array (used by '{{[a-z_.]+}}': {{.*}}Params
// LOCAL: skmd-cc: error: the SPIR-V variant cannot carry a zero-length array (in '{{.*}}', of type [0 x i32])
// META: "name": "p",
// META: "layout": [
// META-NEXT: [
// META-NEXT: 0,
// META-NEXT: "int",
// META-NEXT: 1
// META-NEXT: ]
// META-NEXT: ],

typedef struct { int bins; float scale[0]; } Params;

__kernel void k(__global int *hist, Params p) {
#if defined(LOCAL)
  __local int t[0];
  t[get_local_id(0)] = p.bins;
  barrier(CLK_LOCAL_MEM_FENCE);
  hist[get_global_id(0)] = t[get_local_id(0) ^ 1];
#elif defined(PRIVATE)
  Params q[2];
  q[get_global_id(0) & 1] = p;
  hist[get_global_id(0)] = q[get_global_id(0) & 1].bins;
#else
  hist[get_global_id(0)] = p.bins;
#endif
}
