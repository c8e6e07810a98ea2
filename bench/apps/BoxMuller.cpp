//===- BoxMuller.cpp - 192M uniform numbers to normal ones ----------------===//
//
// As in the paper's Table II: 192M numbers (768 MB of floats in, as many
// out), one pair per work-item, in groups of 256. The inputs are
// std::mt19937's top 24 bits, plus one, over 2^24: every float k / 2^24
// for k in [1, 2^24], so (0, 1] as the logarithm needs.
//
// The reference is the transform in double precision. The float log, sqrt,
// cospi and sinpi are each a few ulp in OpenCL 1.2, about 1e-6 together
// (PoCL and SKMD's CPU device come within 4e-7); the tolerance, 1e-4,
// leaves room for other drivers' builtins.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

constexpr size_t Local = 256;

/// Output \p I of the transform of \p U, in double precision.
double boxMullerAt(const float *U, size_t I) {
  const double Pi = 3.14159265358979323846;
  size_t Pair = I / 2;
  double R = std::sqrt(-2 * std::log(double(U[2 * Pair])));
  double Angle = 2 * Pi * double(U[2 * Pair + 1]);
  return R * (I % 2 == 0 ? std::cos(Angle) : std::sin(Angle));
}

Problem boxMuller(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(192 << 20, Scale, 2);
  size_t Pairs = N / 2;
  Problem P;
  P.Size = std::to_string(N) + " numbers";
  P.Buffers.push_back(
      inputOf<float>(N, [&](size_t) { return float((Rng() >> 8) + 1) * 0x1p-24f; }));
  P.Buffers.push_back(output(N * sizeof(float), Compare::Relative));
  P.launch("box_muller", {bufferArg(0), bufferArg(1), valueArg(uint32_t(Pairs))}, 1,
           {roundUp(Pairs, Local), 1, 1}, {Local, 1, 1});
  P.Tolerance = 1e-4;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *U = P.in<float>(0);
    return sampledFloats(O[1].as<float>(), N, 1 << 18, P.Tolerance, "normal",
                         [&](size_t I) { return boxMullerAt(U, I); });
  };
  return P;
}

AppRegistration Registration({"box-muller", "box_muller", boxMuller});

} // namespace
} // namespace skmd::bench
