//===- NBodyFloat3.cpp - n-body with float3 arithmetic from global memory -===//
//
// A shape measured outside this repository, where SKMD's CPU device was
// slower than PoCL (1.30 s against 1.03 s on the H100 host's 16 cores):
// 65,536 bodies in groups of 256, float3 arithmetic on float4 loads, dot
// and rsqrt, every body read from global memory by every work-item.
//
//===----------------------------------------------------------------------===//
#include "Shared.h"

namespace skmd::bench {
namespace {

Problem nbodyFloat3(double Scale, std::mt19937 &Rng) {
  return nbodyStep(Scale, Rng, 65536, "nbody_float3");
}

AppRegistration Registration({"nbody-float3", "nbody_float3", nbodyFloat3});

} // namespace
} // namespace skmd::bench
