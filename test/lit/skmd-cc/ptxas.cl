// NVIDIA's assembler accepts the PTX for sm_90.
// REQUIRES: ptxas
// RUN: %skmd-cc --emit=ptx %S/../../../examples/matmul_tiled.cl -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %skmd-cc --emit=ptx %S/../../../examples/float4_math.cl -o %t2.ptx
// RUN: %ptxas -arch=sm_90 %t2.ptx -o %t2.cubin
// RUN: %skmd-cc --emit=ptx %S/../../../examples/reduction.cl -o %t3.ptx
// RUN: %ptxas -arch=sm_90 %t3.ptx -o %t3.cubin
