//===- Histogram.cpp - 256-bin histograms per work-group (first round) ----===//
//
// As in the paper's Table II: 64M values in [0, 256), 2048 work-groups,
// each writing the histogram of its own chunk; the host adds the groups'
// histograms (the check compares the total, and every group's bins).
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

constexpr size_t Bins = 256, Local = 256;

Problem histogram(double Scale, std::mt19937 &Rng) {
  // Each work-item counts 128 values, so a group covers 32K.
  const size_t PerGroup = Local * 128;
  size_t N = scaled(64 << 20, Scale, PerGroup);
  size_t Groups = N / PerGroup;
  Problem P;
  P.Size = std::to_string(N) + " values";
  P.Buffers.push_back(inputOf<uint32_t>(N, [&](size_t) { return uint32_t(Rng() & 255); }));
  P.Buffers.push_back(output(Groups * Bins * sizeof(uint32_t), Compare::Exact));
  P.launch("histogram256", {bufferArg(0), bufferArg(1), valueArg(uint32_t(PerGroup))}, 1,
           {Groups * Local, 1, 1}, {Local, 1, 1});
  P.Reference = [N, Groups, PerGroup](const Problem &P, const Outputs &O) {
    const uint32_t *Data = P.in<uint32_t>(0);
    std::vector<uint32_t> Want(Groups * Bins, 0);
    for (size_t I = 0; I < N; ++I)
      ++Want[I / PerGroup * Bins + Data[I]];
    return allExact(O[1].as<uint32_t>(), Groups * Bins, "bins",
                    [&](size_t I) { return Want[I]; });
  };
  return P;
}

AppRegistration Registration({"histogram", "histogram", histogram});

} // namespace
} // namespace skmd::bench
