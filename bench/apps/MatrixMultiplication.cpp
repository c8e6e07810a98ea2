//===- MatrixMultiplication.cpp - C = A B, 16x16 tiles --------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

Problem matmulTiled(double Scale, std::mt19937 &Rng) {
  size_t N = scaledSide(8192, Scale, 16);
  Problem P;
  P.Size = std::to_string(N) + "x" + std::to_string(N);
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(output(N * N * sizeof(float), Compare::Relative));
  P.launch("matmul_tiled", {bufferArg(0), bufferArg(1), bufferArg(2), valueArg(int32_t(N))}, 2,
           {N, N, 1}, {16, 16, 1});
  // The float sums of N products drift from the double reference.
  P.Tolerance = 1e-3;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *A = P.in<float>(0), *B = P.in<float>(1);
    return sampledFloats(O[2].as<float>(), N * N, 1024, P.Tolerance, "C", [&](size_t I) {
      size_t Row = I / N, Col = I % N;
      double Sum = 0;
      for (size_t K = 0; K < N; ++K)
        Sum += double(A[Row * N + K]) * B[K * N + Col];
      return Sum;
    });
  };
  return P;
}

AppRegistration Registration({"matmul", "matmul_tiled", matmulTiled});

} // namespace
} // namespace skmd::bench
