// corpus-source: written here for SKMD: array-library kernels in the shapes such libraries generate (an element type and an index type given by -D options, a view of up to four dimensions passed by value as a struct of dims, strides and an offset, groups tiling dimensions 0 and 1 with dimensions 2 and 3 folded into the group ids, iota, ranges, copies between views, joins, circular shifts, dimension reorders, tiling, differences, gathers by index, select by a condition, padding, reversal)
// corpus-options: -DT=float -Ddim_t=long
// corpus-run: view_iota --global=256,64 --local=32,8 --arg=128*64*2:zero --arg=128,64,2,1,1,128,8192,16384,0 --arg=4 --arg=8
// corpus-run: view_range --global=256,64 --local=32,8 --arg=128*64*2:zero --arg=128,64,2,1,1,128,8192,16384,0 --arg=2 --arg=4 --arg=8
// corpus-run: view_copy --global=128,32 --local=32,8 --arg=64*32*2:zero --arg=60,30,2,1,1,64,2048,4096,0 --arg=128*64*2 --arg=128,64,2,1,1,128,8192,16384,130 --arg=2 --arg=4 --arg=2.0
// corpus-run: view_join --global=128,64 --local=32,8 --arg=128*64:zero --arg=128,64,1,1,1,128,8192,8192,0 --arg=80*64 --arg=80,64,1,1,1,80,5120,5120,0 --arg=48*64 --arg=48,64,1,1,1,48,3072,3072,0 --arg=4 --arg=8
// corpus-run: view_shift --global=256,64 --local=32,8 --arg=128*64*2:zero --arg=128,64,2,1,1,128,8192,16384,0 --arg=128*64*2 --arg=128,64,2,1,1,128,8192,16384,0 --arg=5,-3,1,0 --arg=4 --arg=8
// corpus-run: view_reorder --global=128,128 --local=32,8 --arg=64*128*2:zero --arg=64,128,2,1,1,64,8192,16384,0 --arg=128*64*2 --arg=128,64,2,1,1,128,8192,16384,0 --arg=1,0,2,3 --arg=2 --arg=16
// corpus-run: view_tile --global=256,64 --local=32,8 --arg=128*64*2:zero --arg=128,64,2,1,1,128,8192,16384,0 --arg=32*16 --arg=32,16,1,1,1,32,512,512,0 --arg=4 --arg=8
// corpus-run: view_diff --global=128,64 --local=32,8 --arg=127*64:zero --arg=127,64,1,1,1,127,8128,8128,0 --arg=128*64 --arg=128,64,1,1,1,128,8192,8192,0 --arg=4 --arg=8
// corpus-run: view_lookup --global=128,64 --local=32,8 --arg=128*64:zero --arg=128,64,1,1,1,128,8192,8192,0 --arg=256*64 --arg=256,64,1,1,1,256,16384,16384,0 --arg=128:0..300 --arg=4 --arg=8
// corpus-run: view_select --global=128,64 --local=32,8 --arg=128*64:zero --arg=128,64,1,1,1,128,8192,8192,0 --arg=128*64:0..1 --arg=128*64 --arg=128*64 --arg=4 --arg=8
// corpus-run: view_pad --global=128,64 --local=32,8 --arg=128*64:zero --arg=128,64,1,1,1,128,8192,8192,0 --arg=120*60 --arg=120,60,1,1,1,120,7200,7200,0 --arg=4,2 --arg=4 --arg=8
// corpus-run: view_reverse --global=256,64 --local=32,8 --arg=128*64*2:zero --arg=128,64,2,1,1,128,8192,16384,0 --arg=128*64*2 --arg=128,64,2,1,1,128,8192,16384,0 --arg=0 --arg=4 --arg=8
// corpus-note: every kernel here was written for this corpus; the views' values are dims[4], strides[4], offset in that order; groups along dimension 0 and 1 cover one 32 x 8 block each, dimension 2 folded into the x group ids (blocks_x per matrix) and dimension 3 into the y ones

typedef struct {
  dim_t dims[4];
  dim_t strides[4];
  dim_t offset;
} View;

// The 4-D coordinates of this item: dimension 2 is folded into group id 0
// (blocks_x groups per matrix) and dimension 3 into group id 1.
inline int4 coords(View v, int blocks_x, int blocks_y) {
  int g0 = get_group_id(0), g1 = get_group_id(1);
  int z = g0 / blocks_x, w = g1 / blocks_y;
  int x = (g0 - z * blocks_x) * get_local_size(0) + get_local_id(0);
  int y = (g1 - w * blocks_y) * get_local_size(1) + get_local_id(1);
  return (int4)(x, y, z, w);
}

inline bool inside(View v, int4 c) {
  return c.x < v.dims[0] && c.y < v.dims[1] && c.z < v.dims[2] && c.w < v.dims[3];
}

inline dim_t at(View v, int4 c) {
  return v.offset + c.x * v.strides[0] + c.y * v.strides[1] + c.z * v.strides[2] +
         c.w * v.strides[3];
}

// Each element's linear index.
__kernel void view_iota(__global T *out, View vo, int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (inside(vo, c))
    out[at(vo, c)] = (T)(c.x + vo.dims[0] * (c.y + vo.dims[1] * (c.z + vo.dims[2] * c.w)));
}

// The coordinate along one dimension.
__kernel void view_range(__global T *out, View vo, int dim, int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  int v[4] = {c.x, c.y, c.z, c.w};
  if (inside(vo, c))
    out[at(vo, c)] = (T)v[dim];
}

// A strided view copied into a dense one, scaled.
__kernel void view_copy(__global T *out, View vo, __global const T *in, View vi, int blocks_x,
                        int blocks_y, T factor) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (inside(vo, c))
    out[at(vo, c)] = factor * in[at(vi, c)];
}

// Two arrays joined along dimension 0.
__kernel void view_join(__global T *out, View vo, __global const T *a, View va,
                        __global const T *b, View vb, int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  if (c.x < va.dims[0])
    out[at(vo, c)] = a[at(va, c)];
  else
    out[at(vo, c)] = b[at(vb, (int4)(c.x - (int)va.dims[0], c.y, c.z, c.w))];
}

// A circular shift by a signed amount per dimension.
__kernel void view_shift(__global T *out, View vo, __global const T *in, View vi, int4 shift,
                         int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int4 d = (int4)(vi.dims[0], vi.dims[1], vi.dims[2], vi.dims[3]);
  int4 src = ((c - shift) % d + d) % d;
  out[at(vo, c)] = in[at(vi, src)];
}

// Dimensions permuted: output dimension k is input dimension order[k].
__kernel void view_reorder(__global T *out, View vo, __global const T *in, View vi, int4 order,
                           int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int oc[4] = {c.x, c.y, c.z, c.w}, ic[4];
  ic[order.x] = oc[0];
  ic[order.y] = oc[1];
  ic[order.z] = oc[2];
  ic[order.w] = oc[3];
  out[at(vo, c)] = in[at(vi, (int4)(ic[0], ic[1], ic[2], ic[3]))];
}

// A small array repeated to fill the output.
__kernel void view_tile(__global T *out, View vo, __global const T *in, View vi, int blocks_x,
                        int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int4 d = (int4)(vi.dims[0], vi.dims[1], vi.dims[2], vi.dims[3]);
  out[at(vo, c)] = in[at(vi, c % d)];
}

// First differences along dimension 0.
__kernel void view_diff(__global T *out, View vo, __global const T *in, View vi, int blocks_x,
                        int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (inside(vo, c))
    out[at(vo, c)] = in[at(vi, c + (int4)(1, 0, 0, 0))] - in[at(vi, c)];
}

// Elements gathered along dimension 0 by index; indices past the end wrap
// back in.
__kernel void view_lookup(__global T *out, View vo, __global const T *in, View vi,
                          __global const int *index, int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int i = index[c.x] % (int)vi.dims[0];
  out[at(vo, c)] = in[at(vi, (int4)(i, c.y, c.z, c.w))];
}

// Where the condition holds a, else b (dense arrays of the output's
// shape).
__kernel void view_select(__global T *out, View vo, __global const char *cond,
                          __global const T *a, __global const T *b, int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  dim_t i = at(vo, c);
  out[i] = cond[i] ? a[i] : b[i];
}

// An array padded with zeros before (by `before`) and after.
__kernel void view_pad(__global T *out, View vo, __global const T *in, View vi, int2 before,
                       int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int4 src = c - (int4)(before.x, before.y, 0, 0);
  bool in_range = src.x >= 0 && src.y >= 0 && src.x < vi.dims[0] && src.y < vi.dims[1];
  out[at(vo, c)] = in_range ? in[at(vi, src)] : (T)0;
}

// An array reversed along one dimension.
__kernel void view_reverse(__global T *out, View vo, __global const T *in, View vi, int dim,
                           int blocks_x, int blocks_y) {
  int4 c = coords(vo, blocks_x, blocks_y);
  if (!inside(vo, c))
    return;
  int v[4] = {c.x, c.y, c.z, c.w};
  v[dim] = vi.dims[dim] - 1 - v[dim];
  out[at(vo, c)] = in[at(vi, (int4)(v[0], v[1], v[2], v[3]))];
}
