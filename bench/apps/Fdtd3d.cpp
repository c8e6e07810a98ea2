//===- Fdtd3d.cpp - One step of a radius-2 3-D stencil on a 256^3 grid ----===//
//
// As the NVIDIA OpenCL SDK's FDTD3d at the paper's size (Table II: dimsize
// 256, radius 2; (256 + 4)^3 floats, 68 MB in and out). The output starts
// as a copy of the input, as in the SDK, and the kernel writes its
// interior only: the check wants the halo bit for bit the input's, and a
// sample of the interior within the tolerance of a double-precision
// stencil.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

constexpr size_t Radius = 2;
// Positive and summing to 1: each point becomes a weighted average of its
// neighbourhood, so the outputs stay in the inputs' range and nothing
// cancels.
const float C0 = 0.4f, C1 = 0.07f, C2 = 0.03f;

Problem fdtd3d(double Scale, std::mt19937 &Rng) {
  size_t Dim = scaledCubeSide(256, Scale, 1);
  size_t Side = Dim + 2 * Radius, Points = Side * Side * Side;
  Problem P;
  P.Size = std::to_string(Dim) + "^3 + halo " + std::to_string(Radius);
  P.Buffers.push_back(uniformFloats(Points, 0, 1, Rng));
  const float *In = P.in<float>(0);
  P.Buffers.push_back(inOut(inputOf<float>(Points, [&](size_t I) { return In[I]; }),
                            Compare::Relative));
  // 32x8 groups of one z plane: 65,536 groups at full size.
  P.launch("fdtd3d",
           {bufferArg(0), bufferArg(1), valueArg(uint32_t(Dim)), valueArg(C0), valueArg(C1),
            valueArg(C2)},
           3, {roundUp(Dim, 32), roundUp(Dim, 8), Dim}, {32, 8, 1});
  // A sum of 13 terms of about 0.5 in single precision.
  P.Tolerance = 1e-5;
  P.Reference = [Dim, Side, Points](const Problem &P, const Outputs &O) {
    const float *In = P.in<float>(0), *Out = O[1].as<float>();
    auto InHalo = [&](size_t C) { return C < Radius || C >= Dim + Radius; };
    for (size_t I = 0; I < Points; ++I) {
      if (!InHalo(I % Side) && !InHalo(I / Side % Side) && !InHalo(I / (Side * Side)))
        continue;
      if (std::memcmp(&Out[I], &In[I], sizeof(float)) != 0)
        return Check::mismatch("halo point " + std::to_string(I) + " is not the input's");
    }
    auto Stencil = [&](size_t I) {
      size_t X = I % Side, Y = I / Side % Side, Z = I / (Side * Side);
      if (InHalo(X) || InHalo(Y) || InHalo(Z))
        return double(In[I]);
      double Sum = C0 * double(In[I]);
      for (size_t R = 1; R <= Radius; ++R) {
        size_t Dx = R, Dy = R * Side, Dz = R * Side * Side;
        double Ring = double(In[I - Dx]) + In[I + Dx] + In[I - Dy] + In[I + Dy] + In[I - Dz] +
                      In[I + Dz];
        Sum += (R == 1 ? C1 : C2) * Ring;
      }
      return Sum;
    };
    return sampledFloats(Out, Points, 1 << 16, P.Tolerance, "out", Stencil);
  };
  return P;
}

AppRegistration Registration({"fdtd3d", "fdtd3d", fdtd3d});

} // namespace
} // namespace skmd::bench
