//===- MersenneTwister.cpp - 192M uniform floats, an MT19937 per item -----===//
//
// As in the paper's Table II: 192M numbers (768 MB of floats) in 256
// work-groups of 64, each work-item drawing 12,288 numbers from its own
// MT19937 (mersenne_twister.cl says how). A smaller problem has fewer
// numbers per work-item as well as fewer work-items (each by about the
// square root of the scale), so that it still has several groups to split.
//
// The reference is C++'s std::mt19937 with the same seeds, every number
// compared bit for bit.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

constexpr size_t Local = 64;

/// Draw K of work-item L of group G, as the kernel stores it.
size_t positionOf(size_t G, size_t L, size_t K, size_t PerItem) {
  return (G * PerItem + K) * Local + L;
}

Problem mersenneTwister(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(192 << 20, Scale, 1);
  size_t PerItem = scaled(12288, std::sqrt(Scale), 1);
  size_t Items = roundUp(N, PerItem) / PerItem;
  size_t Groups = roundUp(Items, Local) / Local;
  uint32_t Seed = Rng();
  Problem P;
  P.Size = std::to_string(N) + " numbers";
  P.Buffers.push_back(output(N * sizeof(float), Compare::Exact));
  P.launch("mersenne_twister",
           {bufferArg(0), valueArg(Seed), valueArg(uint32_t(PerItem)), valueArg(uint32_t(N))}, 1,
           {Groups * Local, 1, 1}, {Local, 1, 1});
  P.Reference = [N, PerItem, Groups, Seed](const Problem &, const Outputs &O) {
    const float *Got = O[0].as<float>();
    for (size_t G = 0; G < Groups; ++G)
      for (size_t L = 0; L < Local; ++L) {
        std::mt19937 Gen(uint32_t(Seed + G * Local + L));
        for (size_t K = 0; K < PerItem; ++K) {
          float Want = float(Gen() >> 8) * 0x1p-24f;
          size_t At = positionOf(G, L, K, PerItem);
          if (At >= N)
            break;
          if (std::memcmp(&Got[At], &Want, sizeof(float)) != 0) {
            std::ostringstream OS;
            OS << "number " << At << " (work-item " << G * Local + L << ", draw " << K
               << ") is " << Got[At] << ", expected " << Want;
            return Check::mismatch(OS.str());
          }
        }
      }
    Check C;
    C.Scope = "all";
    return C;
  };
  return P;
}

AppRegistration Registration({"mersenne-twister", "mersenne_twister", mersenneTwister});

} // namespace
} // namespace skmd::bench
