// 3x3 median filter of a width x height RGBA8 image (one uint per pixel,
// red in the low byte, row-major), as the AMD APP SDK's MedianFilter: each
// of the four channels is filtered on its own. Border pixels, which lack a
// neighbour, are copied unchanged (the SDK reads past the image there);
// copying keeps every read a constant offset from the pixel, which SKMD's
// footprint analysis sees as three 12-byte rows per pixel.

// Sorts a pair of channel vectors: after it, a <= b lane by lane.
#define SORT2(a, b)                                                            \
  {                                                                            \
    uint4 lo = min(a, b);                                                      \
    b = max(a, b);                                                             \
    a = lo;                                                                    \
  }

uint4 channels(uint p) {
  return (uint4)(p & 0xFFu, (p >> 8) & 0xFFu, (p >> 16) & 0xFFu, p >> 24);
}

__kernel void median_filter(__global const uint *src, __global uint *dst,
                            uint width, uint height) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  uint at = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    dst[at] = src[at];
    return;
  }
  __global const uint *up = src + at - width, *mid = src + at,
                      *down = src + at + width;
  uint4 p0 = channels(up[-1]), p1 = channels(up[0]), p2 = channels(up[1]);
  uint4 p3 = channels(mid[-1]), p4 = channels(mid[0]), p5 = channels(mid[1]);
  uint4 p6 = channels(down[-1]), p7 = channels(down[0]),
        p8 = channels(down[1]);
  // The 19-exchange median-of-9 network (Paeth, Graphics Gems): p4 ends up
  // the median of the nine, in every lane.
  SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
  SORT2(p0, p1); SORT2(p3, p4); SORT2(p6, p7);
  SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
  SORT2(p0, p3); SORT2(p5, p8); SORT2(p4, p7);
  SORT2(p3, p6); SORT2(p1, p4); SORT2(p2, p5);
  SORT2(p4, p7); SORT2(p4, p2); SORT2(p6, p4);
  SORT2(p4, p2);
  dst[at] = p4.x | (p4.y << 8) | (p4.z << 16) | (p4.w << 24);
}
