// Arrays of structs in global memory, and a vector passed by value.

// 48 bytes: pos at 0, vel at 16, id at 32, bounces at 36, 8 bytes of
// padding to the float4 alignment.
typedef struct {
  float4 pos;
  float4 vel;
  int id;
  int bounces;
} Particle;

// One explicit Euler step under gravity, bouncing off the plane y = 0.
__kernel void particles(__global Particle *ps, float4 gravity, float dt,
                        int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  __global Particle *p = &ps[i];
  float4 v = p->vel + gravity * dt;
  float4 x = p->pos + v * dt;
  if (x.y < 0.0f) {
    x.y = -x.y;
    v.y = -v.y;
    p->bounces += 1;
  }
  p->pos = x;
  p->vel = v;
}

// 32 bytes of mixed scalars: tag at 0, count at 2, total at 4, mean at 8,
// key at 16, flags at 24, padding to the long alignment.
typedef struct {
  char tag;
  short count;
  int total;
  float mean;
  long key;
  uchar flags[3];
} Record;

// Folds each record's `per` samples into it, through a private copy.
__kernel void records(__global Record *r, __global const int *samples,
                      int per) {
  size_t i = get_global_id(0);
  Record rec = r[i];
  int s = 0;
  for (int k = 0; k < per; ++k)
    s += samples[i * per + k];
  rec.count += (short)per;
  rec.total += s;
  rec.mean = (float)s * 0.5f;
  rec.key = rec.key * 31 + rec.tag;
  rec.flags[s & 1] |= (uchar)(1 << (per & 7));
  rec.flags[2] = (uchar)rec.count;
  rec.tag = -rec.tag;
  r[i] = rec;
}
