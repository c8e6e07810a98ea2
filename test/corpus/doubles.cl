// Double precision (cl_khr_fp64): correctly rounded arithmetic, a
// compensated sum the compiler must not reassociate, and math builtins.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// +, -, *, / and sqrt are correctly rounded in double; each result is its
// own statement so that nothing is contracted into an fma.
__kernel void double_arith(__global const double *a, __global const double *b,
                           __global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  double p = x * y;
  double q = x / y;
  out[6 * i] = x + y;
  out[6 * i + 1] = x - y;
  out[6 * i + 2] = p;
  out[6 * i + 3] = q;
  out[6 * i + 4] = sqrt(fabs(x));
  out[6 * i + 5] = fma(x, y, q);
  double4 v = vload4(i, a), w = vload4(i, b);
  double4 s = v * w;
  vstore4(s - v, i, out + 6 * get_global_size(0));
}

// Kahan summation of each row: only right if every operation is done as
// written, in double.
__kernel void kahan_rows(__global const double *m, __global double *sums,
                         int cols) {
  size_t r = get_global_id(0);
  double s = 0.0, c = 0.0;
  for (int k = 0; k < cols; ++k) {
    double y = m[r * cols + k] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  sums[r] = s;
}

double2 double_op(int op, double2 x, double2 y) {
  switch (op) {
  case 0: return exp(x);
  case 1: return log(x);
  case 2: return sin(x);
  case 3: return cos(x);
  case 4: return tan(x);
  case 5: return pow(x, y);
  case 6: return atan2(x, y);
  case 7: return rsqrt(x);
  case 8: return sqrt(x);
  }
  return x;
}

__kernel void double_math(__global const double *x, __global const double *y,
                          __global double *out, int op) {
  size_t i = get_global_id(0);
  vstore2(double_op(op, vload2(i, x), vload2(i, y)), i, out);
}
