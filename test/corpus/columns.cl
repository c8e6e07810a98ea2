// One column of a row-major matrix per launch, as a triangular solver's
// update reads it: one element a row, the column a scalar argument.
__kernel void add_column(__global const float *m, __global float *y, int n, int j) {
  int i = get_global_id(0);
  if (i < n)
    y[i] += m[i * n + j];
}
