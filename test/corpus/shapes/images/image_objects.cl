// corpus-source: written here for SKMD: kernels on OpenCL image objects as image samples use them (a 2-D copy through a sampler with clamped, unnormalised coordinates; a 3-D slice read into a 2-D image; a write of integer texels)
// corpus-unsupported: images
// corpus-note: written for this corpus; SKMD has no image objects, so skmd-cc must refuse the file by name (no run lines)

__constant sampler_t nearest_clamped =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// Each pixel copied through the sampler, brightened.
__kernel void image_copy(__read_only image2d_t in, __write_only image2d_t out, float gain) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(in, nearest_clamped, p);
  write_imagef(out, p, v * gain);
}

// One z slice of a volume into a 2-D image.
__kernel void volume_slice(__read_only image3d_t volume, __write_only image2d_t out, int z) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(volume, nearest_clamped, (int4)(p, z, 0)));
}

// Texel coordinates written as integer texels.
__kernel void coordinates(__write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(out, p, (uint4)(p.x, p.y, p.x ^ p.y, 255));
}
