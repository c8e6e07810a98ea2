// The build cache's test kernel (ctest opencl-build-cache-*): SCALE comes
// from the build options, so entries differ by them.
__kernel void scaled_add(__global const float *a, __global const float *b,
                         __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + SCALE * b[i];
}
