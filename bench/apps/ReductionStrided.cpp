//===- ReductionStrided.cpp - Partial sums, two loads a grid apart --------===//
//
// A shape measured outside this repository, where SKMD's CPU device was
// slightly slower than PoCL (27.1 ms against 26.4 on the H100 host): a
// local-memory tree reduction with two loads per work-item. Here the two
// loads are a grid apart (in[i], in[i + global size]) and the __local
// array is the kernel's own; 64M floats in groups of 256.
//
//===----------------------------------------------------------------------===//
#include "Shared.h"

namespace skmd::bench {
namespace {

Problem reductionStrided(double Scale, std::mt19937 &Rng) {
  const size_t Local = 256;
  size_t N = scaled(64 << 20, Scale, 2 * Local);
  size_t Items = N / 2, Groups = Items / Local;
  Problem P;
  P.Size = std::to_string(N) + " floats";
  P.Buffers.push_back(uniformFloats(N, 0, 1, Rng));
  P.Buffers.push_back(output(Groups * sizeof(float), Compare::Sum));
  P.launch("reduce_strided", {bufferArg(0), bufferArg(1)}, 1, {Items, 1, 1}, {Local, 1, 1});
  P.Tolerance = 1e-5;
  P.Reference = [N, Groups](const Problem &P, const Outputs &O) {
    return partialSumsCheck(P, O, N, Groups);
  };
  return P;
}

AppRegistration Registration({"reduction-strided", "reduction_strided", reductionStrided});

} // namespace
} // namespace skmd::bench
