// The x86 variant records the extensions its code may use, so the runtime
// can refuse it by name on a CPU without them (runtime/devices/cpu/HostCpu.h).
// RUN: %skmd-cc --targets=x86 %s -o %t.v3.skmd
// RUN: %skmd-info %t.v3.skmd | FileCheck %s --check-prefix=V3
// RUN: %skmd-cc --targets=x86 --x86-cpu=x86-64-v4 %s -o %t.v4.skmd
// RUN: %skmd-info %t.v4.skmd | FileCheck %s --check-prefix=V4
// RUN: %skmd-info --json %t.v4.skmd | FileCheck %s --check-prefix=JSON

// V3: x86 {{.*}} x86-64-v3
// V3-NEXT: needs: avx avx2 bmi bmi2 fma popcnt sse4.1 sse4.2
// V4: x86 {{.*}} x86-64-v4
// V4-NEXT: needs: avx avx2 avx512bw avx512cd avx512dq avx512f avx512vl bmi bmi2 fma popcnt sse4.1 sse4.2
// JSON: "features": [
// JSON-NEXT: "avx",

__kernel void scale(__global float *v, float k) {
  v[get_global_id(0)] *= k;
}
