typedef float DATA_TYPE;
typedef unsigned int INDEX;
typedef struct {
  float scale, shift;
  int count;
} Params;
typedef struct {
  float pos[3];
  float mass;
  uchar tag;
} Body;

__kernel void scale(__global DATA_TYPE *a, DATA_TYPE s) {
  size_t i = get_global_id(0);
  a[i] = a[i] * s;
}

__kernel void bump(__global unsigned char *b, INDEX step) {
  size_t i = get_global_id(0);
  b[i] = b[i] + (unsigned char)step;
}

__kernel void move(__global Body *b, Params p) {
  size_t i = get_global_id(0);
  for (int d = 0; d < 3; ++d)
    b[i].pos[d] = b[i].pos[d] * p.scale + p.shift;
  b[i].mass += (float)p.count;
  b[i].tag = (uchar)(i + p.count);
}

// Writes its by-value struct: each work-item has its own copy.
__kernel void own_copy(__global int *out, Params p) {
  size_t i = get_global_id(0);
  p.count += (int)i;
  out[i] = p.count;
}

