// Images are refused where a kernel can reach them, not in a helper no
// kernel calls (Rodinia's particle filter keeps one beside its kernels):
// the file builds all three variants and runs.
// RUN: %skmd-cc %s -o %t.skmd
// RUN: %skmd-cc --cl-std=CL1.2 %s -o %t12.skmd
// RUN: %skmd-run %t.skmd fill --global=64 --local=16 --arg=64 --devices=cpu,discrete \
// RUN:   --plan=even --check | FileCheck %s
// CHECK: check: ok
// Called from a kernel through another helper: refused, at the use.
// RUN: not %skmd-cc -DCALL_IT %s -o %t2.skmd 2>&1 | FileCheck %s --check-prefix=USED
// USED: unreachable-images.cl:[[@LINE+1]]:{{[0-9]+}}: error: SKMD does not support OpenCL images
float pixel(__read_only image2d_t img, sampler_t s) {
  return read_imagef(img, s, (int2)(0, 0)).x;
}
#ifdef CALL_IT
float through(__read_only image2d_t img, sampler_t s) { return pixel(img, s); }
__kernel void sample(__global float *a, __read_only image2d_t img, sampler_t s) {
  a[get_global_id(0)] = through(img, s);
}
#endif

__kernel void fill(__global float *a) { a[get_global_id(0)] = 1.0f; }
