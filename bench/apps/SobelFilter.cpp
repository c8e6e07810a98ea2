//===- SobelFilter.cpp - Gradient magnitude of a 7680x4320 image ----------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

/// The kernel's gradient magnitude at (X, Y) in double precision.
double sobelAt(const float *Img, size_t W, size_t H, size_t X, size_t Y) {
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1)
    return 0;
  auto Px = [&](int DX, int DY) { return double(Img[(Y + DY) * W + X + DX]); };
  double GX = (Px(1, -1) + 2 * Px(1, 0) + Px(1, 1)) - (Px(-1, -1) + 2 * Px(-1, 0) + Px(-1, 1));
  double GY = (Px(-1, 1) + 2 * Px(0, 1) + Px(1, 1)) - (Px(-1, -1) + 2 * Px(0, -1) + Px(1, -1));
  return std::sqrt(GX * GX + GY * GY);
}

Problem sobel(double Scale, std::mt19937 &Rng) {
  size_t W = scaledSide(7680, Scale, 1), H = scaledSide(4320, Scale, 1);
  Problem P;
  P.Size = std::to_string(W) + "x" + std::to_string(H);
  P.Buffers.push_back(uniformFloats(W * H, 0, 1, Rng));
  P.Buffers.push_back(output(W * H * sizeof(float), Compare::Relative));
  P.launch("sobel", {bufferArg(0), bufferArg(1), valueArg(uint32_t(W)), valueArg(uint32_t(H))}, 2,
           {roundUp(W, 16), roundUp(H, 16), 1}, {16, 16, 1});
  P.Tolerance = 1e-4;
  P.Reference = [W, H](const Problem &P, const Outputs &O) {
    const float *Img = P.in<float>(0);
    return sampledFloats(O[1].as<float>(), W * H, 1 << 16, P.Tolerance, "magnitude",
                         [&](size_t I) { return sobelAt(Img, W, H, I % W, I / W); });
  };
  return P;
}

AppRegistration Registration({"sobel", "sobel", sobel});

} // namespace
} // namespace skmd::bench
