//===- MedianFilter.cpp - 3x3 median of a 7680x4320 RGBA8 image -----------===//
//
// As the AMD APP SDK's MedianFilter at the paper's size (Table II: 128 MB
// in and out, 8x8 work-groups, 518,400 of them). Each channel is filtered
// on its own; border pixels are copied. The check recomputes every pixel.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

/// Pixel (X, Y) of the filtered image, channel by channel with
/// std::nth_element rather than the kernel's exchange network.
uint32_t medianAt(const uint32_t *Img, size_t W, size_t H, size_t X, size_t Y) {
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1)
    return Img[Y * W + X];
  uint32_t Out = 0;
  for (unsigned Shift = 0; Shift < 32; Shift += 8) {
    uint8_t V[9];
    for (int I = 0; I < 9; ++I)
      V[I] = uint8_t(Img[(Y + I / 3 - 1) * W + X + I % 3 - 1] >> Shift);
    std::nth_element(V, V + 4, V + 9);
    Out |= uint32_t(V[4]) << Shift;
  }
  return Out;
}

Problem medianFilter(double Scale, std::mt19937 &Rng) {
  size_t W = scaledSide(7680, Scale, 1), H = scaledSide(4320, Scale, 1);
  Problem P;
  P.Size = std::to_string(W) + "x" + std::to_string(H);
  P.Buffers.push_back(inputOf<uint32_t>(W * H, [&](size_t) { return uint32_t(Rng()); }));
  P.Buffers.push_back(output(W * H * sizeof(uint32_t), Compare::Exact));
  P.launch("median_filter",
           {bufferArg(0), bufferArg(1), valueArg(uint32_t(W)), valueArg(uint32_t(H))}, 2,
           {roundUp(W, 8), roundUp(H, 8), 1}, {8, 8, 1});
  P.Reference = [W, H](const Problem &P, const Outputs &O) {
    const uint32_t *Img = P.in<uint32_t>(0);
    return allExact(O[1].as<uint32_t>(), W * H, "pixel",
                    [&](size_t I) { return medianAt(Img, W, H, I % W, I / W); });
  };
  return P;
}

AppRegistration Registration({"median-filter", "median_filter", medianFilter});

} // namespace
} // namespace skmd::bench
