//===- BlackScholes.cpp - European call and put prices, 32M options -------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

const float Rate = 0.02f, Volatility = 0.30f;

/// The kernel's formulas (black_scholes.cl) in double precision.
double cumulativeNormal(double D) {
  double K = 1 / (1 + 0.2316419 * std::fabs(D));
  double Tail = 0.398942280401432678 * std::exp(-0.5 * D * D) *
                (K * (0.31938153 +
                      K * (-0.356563782 + K * (1.781477937 + K * (-1.821255978 + K * 1.330274429)))));
  return D > 0 ? 1 - Tail : Tail;
}

std::pair<double, double> blackScholes(double S, double K, double T) {
  double VolSqrtT = Volatility * std::sqrt(T);
  double D1 = (std::log(S / K) + (Rate + 0.5 * Volatility * Volatility) * T) / VolSqrtT;
  double D2 = D1 - VolSqrtT;
  double Discounted = K * std::exp(-Rate * T);
  double N1 = cumulativeNormal(D1), N2 = cumulativeNormal(D2);
  return {S * N1 - Discounted * N2, Discounted * (1 - N2) - S * (1 - N1)};
}

Problem blackScholesOptions(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(32 << 20, Scale, 1);
  Problem P;
  P.Size = std::to_string(N) + " options";
  P.Buffers.push_back(uniformFloats(N, 5, 30, Rng));    // spot
  P.Buffers.push_back(uniformFloats(N, 1, 100, Rng));   // strike
  P.Buffers.push_back(uniformFloats(N, 0.25, 10, Rng)); // years
  P.Buffers.push_back(output(N * sizeof(float), Compare::Relative));
  P.Buffers.push_back(output(N * sizeof(float), Compare::Relative));
  P.launch("black_scholes",
           {bufferArg(0), bufferArg(1), bufferArg(2), bufferArg(3), bufferArg(4),
            valueArg(Rate), valueArg(Volatility), valueArg(uint32_t(N))},
           1, {roundUp(N, 256), 1, 1}, {256, 1, 1});
  P.Tolerance = 1e-4;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    auto At = [&P](size_t I) {
      return blackScholes(P.in<float>(0)[I], P.in<float>(1)[I], P.in<float>(2)[I]);
    };
    Check C = sampledFloats(O[3].as<float>(), N, 4096, P.Tolerance, "call",
                            [&](size_t I) { return At(I).first; });
    C.merge(sampledFloats(O[4].as<float>(), N, 4096, P.Tolerance, "put",
                          [&](size_t I) { return At(I).second; }));
    return C;
  };
  return P;
}

AppRegistration Registration({"black-scholes", "black_scholes", blackScholesOptions});

} // namespace
} // namespace skmd::bench
