//===- CpuUniformLoopTest.cpp - Work-items inside uniform loops ------------===//
//
// test/corpus/uniform_loops.cl: kernels that skmd-implicit-loop-barriers
// turns inside out on x86, against C++ references computed in double.
// Sums of many products may be contracted to FMAs and are added in the
// kernel's order, so they are compared with a relative bound of a few
// float epsilons per term's magnitude rather than bit for bit.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <cmath>

using namespace skmd;
using namespace skmd::test;

namespace {

using UniformLoops = CpuKernelTest;

TEST_F(UniformLoops, MatrixVectorWithATailGroup) {
  const int Rows = 300, Cols = 173, Local = 32;
  const uint64_t Groups = (Rows + Local - 1) / Local;
  KernelRun R("uniform_loops", "matvec", launch({Groups, 1, 1}, {Local, 1, 1}, 1));
  // Terms in [-1, 1]: each sum is within Cols * 1e-6 of the exact one.
  R.buffer(randomFloats(Rows * Cols, Rng))
      .buffer(randomFloats(Cols, Rng))
      .buffer(std::vector<float>(Rows), absolute(Cols * 1e-6))
      .scalar(Rows)
      .scalar(Cols);
  R.Reference = [&](Args &A) {
    auto M = A.buffer<float>(0);
    auto X = A.buffer<float>(1);
    auto Y = A.buffer<float>(2);
    for (int Row = 0; Row < Rows; ++Row) {
      double Sum = 0;
      for (int K = 0; K < Cols; ++K)
        Sum += double(M[Row * Cols + K]) * X[K];
      Y[Row] = static_cast<float>(Sum);
    }
  };
  check(R);
}

TEST_F(UniformLoops, TiledAttractionWithAUniformInnerLoop) {
  const uint32_t N = 512, Local = 64;
  std::vector<float> P = randomFloats(4 * N, Rng);
  for (uint32_t I = 0; I < N; ++I)
    P[4 * I + 3] = std::fabs(P[4 * I + 3]); // Weights >= 0.
  KernelRun R("uniform_loops", "attraction", launch({N / Local, 1, 1}, {Local, 1, 1}, 1));
  // Each term is at most 1000 (1/0.01^1.5); 512 of them in float.
  R.buffer(P)
      .buffer(std::vector<float>(4 * N), absolute(N * 1000 * 4e-7))
      .local(Local * 16)
      .scalar(N);
  R.Reference = [&](Args &A) {
    auto Pos = A.buffer<float>(0);
    auto F = A.buffer<float>(1);
    for (uint32_t I = 0; I < N; ++I) {
      double Sum[3] = {0, 0, 0};
      for (uint32_t J = 0; J < N; ++J) {
        double D[3], Dot = 0;
        for (int C = 0; C < 3; ++C) {
          D[C] = double(Pos[4 * J + C]) - Pos[4 * I + C];
          Dot += D[C] * D[C];
        }
        double Inv = 1 / std::sqrt(Dot + 0.01);
        for (int C = 0; C < 3; ++C)
          Sum[C] += Pos[4 * J + 3] * Inv * Inv * Inv * D[C];
      }
      for (int C = 0; C < 3; ++C)
        F[4 * I + C] = static_cast<float>(Sum[C]);
      F[4 * I + 3] = 0;
    }
  };
  check(R);
}

} // namespace
