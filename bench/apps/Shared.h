//===- Shared.h - Problems that several applications' kernels compute -*- C++ -*-===//
#ifndef SKMD_BENCH_APPS_SHARED_H
#define SKMD_BENCH_APPS_SHARED_H

#include "../suite/Apps.h"

namespace skmd::bench {

/// One time step of \p FullBodies bodies (scaled) in groups of 256 by
/// \p Kernel, whose arguments are (pos, vel, new_pos, new_vel, dt, eps2,
/// n): float4s, xyz and the mass (0 for velocities); checked on 256
/// samples against the step in double.
Problem nbodyStep(double Scale, std::mt19937 &Rng, size_t FullBodies, const char *Kernel);

/// A first round of partial sums: \p Groups partial sums in output 1 of
/// the \p N floats of input 0, their total against the inputs' in double
/// (Reduction.cpp).
Check partialSumsCheck(const Problem &P, const Outputs &O, size_t N, size_t Groups);

} // namespace skmd::bench

#endif // SKMD_BENCH_APPS_SHARED_H
