//===- Reduction.cpp - Partial sums of 64M floats (the first round) -------===//
//
// As in the paper's Table II, the kernel is the first round: each
// work-group writes the sum of its 512 floats; the host adds the partial
// sums (the check compares their total).
//
//===----------------------------------------------------------------------===//
#include "Shared.h"

namespace skmd::bench {

Check partialSumsCheck(const Problem &P, const Outputs &O, size_t N, size_t Groups) {
  double Want = sumOfFloats(P.in<float>(0), N);
  double Got = sumOfFloats(O[1].as<float>(), Groups);
  Check C = Check::relative(std::fabs(Got - Want) / std::fabs(Want), P.Tolerance, "sum");
  C.Scope = "sum";
  return C;
}

namespace {

Problem reduction(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(64 << 20, Scale, 1);
  const size_t Local = 256;
  size_t Groups = (N + 2 * Local - 1) / (2 * Local); // 2 floats per item
  Problem P;
  P.Size = std::to_string(N) + " floats";
  // Positive, so the sum is well conditioned and a relative check is fair.
  P.Buffers.push_back(uniformFloats(N, 0, 1, Rng));
  P.Buffers.push_back(output(Groups * sizeof(float), Compare::Sum));
  P.launch("reduce_sum",
           {bufferArg(0), bufferArg(1), localArg(Local * sizeof(float)), valueArg(uint32_t(N))},
           1, {Groups * Local, 1, 1}, {Local, 1, 1});
  P.Tolerance = 1e-5;
  P.Reference = [N, Groups](const Problem &P, const Outputs &O) {
    return partialSumsCheck(P, O, N, Groups);
  };
  return P;
}

AppRegistration Registration({"reduction", "reduction", reduction});

} // namespace
} // namespace skmd::bench
