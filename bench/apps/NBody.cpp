//===- NBody.cpp - One time step of an all-pairs n-body simulation --------===//
#include "Shared.h"

namespace skmd::bench {
namespace {
const float Dt = 0.01f, Eps2 = 0.01f;
} // namespace

Problem nbodyStep(double Scale, std::mt19937 &Rng, size_t FullBodies, const char *Kernel) {
  size_t N = scaled(double(FullBodies), Scale, 256);
  Problem P;
  P.Size = std::to_string(N) + " bodies";
  std::uniform_real_distribution<float> Coord(-1, 1), Mass(0.5, 1.5), Speed(-0.1f, 0.1f);
  // float4s: xyz, then the mass (about 1/N each) or 0 for velocities.
  P.Buffers.push_back(inputOf<float>(
      4 * N, [&](size_t I) { return I % 4 == 3 ? Mass(Rng) / float(N) : Coord(Rng); }));
  P.Buffers.push_back(
      inputOf<float>(4 * N, [&](size_t I) { return I % 4 == 3 ? 0.0f : Speed(Rng); }));
  P.Buffers.push_back(output(4 * N * sizeof(float), Compare::Relative));
  P.Buffers.push_back(output(4 * N * sizeof(float), Compare::Relative));
  P.launch(Kernel,
           {bufferArg(0), bufferArg(1), bufferArg(2), bufferArg(3), valueArg(Dt), valueArg(Eps2),
            valueArg(uint32_t(N))},
           1, {N, 1, 1}, {256, 1, 1});
  P.Tolerance = 1e-3;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *Pos = P.in<float>(0), *Vel = P.in<float>(1);
    // Float I of new_pos / new_vel, from body I / 4's acceleration in
    // double.
    auto Step = [&](size_t I, bool Position) {
      size_t Body = I / 4, C = I % 4;
      if (C == 3)
        return double(Position ? Pos[I] : Vel[I]);
      double A = 0;
      for (size_t J = 0; J < N; ++J) {
        double D[3];
        for (int K = 0; K < 3; ++K)
          D[K] = double(Pos[4 * J + K]) - Pos[4 * Body + K];
        double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + Eps2;
        A += Pos[4 * J + 3] * D[C] / (R2 * std::sqrt(R2));
      }
      double V = Vel[I] + A * Dt;
      return Position ? Pos[I] + V * Dt : V;
    };
    Check C = sampledFloats(O[2].as<float>(), 4 * N, 256, P.Tolerance, "new_pos",
                            [&](size_t I) { return Step(I, true); });
    C.merge(sampledFloats(O[3].as<float>(), 4 * N, 256, P.Tolerance, "new_vel",
                          [&](size_t I) { return Step(I, false); }));
    return C;
  };
  return P;
}

namespace {

Problem nbody(double Scale, std::mt19937 &Rng) {
  return nbodyStep(Scale, Rng, 524288, "nbody_step");
}

AppRegistration Registration({"nbody", "nbody", nbody});

} // namespace
} // namespace skmd::bench
