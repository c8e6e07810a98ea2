// RUN: not %skmd-cc -cl-std=CL2.0 %s -o %t.skmd 2>&1 | FileCheck %s
// RUN: not ls %t.skmd

// CHECK: error-pipes.cl:[[@LINE+2]]:46: error: SKMD does not support OpenCL pipes (used here through type 'write_only pipe int')

__kernel void producer(__write_only pipe int out, __global const int *in) {
  write_pipe(out, &in[get_global_id(0)]);
}
