/* covariance and correlation of M columns over N rows (data is N x M). */
__kernel void column_mean(__global const float *data, __global float *mean, int n, int m) {
  int j = get_global_id(0);
  if (j < m) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
      sum += data[i * m + j];
    mean[j] = sum / (float)n;
  }
}

__kernel void column_stddev(__global const float *data, __global const float *mean,
                            __global float *stddev, int n, int m, float eps) {
  int j = get_global_id(0);
  if (j < m) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
      float d = data[i * m + j] - mean[j];
      sum += d * d;
    }
    float s = sqrt(sum / (float)n);
    stddev[j] = s <= eps ? 1.0f : s;
  }
}

/* Centers (and when SCALE is set, scales) every element. */
__kernel void center(__global float *data, __global const float *mean,
                     __global const float *stddev, int scale, int n, int m) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < n && j < m) {
    float v = data[i * m + j] - mean[j];
    if (scale)
      v /= sqrt((float)n) * stddev[j];
    data[i * m + j] = v;
  }
}

/* Upper triangle of the symmetric M x M result, mirrored. */
__kernel void covar(__global const float *data, __global float *sym, int n, int m,
                    float divisor) {
  int j1 = get_global_id(0);
  if (j1 >= m)
    return;
  for (int j2 = j1; j2 < m; ++j2) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
      sum += data[i * m + j1] * data[i * m + j2];
    sum /= divisor;
    sym[j1 * m + j2] = sum;
    sym[j2 * m + j1] = sum;
  }
}
