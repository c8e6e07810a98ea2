// The SKMD paper's Fig. 6: the Black-Scholes merge kernel keeps the address
// arithmetic and the two stores, whose values now come from the device's
// copies, and none of the floating-point work.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes='skmd-partition-ready,skmd-merge-kernel' -S | FileCheck %s
// RUN: %skmd-cc --emit=llvm --targets=ptx %s | %opt -passes='skmd-partition-ready,skmd-merge-kernel' -S | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: define {{.*}}spir_kernel void @blackscholes__skmd_merge(
// CHECK-SAME: ptr {{.*}}%call, ptr {{.*}}%put, ptr {{.*}}%price, ptr {{.*}}%strike, ptr {{.*}}%years, float {{.*}}%r, float {{.*}}%v,
// CHECK-SAME: i64 %skmd_first_group, i64 %skmd_num_groups_x, i64 %skmd_num_groups_y, i64 %skmd_num_groups_z, i64 %skmd_global_offset_x, i64 %skmd_global_offset_y, i64 %skmd_global_offset_z, i64 %skmd_groups_x_magic, i64 %skmd_groups_y_magic, i64 %skmd_work_dim,
// CHECK-SAME: ptr %skmd_copy_call, ptr %skmd_copy_put)
// CHECK-NOT: {{fmul|fadd|fsub|fdiv|fneg|fcmp|uitofp|sitofp|llvm.fmuladd|_Z3exp|_Z3log|_Z4sqrt|_Z4fabs}}
// CHECK-NOT: load float, ptr %price
// CHECK: %[[C:.*]] = getelementptr i8, ptr %skmd_copy_call,
// CHECK: %[[CV:.*]] = load float, ptr %[[C]]
// CHECK: store float %[[CV]], ptr
// CHECK-NOT: {{fmul|fadd|fsub|fdiv|fneg|fcmp|llvm.fmuladd|_Z3exp|_Z3log|_Z4sqrt|_Z4fabs}}
// CHECK: %[[P:.*]] = getelementptr i8, ptr %skmd_copy_put,
// CHECK: %[[PV:.*]] = load float, ptr %[[P]]
// CHECK: store float %[[PV]], ptr
// CHECK-NOT: {{fmul|fadd|fsub|fdiv|fneg|fcmp|llvm.fmuladd|_Z3exp|_Z3log|_Z4sqrt|_Z4fabs}}
// CHECK: ret void
// CHECK-NEXT: }

// PTX-LABEL: define {{.*}}ptx_kernel void @blackscholes__skmd_merge(
// PTX-SAME: ptr addrspace(1) %skmd_copy_call, ptr addrspace(1) %skmd_copy_put)
// PTX-NOT: {{fmul|fadd|fsub|fdiv|fneg|fcmp|llvm.fmuladd|_Z3exp|_Z3log|_Z4sqrt|_Z4fabs}}
// PTX: ret void

float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
              A4 = -1.821255978f, A5 = 1.330274429f,
              RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = RSQRT2PI * exp(-0.5f * d * d) *
            (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

void body(float *call, float *put, float S, float X, float T, float R,
          float V) {
  float sqrtT = sqrt(T);
  float d1 = (log(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
  float d2 = d1 - V * sqrtT;
  float expRT = exp(-R * T);
  *call = S * cnd(d1) - X * expRT * cnd(d2);
  *put = X * expRT * (1.0f - cnd(d2)) - S * (1.0f - cnd(d1));
}

__kernel void blackscholes(__global float *call, __global float *put,
                           __global const float *price,
                           __global const float *strike,
                           __global const float *years, float r, float v) {
  size_t tid = get_global_id(1) * get_global_size(0) + get_global_id(0);
  __global float *out = call; // a copy of the pointer, as in the paper
  float c, p;
  body(&c, &p, price[tid], strike[tid], years[tid], r, v);
  out[tid] = c;
  put[tid] = p;
}
