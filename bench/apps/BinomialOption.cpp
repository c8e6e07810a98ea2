//===- BinomialOption.cpp - European calls on a 255-step binomial tree ----===//
//
// As the AMD APP SDK sample the paper ran (Table II: 524,288 samples, 8 MB
// in and out): one work-group per sample, a float4 of four options (one
// per lane) priced together on the same tree. The check reprices a sample
// of the options on the same tree in double precision.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

// As binomial_option.cl: the tree's depth (one work-item per node) and the
// market.
constexpr int Steps = 255;
const double RiskFree = 0.02, Volatility = 0.30;

/// The call price of the option that the lane value \p R stands for, on the
/// kernel's tree, in double precision.
double binomialCall(double R) {
  double S = (1 - R) * 5 + R * 30, X = (1 - R) * 1 + R * 100;
  double Years = (1 - R) * 0.25 + R * 10;
  double Dt = Years / Steps, VsDt = Volatility * std::sqrt(Dt);
  double Growth = std::exp(RiskFree * Dt), U = std::exp(VsDt), D = 1 / U;
  double Pu = (Growth - D) / (U - D);
  double PuR = Pu / Growth, PdR = (1 - Pu) / Growth;
  double Call[Steps + 1];
  for (int I = 0; I <= Steps; ++I)
    Call[I] = std::max(S * std::exp(VsDt * (2.0 * I - Steps)) - X, 0.0);
  for (int J = Steps; J > 0; --J)
    for (int I = 0; I < J; ++I)
      Call[I] = PuR * Call[I + 1] + PdR * Call[I];
  return Call[0];
}

Problem binomialOption(double Scale, std::mt19937 &Rng) {
  size_t Samples = scaled(524288, Scale, 1);
  Problem P;
  P.Size = std::to_string(Samples) + " samples of 4 options";
  P.Buffers.push_back(uniformFloats(4 * Samples, 0, 1, Rng));
  P.Buffers.push_back(output(4 * Samples * sizeof(float), Compare::Relative));
  P.launch("binomial_option", {bufferArg(0), bufferArg(1)}, 1,
           {Samples * (Steps + 1), 1, 1}, {Steps + 1, 1, 1});
  // 255 float steps of rounding, and exp() of arguments up to about 15 at
  // the leaves whose ulp-level differences between drivers carry through.
  P.Tolerance = 1e-4;
  P.Reference = [Samples](const Problem &P, const Outputs &O) {
    // Option I is lane I % 4 of sample I / 4: its random value is float I.
    const float *Rand = P.in<float>(0);
    return sampledFloats(O[1].as<float>(), 4 * Samples, 1024, P.Tolerance, "price",
                         [&](size_t I) { return binomialCall(Rand[I]); });
  };
  return P;
}

AppRegistration Registration({"binomial-option", "binomial_option", binomialOption});

} // namespace
} // namespace skmd::bench
