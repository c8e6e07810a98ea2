//===- MatrixTranspose.cpp - out = in^T, 32x32 blocks ---------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

Problem transpose(double Scale, std::mt19937 &Rng) {
  size_t N = scaledSide(8192, Scale, 32);
  Problem P;
  P.Size = std::to_string(N) + "x" + std::to_string(N);
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(output(N * N * sizeof(float), Compare::Exact));
  // A 32x8 group moves a 32x32 block.
  P.launch("transpose", {bufferArg(0), bufferArg(1), valueArg(uint32_t(N)), valueArg(uint32_t(N))},
           2, {N, N / 4, 1}, {32, 8, 1});
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *In = P.in<float>(0);
    return allExact(O[1].as<float>(), N * N, "out",
                    [&](size_t I) { return In[(I % N) * N + I / N]; });
  };
  return P;
}

AppRegistration Registration({"transpose", "transpose", transpose});

} // namespace
} // namespace skmd::bench
