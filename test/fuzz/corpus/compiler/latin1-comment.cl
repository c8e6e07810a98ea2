// A comment in Latin-1 (café): valid OpenCL C, not UTF-8. fuzz-compiler
// found skmd-cc dying on such sources (lit skmd-cc/source-not-utf8.test).
__kernel void k(__global float *a, int n) {
  int i = get_global_id(0);
  if (i < n) a[i] *= 2.0f;
}
