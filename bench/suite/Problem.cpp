//===- Problem.cpp - A benchmark application's buffers, launches, checks --===//
#include "Problem.h"

#include <cstdio>
#include <new>

namespace skmd::bench {

namespace {
constexpr size_t PageBytes = 4096;
} // namespace

HostArray::HostArray(size_t Bytes) : Bytes(Bytes) {
  size_t Rounded = (std::max<size_t>(Bytes, 1) + PageBytes - 1) / PageBytes * PageBytes;
  Data.reset(static_cast<uint8_t *>(std::aligned_alloc(PageBytes, Rounded)));
  if (!Data)
    throw std::bad_alloc();
  std::memset(Data.get(), 0, Rounded);
}

void Buffer::initialContents(void *Dst) const {
  if (Input.bytes())
    std::memcpy(Dst, Input.data(), Bytes);
  else
    std::memset(Dst, 0, Bytes);
}

Buffer uniformFloats(size_t Count, float Lo, float Hi, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> D(Lo, Hi);
  return inputOf<float>(Count, [&](size_t) { return D(Rng); });
}

Buffer output(size_t Bytes, Compare How) {
  Buffer B;
  B.Bytes = Bytes;
  B.IsOutput = true;
  B.How = How;
  return B;
}

Buffer scratch(size_t Bytes) {
  Buffer B = output(Bytes, Compare::Exact);
  B.Scratch = true;
  return B;
}

Buffer inOut(Buffer Input, Compare How) {
  Input.IsOutput = true;
  Input.How = How;
  return Input;
}

Arg bufferArg(unsigned Index) {
  Arg A;
  A.K = Arg::BufferArg;
  A.Index = Index;
  A.Size = sizeof(void *);
  return A;
}

Arg localArg(size_t Bytes) {
  Arg A;
  A.K = Arg::LocalArg;
  A.Size = Bytes;
  return A;
}

Check Check::mismatch(std::string What) {
  Check C;
  C.Ok = false;
  C.Problem = std::move(What);
  return C;
}

Check Check::relative(double Err, double Tol, const std::string &What) {
  Check C;
  C.Exact = false;
  C.WorstRel = Err;
  if (!(Err <= Tol)) {
    char Text[128];
    std::snprintf(Text, sizeof(Text), "%s: rel. err. %.2g > %.2g", What.c_str(), Err, Tol);
    C.Ok = false;
    C.Problem = Text;
  }
  return C;
}

void Check::merge(const Check &O) {
  Ok = Ok && O.Ok;
  Exact = Exact && O.Exact;
  WorstRel = std::max(WorstRel, O.WorstRel);
  if (Scope.empty())
    Scope = O.Scope;
  if (!O.Problem.empty())
    Problem += (Problem.empty() ? "" : "; ") + O.Problem;
}

std::string Check::str() const {
  if (!Ok)
    return Problem;
  std::string S = "exact";
  if (!Exact) {
    char Text[48];
    std::snprintf(Text, sizeof(Text), "rel. err. %.1e", WorstRel);
    S = Text;
  }
  return Scope.empty() ? S : S + " (" + Scope + ")";
}

void Problem::launch(std::string Kernel, std::vector<Arg> Args, unsigned Dims,
                     std::array<size_t, 3> Global, std::array<size_t, 3> Local) {
  Launch L;
  L.Kernel = std::move(Kernel);
  L.Args = std::move(Args);
  L.Dims = Dims;
  L.Global = Global;
  L.Local = Local;
  Launches.push_back(std::move(L));
}

Check compareOutputs(const Problem &P, const Outputs &Got, const Outputs &Want) {
  Check C;
  C.Scope = "all";
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (!B.IsOutput || B.Scratch)
      continue;
    const float *G = Got[I].as<float>(), *W = Want[I].as<float>();
    size_t Floats = B.Bytes / sizeof(float);
    std::string What = "output " + std::to_string(I);
    switch (B.How) {
    case Compare::Exact:
      if (std::memcmp(Got[I].data(), Want[I].data(), B.Bytes) != 0) {
        size_t At = 0;
        while (Got[I].data()[At] == Want[I].data()[At])
          ++At;
        C.merge(Check::mismatch(What + " differs from byte " + std::to_string(At)));
      }
      break;
    case Compare::Relative:
      C.merge(Check::relative(
          maxRelError(
              Floats, [&](size_t J) { return G[J]; }, [&](size_t J) { return W[J]; }),
          P.Tolerance, What));
      break;
    case Compare::Sum: {
      double WantSum = sumOfFloats(W, Floats), GotSum = sumOfFloats(G, Floats);
      C.merge(Check::relative(std::fabs(GotSum - WantSum) / std::max(std::fabs(WantSum), 1e-30),
                              P.Tolerance, What + " sum"));
      C.Scope = "sum";
      break;
    }
    }
  }
  return C;
}

std::vector<size_t> sampleOf(size_t N, size_t Samples) {
  std::vector<size_t> S;
  if (N <= Samples) {
    for (size_t I = 0; I < N; ++I)
      S.push_back(I);
    return S;
  }
  size_t Stride = N / Samples;
  for (size_t I = 0; I < Samples; ++I)
    S.push_back(I * Stride + (I * 7919) % Stride);
  S.push_back(N - 1);
  return S;
}

std::string samplesScope(size_t Taken, size_t Of) {
  return Taken >= Of ? "all" : std::to_string(Taken) + " of " + std::to_string(Of);
}

double sumOfFloats(const float *Data, size_t N) {
  double Sum = 0;
  for (size_t I = 0; I < N; ++I)
    Sum += Data[I];
  return Sum;
}

size_t scaled(double Full, double Scale, size_t Multiple) {
  size_t N = size_t(Full / Scale) / Multiple * Multiple;
  return std::max(N, Multiple);
}

size_t scaledSide(double Full, double Scale, size_t Multiple) {
  return scaled(Full, std::sqrt(Scale), Multiple);
}

size_t scaledCubeSide(double Full, double Scale, size_t Multiple) {
  return scaled(Full, std::cbrt(Scale), Multiple);
}

size_t roundUp(size_t N, size_t Multiple) { return (N + Multiple - 1) / Multiple * Multiple; }

} // namespace skmd::bench
