// printf: the x86 and PTX variants carry it; the SPIR-V variant cannot
// (LLVM 22's SPIR-V backend stopped the process on it, "LLVM ERROR:
// SPV_EXT_relaxed_printf_string_address_space is required"), so the default
// build warns and leaves SPIR-V out, and asking for SPIR-V is an error.
// RUN: %skmd-cc %s -o %t.skmd 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %skmd-info %t.skmd | FileCheck %s --check-prefix=INFO
// RUN: not %skmd-cc --targets=x86,spirv %s -o %t2.skmd 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ls %t2.skmd

// WARN: skmd-cc: warning: the SPIR-V variant cannot carry printf {{.*}}; the bundle has no SPIR-V variant
// INFO: variants:
// INFO-NEXT: x86
// INFO: ptx
// INFO-NOT: spirv
// ERR: skmd-cc: error: the SPIR-V variant cannot carry printf

__kernel void trace(__global int *x) {
  if (get_global_id(0) == 0)
    printf("first: %d\n", x[0]);
  x[get_global_id(0)] += 1;
}
