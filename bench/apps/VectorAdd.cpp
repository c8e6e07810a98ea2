//===- VectorAdd.cpp - c = a + b over 50 million floats -------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

Problem vectorAdd(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(50e6, Scale, 1);
  Problem P;
  P.Size = std::to_string(N) + " floats";
  P.Buffers.push_back(uniformFloats(N, -1, 1, Rng));
  P.Buffers.push_back(uniformFloats(N, -1, 1, Rng));
  P.Buffers.push_back(output(N * sizeof(float), Compare::Exact));
  P.launch("vector_add", {bufferArg(0), bufferArg(1), bufferArg(2), valueArg(uint32_t(N))}, 1,
           {roundUp(N, 256), 1, 1}, {256, 1, 1});
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *A = P.in<float>(0), *B = P.in<float>(1);
    return allExact(O[2].as<float>(), N, "c", [&](size_t I) { return A[I] + B[I]; });
  };
  return P;
}

AppRegistration Registration({"vector-add", "vector_add", vectorAdd});

} // namespace
} // namespace skmd::bench
