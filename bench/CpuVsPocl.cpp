//===- CpuVsPocl.cpp - SKMD's CPU device against PoCL ---------------------===//
//
// Runs each kernel of bench/kernels twice, from the same OpenCL C source,
// with the same inputs, global and local sizes: under PoCL (the OpenCL CPU
// driver, reached through the ICD loader) and under SKMD's CPU device (the
// bundle's x86 work-group functions, run over all groups by runWorkGroups on
// a ThreadPool of ThreadPool::defaultThreads() threads).
//
// Only the kernel is timed. The buffers are in place beforehand: PoCL works
// on the host arrays themselves (CL_MEM_USE_HOST_PTR) and its time is
// clEnqueueNDRangeKernel + clFinish; SKMD's is runWorkGroups. Each side
// reports the best of --runs runs after one untimed warm-up: the run least
// disturbed by whatever else the machine does (the JSON has every run, and
// the median). SKMD's outputs are compared with PoCL's over the whole
// output, and both with a C++ reference (on a sample where the reference is
// expensive).
//
//   cpu-vs-pocl [--scale=F] [--only=a,b] [--runs=N] [--json=FILE]
//               [--kernels-dir=DIR] [--bundles-dir=DIR]
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "devices/cpu/HostCpu.h"
#include "devices/cpu/WorkGroupRunner.h"

#include <nlohmann/json.hpp>

#ifdef SKMD_BENCH_HAVE_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace skmd;

namespace {

//===----------------------------------------------------------------------===//
// Problems: buffers, arguments, ranges and references
//===----------------------------------------------------------------------===//

/// Zeroed, page-aligned host memory, so that PoCL's CL_MEM_USE_HOST_PTR uses
/// it in place instead of copying it.
class HostArray {
public:
  HostArray() = default;
  explicit HostArray(size_t Bytes) : Bytes(Bytes) {
    size_t Rounded =
        (std::max<size_t>(Bytes, 1) + PageBytes - 1) / PageBytes * PageBytes;
    Data.reset(static_cast<uint8_t *>(std::aligned_alloc(PageBytes, Rounded)));
    if (!Data)
      throw std::bad_alloc();
    std::memset(Data.get(), 0, Rounded);
  }

  size_t bytes() const { return Bytes; }
  uint8_t *data() { return Data.get(); }
  const uint8_t *data() const { return Data.get(); }
  template <typename T> T *as() { return reinterpret_cast<T *>(Data.get()); }
  template <typename T> const T *as() const {
    return reinterpret_cast<const T *>(Data.get());
  }

private:
  static constexpr size_t PageBytes = 4096;
  struct Free {
    void operator()(uint8_t *P) const { std::free(P); }
  };
  std::unique_ptr<uint8_t, Free> Data;
  size_t Bytes = 0;
};

/// How an output is compared between the two drivers.
enum class Compare {
  Exact,    ///< Bit for bit.
  Relative, ///< Element by element, within the problem's tolerance.
  Sum,      ///< Only the sum of its floats (a reduction's partial sums).
};

struct Buffer {
  size_t Bytes = 0;
  /// The contents of an input; empty for an output, which each driver
  /// allocates for itself (zeroed).
  HostArray Input;
  bool IsOutput = false;
  /// An output the kernel adds into: zeroed, untimed, before every run.
  bool ZeroEachRun = false;
  Compare How = Compare::Exact;
};

/// A host array of Count T's, each from Next().
template <typename T, typename Gen> Buffer inputOf(size_t Count, Gen Next) {
  Buffer B;
  B.Bytes = Count * sizeof(T);
  B.Input = HostArray(B.Bytes);
  T *Data = B.Input.as<T>();
  for (size_t I = 0; I < Count; ++I)
    Data[I] = Next(I);
  return B;
}

Buffer uniformFloats(size_t Count, float Lo, float Hi, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> D(Lo, Hi);
  return inputOf<float>(Count, [&](size_t) { return D(Rng); });
}

Buffer output(size_t Bytes, Compare How, bool ZeroEachRun = false) {
  Buffer B;
  B.Bytes = Bytes;
  B.IsOutput = true;
  B.ZeroEachRun = ZeroEachRun;
  B.How = How;
  return B;
}

/// One kernel argument, as both drivers pass it.
struct Arg {
  enum Kind { BufferArg, ValueArg, LocalArg } K = ValueArg;
  unsigned Index = 0;             ///< The buffer, for BufferArg.
  std::array<uint8_t, 8> Value{}; ///< The bytes of a ValueArg.
  size_t Size = 0;                ///< Bytes of the value or of __local memory.
};

Arg bufferArg(unsigned Index) {
  Arg A;
  A.K = Arg::BufferArg;
  A.Index = Index;
  A.Size = sizeof(void *);
  return A;
}

template <typename T> Arg valueArg(T V) {
  static_assert(sizeof(T) <= 8, "scalar arguments only");
  Arg A;
  A.K = Arg::ValueArg;
  std::memcpy(A.Value.data(), &V, sizeof(T));
  A.Size = sizeof(T);
  return A;
}

Arg localArg(size_t Bytes) {
  Arg A;
  A.K = Arg::LocalArg;
  A.Size = Bytes;
  return A;
}

/// A driver's outputs, by buffer index; empty for the inputs.
using Outputs = std::vector<HostArray>;

/// The outcome of comparing outputs, mergeable over several outputs.
struct Check {
  bool Ok = true;
  bool Exact = true;   ///< Every comparison was bit for bit.
  double WorstRel = 0; ///< The largest relative error of the others.
  std::string Scope;   ///< What was compared, e.g. "4096 samples".
  std::string Problem; ///< What differs, when !Ok.

  static Check mismatch(std::string What) {
    Check C;
    C.Ok = false;
    C.Problem = std::move(What);
    return C;
  }

  /// A relative error \p Err against the tolerance \p Tol.
  static Check relative(double Err, double Tol, const std::string &What) {
    Check C;
    C.Exact = false;
    C.WorstRel = Err;
    if (!(Err <= Tol)) {
      char Text[128];
      std::snprintf(Text, sizeof(Text), "%s: rel. err. %.2g > %.2g",
                    What.c_str(), Err, Tol);
      C.Ok = false;
      C.Problem = Text;
    }
    return C;
  }

  void merge(const Check &O) {
    Ok = Ok && O.Ok;
    Exact = Exact && O.Exact;
    WorstRel = std::max(WorstRel, O.WorstRel);
    if (Scope.empty())
      Scope = O.Scope;
    if (!O.Problem.empty())
      Problem += (Problem.empty() ? "" : "; ") + O.Problem;
  }

  std::string str() const {
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
};

struct Problem;
using ReferenceFn = std::function<Check(const Problem &, const Outputs &)>;

/// One kernel's launch: its buffers, arguments and NDRange, and how to
/// judge the outputs.
struct Problem {
  std::string Size; ///< For people, e.g. "4096x4096".
  std::vector<Buffer> Buffers;
  std::vector<Arg> Args;
  unsigned Dims = 1;
  std::array<size_t, 3> Global{1, 1, 1}, Local{1, 1, 1};
  /// Relative tolerance of Compare::Relative and Compare::Sum outputs.
  double Tolerance = 0;
  /// Checks one driver's outputs against C++.
  ReferenceFn Reference;

  template <typename T> const T *in(unsigned I) const {
    return Buffers[I].Input.as<T>();
  }
};

/// The largest |Got(i) - Want(i)| / max(|Want(i)|, Floor) for i in
/// [0, N), where Floor is 1e-3 of the largest |Want|: an element that
/// cancels to almost nothing is judged at the scale of the whole output,
/// not at its own. NaN anywhere makes it infinite.
template <typename GotFn, typename WantFn>
double maxRelError(size_t N, GotFn Got, WantFn Want) {
  double MaxAbs = 0;
  for (size_t I = 0; I < N; ++I)
    MaxAbs = std::max(MaxAbs, std::fabs(double(Want(I))));
  double Floor = std::max(1e-3 * MaxAbs, std::numeric_limits<double>::min());
  double Worst = 0;
  for (size_t I = 0; I < N; ++I) {
    double W = Want(I), G = Got(I);
    double E = std::fabs(G - W) / std::max(std::fabs(W), Floor);
    if (!(E <= Worst))
      Worst = std::isnan(E) ? HUGE_VAL : E;
  }
  return Worst;
}

/// About \p Samples indices spread over [0, N) (all of them when N is
/// small), with the last one included; the jitter keeps them off the
/// rows of a 2-D array.
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
  return Taken >= Of ? "all"
                     : std::to_string(Taken) + " of " + std::to_string(Of);
}

/// Compares a float output of \p Count elements with a double-precision
/// reference, Want(I), at about \p Samples indices.
template <typename ReferenceAt>
Check sampledFloats(const float *Got, size_t Count, size_t Samples, double Tol,
                    const std::string &What, ReferenceAt Want) {
  std::vector<size_t> Index = sampleOf(Count, Samples);
  std::vector<double> Expected(Index.size());
  for (size_t I = 0; I < Index.size(); ++I)
    Expected[I] = Want(Index[I]);
  Check C =
      Check::relative(maxRelError(
                          Index.size(), [&](size_t I) { return Got[Index[I]]; },
                          [&](size_t I) { return Expected[I]; }),
                      Tol, What);
  C.Scope = samplesScope(Index.size(), Count);
  return C;
}

/// Compares every element of an output with a reference, Want(I), bit for
/// bit.
template <typename T, typename ReferenceAt>
Check allExact(const T *Got, size_t Count, const std::string &What,
               ReferenceAt Want) {
  for (size_t I = 0; I < Count; ++I) {
    T W = Want(I);
    if (std::memcmp(&Got[I], &W, sizeof(T)) != 0) {
      std::ostringstream OS;
      OS << What << "[" << I << "] is " << Got[I] << ", expected " << W;
      return Check::mismatch(OS.str());
    }
  }
  Check C;
  C.Scope = "all";
  return C;
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// A problem size divided by \p Scale, rounded down to a multiple of
/// \p Multiple and at least \p Multiple.
size_t scaled(double Full, double Scale, size_t Multiple) {
  size_t N = size_t(Full / Scale) / Multiple * Multiple;
  return std::max(N, Multiple);
}

/// A side of a 2-D problem: the element count is divided by \p Scale.
size_t scaledSide(double Full, double Scale, size_t Multiple) {
  return scaled(Full, std::sqrt(Scale), Multiple);
}

size_t roundUp(size_t N, size_t Multiple) {
  return (N + Multiple - 1) / Multiple * Multiple;
}

void setRange(Problem &P, std::array<size_t, 3> Global,
              std::array<size_t, 3> Local, unsigned Dims) {
  P.Global = Global;
  P.Local = Local;
  P.Dims = Dims;
}

Problem vectorAdd(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(50e6, Scale, 1);
  Problem P;
  P.Size = std::to_string(N) + " floats";
  P.Buffers.push_back(uniformFloats(N, -1, 1, Rng));
  P.Buffers.push_back(uniformFloats(N, -1, 1, Rng));
  P.Buffers.push_back(output(N * sizeof(float), Compare::Exact));
  P.Args = {bufferArg(0), bufferArg(1), bufferArg(2), valueArg(uint32_t(N))};
  setRange(P, {roundUp(N, 256), 1, 1}, {256, 1, 1}, 1);
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *A = P.in<float>(0), *B = P.in<float>(1);
    return allExact(O[2].as<float>(), N, "c",
                    [&](size_t I) { return A[I] + B[I]; });
  };
  return P;
}

const float BlackScholesRate = 0.02f, BlackScholesVolatility = 0.30f;

/// The kernel's formulas (black_scholes.cl) in double precision.
double cumulativeNormal(double D) {
  double K = 1 / (1 + 0.2316419 * std::fabs(D));
  double Tail =
      0.398942280401432678 * std::exp(-0.5 * D * D) *
      (K * (0.31938153 +
            K * (-0.356563782 +
                 K * (1.781477937 + K * (-1.821255978 + K * 1.330274429)))));
  return D > 0 ? 1 - Tail : Tail;
}

std::pair<double, double> blackScholes(double S, double K, double T) {
  double R = BlackScholesRate, V = BlackScholesVolatility;
  double VolSqrtT = V * std::sqrt(T);
  double D1 = (std::log(S / K) + (R + 0.5 * V * V) * T) / VolSqrtT;
  double D2 = D1 - VolSqrtT;
  double Discounted = K * std::exp(-R * T);
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
  P.Args = {bufferArg(0),
            bufferArg(1),
            bufferArg(2),
            bufferArg(3),
            bufferArg(4),
            valueArg(BlackScholesRate),
            valueArg(BlackScholesVolatility),
            valueArg(uint32_t(N))};
  setRange(P, {roundUp(N, 256), 1, 1}, {256, 1, 1}, 1);
  P.Tolerance = 1e-4;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    auto At = [&P](size_t I) {
      return blackScholes(P.in<float>(0)[I], P.in<float>(1)[I],
                          P.in<float>(2)[I]);
    };
    Check C = sampledFloats(O[3].as<float>(), N, 4096, P.Tolerance, "call",
                            [&](size_t I) { return At(I).first; });
    C.merge(sampledFloats(O[4].as<float>(), N, 4096, P.Tolerance, "put",
                          [&](size_t I) { return At(I).second; }));
    return C;
  };
  return P;
}

Problem matmulTiled(double Scale, std::mt19937 &Rng) {
  size_t N = scaledSide(4096, Scale, 16);
  Problem P;
  P.Size = std::to_string(N) + "x" + std::to_string(N);
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(output(N * N * sizeof(float), Compare::Relative));
  P.Args = {bufferArg(0), bufferArg(1), bufferArg(2), valueArg(int32_t(N))};
  setRange(P, {N, N, 1}, {16, 16, 1}, 2);
  // The float sums of N products drift from the double reference.
  P.Tolerance = 1e-3;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *A = P.in<float>(0), *B = P.in<float>(1);
    return sampledFloats(O[2].as<float>(), N * N, 1024, P.Tolerance, "C",
                         [&](size_t I) {
                           size_t Row = I / N, Col = I % N;
                           double Sum = 0;
                           for (size_t K = 0; K < N; ++K)
                             Sum += double(A[Row * N + K]) * B[K * N + Col];
                           return Sum;
                         });
  };
  return P;
}

Problem transpose(double Scale, std::mt19937 &Rng) {
  size_t N = scaledSide(8192, Scale, 32);
  Problem P;
  P.Size = std::to_string(N) + "x" + std::to_string(N);
  P.Buffers.push_back(uniformFloats(N * N, -1, 1, Rng));
  P.Buffers.push_back(output(N * N * sizeof(float), Compare::Exact));
  P.Args = {bufferArg(0), bufferArg(1), valueArg(uint32_t(N)),
            valueArg(uint32_t(N))};
  // A 32x8 group moves a 32x32 block.
  setRange(P, {N, N / 4, 1}, {32, 8, 1}, 2);
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *In = P.in<float>(0);
    return allExact(O[1].as<float>(), N * N, "out",
                    [&](size_t I) { return In[(I % N) * N + I / N]; });
  };
  return P;
}

Problem histogram(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(64 << 20, Scale, 1);
  Problem P;
  P.Size = std::to_string(N) + " bytes";
  P.Buffers.push_back(
      inputOf<uint8_t>(N, [&](size_t) { return uint8_t(Rng()); }));
  P.Buffers.push_back(output(256 * sizeof(uint32_t), Compare::Exact,
                             /*ZeroEachRun=*/true));
  P.Args = {bufferArg(0), valueArg(uint32_t(N)), bufferArg(1)};
  // Groups of 256 work-items, each counting about 64 bytes: few enough
  // groups that the global atomics stay a small part of the work.
  size_t Groups = (N + 256 * 64 - 1) / (256 * 64);
  setRange(P, {Groups * 256, 1, 1}, {256, 1, 1}, 1);
  P.Reference = [N](const Problem &P, const Outputs &O) {
    std::vector<uint32_t> Bins(256, 0);
    const uint8_t *Data = P.in<uint8_t>(0);
    for (size_t I = 0; I < N; ++I)
      ++Bins[Data[I]];
    return allExact(O[1].as<uint32_t>(), 256, "bins",
                    [&](size_t I) { return Bins[I]; });
  };
  return P;
}

double sumOfFloats(const float *Data, size_t N) {
  double Sum = 0;
  for (size_t I = 0; I < N; ++I)
    Sum += Data[I];
  return Sum;
}

Problem reduction(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(64 << 20, Scale, 1);
  const size_t Local = 256;
  size_t Groups = (N + 2 * Local - 1) / (2 * Local); // 2 floats per item
  Problem P;
  P.Size = std::to_string(N) + " floats";
  // Positive, so the sum is well conditioned and a relative check is fair.
  P.Buffers.push_back(uniformFloats(N, 0, 1, Rng));
  P.Buffers.push_back(output(Groups * sizeof(float), Compare::Sum));
  P.Args = {bufferArg(0), bufferArg(1), localArg(Local * sizeof(float)),
            valueArg(uint32_t(N))};
  setRange(P, {Groups * Local, 1, 1}, {Local, 1, 1}, 1);
  P.Tolerance = 1e-5;
  P.Reference = [N, Groups](const Problem &P, const Outputs &O) {
    double Want = sumOfFloats(P.in<float>(0), N);
    double Got = sumOfFloats(O[1].as<float>(), Groups);
    Check C = Check::relative(std::fabs(Got - Want) / std::fabs(Want),
                              P.Tolerance, "sum");
    C.Scope = "sum";
    return C;
  };
  return P;
}

/// The kernel's gradient magnitude at (X, Y) in double precision.
double sobelAt(const float *Img, size_t W, size_t H, size_t X, size_t Y) {
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1)
    return 0;
  auto Px = [&](int DX, int DY) { return double(Img[(Y + DY) * W + X + DX]); };
  double GX = (Px(1, -1) + 2 * Px(1, 0) + Px(1, 1)) -
              (Px(-1, -1) + 2 * Px(-1, 0) + Px(-1, 1));
  double GY = (Px(-1, 1) + 2 * Px(0, 1) + Px(1, 1)) -
              (Px(-1, -1) + 2 * Px(0, -1) + Px(1, -1));
  return std::sqrt(GX * GX + GY * GY);
}

Problem sobel(double Scale, std::mt19937 &Rng) {
  size_t W = scaledSide(7680, Scale, 1), H = scaledSide(4320, Scale, 1);
  Problem P;
  P.Size = std::to_string(W) + "x" + std::to_string(H);
  P.Buffers.push_back(uniformFloats(W * H, 0, 1, Rng));
  P.Buffers.push_back(output(W * H * sizeof(float), Compare::Relative));
  P.Args = {bufferArg(0), bufferArg(1), valueArg(uint32_t(W)),
            valueArg(uint32_t(H))};
  setRange(P, {roundUp(W, 16), roundUp(H, 16), 1}, {16, 16, 1}, 2);
  P.Tolerance = 1e-4;
  P.Reference = [W, H](const Problem &P, const Outputs &O) {
    const float *Img = P.in<float>(0);
    return sampledFloats(
        O[1].as<float>(), W * H, 1 << 16, P.Tolerance, "magnitude",
        [&](size_t I) { return sobelAt(Img, W, H, I % W, I / W); });
  };
  return P;
}

const float NBodyDt = 0.01f, NBodyEps2 = 0.01f;

Problem nbody(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(65536, Scale, 256);
  Problem P;
  P.Size = std::to_string(N) + " bodies";
  std::uniform_real_distribution<float> Coord(-1, 1), Mass(0.5, 1.5),
      Speed(-0.1f, 0.1f);
  // float4s: xyz, then the mass (about 1/N each) or 0 for velocities.
  P.Buffers.push_back(inputOf<float>(4 * N, [&](size_t I) {
    return I % 4 == 3 ? Mass(Rng) / float(N) : Coord(Rng);
  }));
  P.Buffers.push_back(inputOf<float>(
      4 * N, [&](size_t I) { return I % 4 == 3 ? 0.0f : Speed(Rng); }));
  P.Buffers.push_back(output(4 * N * sizeof(float), Compare::Relative));
  P.Buffers.push_back(output(4 * N * sizeof(float), Compare::Relative));
  P.Args = {bufferArg(0),         bufferArg(1),      bufferArg(2),
            bufferArg(3),         valueArg(NBodyDt), valueArg(NBodyEps2),
            valueArg(uint32_t(N))};
  setRange(P, {N, 1, 1}, {256, 1, 1}, 1);
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
        double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + NBodyEps2;
        A += Pos[4 * J + 3] * D[C] / (R2 * std::sqrt(R2));
      }
      double V = Vel[I] + A * NBodyDt;
      return Position ? Pos[I] + V * NBodyDt : V;
    };
    Check C = sampledFloats(O[2].as<float>(), 4 * N, 256, P.Tolerance,
                            "new_pos", [&](size_t I) { return Step(I, true); });
    C.merge(sampledFloats(O[3].as<float>(), 4 * N, 256, P.Tolerance, "new_vel",
                          [&](size_t I) { return Step(I, false); }));
    return C;
  };
  return P;
}

struct KernelCase {
  const char *Name;     ///< The .cl / .skmd file stem, and --only's name.
  const char *Function; ///< The __kernel in it.
  Problem (*Make)(double Scale, std::mt19937 &Rng);
};

const KernelCase Kernels[] = {
    {"vector_add", "vector_add", vectorAdd},
    {"black_scholes", "black_scholes", blackScholesOptions},
    {"matmul_tiled", "matmul_tiled", matmulTiled},
    {"transpose", "transpose", transpose},
    {"histogram", "histogram256", histogram},
    {"reduction", "reduce_sum", reduction},
    {"sobel", "sobel", sobel},
    {"nbody", "nbody_step", nbody},
};

/// SKMD's outputs against PoCL's, over every output element.
Check compareDrivers(const Problem &P, const Outputs &Skmd,
                     const Outputs &Pocl) {
  Check C;
  C.Scope = "all";
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (!B.IsOutput)
      continue;
    const float *S = Skmd[I].as<float>(), *Q = Pocl[I].as<float>();
    size_t Floats = B.Bytes / sizeof(float);
    std::string What = "output " + std::to_string(I);
    switch (B.How) {
    case Compare::Exact:
      if (std::memcmp(Skmd[I].data(), Pocl[I].data(), B.Bytes) != 0) {
        size_t At = 0;
        while (Skmd[I].data()[At] == Pocl[I].data()[At])
          ++At;
        C.merge(
            Check::mismatch(What + " differs from byte " + std::to_string(At)));
      }
      break;
    case Compare::Relative:
      C.merge(Check::relative(maxRelError(
                                  Floats, [&](size_t J) { return S[J]; },
                                  [&](size_t J) { return Q[J]; }),
                              P.Tolerance, What));
      break;
    case Compare::Sum: {
      double Want = sumOfFloats(Q, Floats), Got = sumOfFloats(S, Floats);
      C.merge(Check::relative(std::fabs(Got - Want) /
                                  std::max(std::fabs(Want), 1e-30),
                              P.Tolerance, What + " sum"));
      C.Scope = "sum";
      break;
    }
    }
  }
  return C;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

using Step = std::function<std::string()>; ///< Returns an error, or "".

/// Runs Reset (untimed) and Run once as a warm-up and then \p Runs times
/// timed, appending Run's times to \p Ms. Returns the first error.
std::string timeRuns(unsigned Runs, const Step &Reset, const Step &Run,
                     std::vector<double> &Ms) {
  for (unsigned I = 0; I <= Runs; ++I) {
    if (std::string E = Reset(); !E.empty())
      return E;
    auto T0 = std::chrono::steady_clock::now();
    if (std::string E = Run(); !E.empty())
      return E;
    double T = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - T0)
                   .count();
    if (I > 0)
      Ms.push_back(T);
  }
  return "";
}

double best(const std::vector<double> &V) {
  return V.empty() ? 0 : *std::min_element(V.begin(), V.end());
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (V[M - 1] + V[M]) / 2;
}

//===----------------------------------------------------------------------===//
// SKMD's CPU device
//===----------------------------------------------------------------------===//

/// Whether the bundle's idea of the kernel's arguments matches the
/// harness's; "" when it does.
std::string matchArgs(const KernelInfo &K, const Problem &P) {
  if (K.Args.size() != P.Args.size())
    return "kernel " + K.Name + " has " + std::to_string(K.Args.size()) +
           " arguments in the bundle, the harness passes " +
           std::to_string(P.Args.size());
  for (size_t I = 0; I < P.Args.size(); ++I) {
    const KernelArg &Want = K.Args[I];
    const Arg &A = P.Args[I];
    bool Ok = false;
    switch (A.K) {
    case Arg::BufferArg:
      Ok = Want.Kind == ArgKind::GlobalBuffer ||
           Want.Kind == ArgKind::ConstantBuffer;
      break;
    case Arg::LocalArg:
      Ok = Want.Kind == ArgKind::LocalBuffer;
      break;
    case Arg::ValueArg:
      Ok = Want.Kind == ArgKind::Scalar && Want.Size == A.Size;
      break;
    }
    if (!Ok)
      return "argument " + std::to_string(I) + " (" + Want.Name + ", " +
             std::string(argKindName(Want.Kind)) + ", " +
             std::to_string(Want.Size) +
             " bytes) is not what the harness passes";
  }
  return "";
}

class SkmdDevice {
public:
  SkmdDevice() : Pool(ThreadPool::defaultThreads()) {}
  unsigned threads() const { return Pool.size(); }

  /// Runs \p Function of the bundle at \p BundlePath on \p P; fills \p Out
  /// and \p Ms, or returns an error.
  std::string run(const std::string &BundlePath, const char *Function,
                  const Problem &P, unsigned Runs, Outputs &Out,
                  std::vector<double> &Ms) {
    auto B = Bundle::fromFile(BundlePath);
    if (!B)
      return "cannot read " + BundlePath + ": " + B.error().message();
    const KernelInfo *K = B->metadata().findKernel(Function);
    if (!K)
      return BundlePath + " has no kernel " + Function;
    auto Syms = K->Symbols.find(TargetKind::X86);
    if (Syms == K->Symbols.end() || Syms->second.Kernel.empty())
      return BundlePath + " has no x86 variant of " + Function;
    auto Lib = loadX86Variant(*B);
    if (!Lib)
      return "cannot load the x86 variant: " + Lib.error().message();
    auto Sym = Lib->symbol(Syms->second.Kernel);
    if (!Sym)
      return Sym.error().message();
    if (std::string E = matchArgs(*K, P); !E.empty())
      return E;

    // Arguments as the work-group function reads them: a pointer to the
    // buffer pointer, to the scalar's bytes, or a __local size.
    std::vector<void *> BufferPtrs(P.Buffers.size());
    for (size_t I = 0; I < P.Buffers.size(); ++I) {
      const Buffer &Buf = P.Buffers[I];
      if (Buf.IsOutput)
        Out[I] = HostArray(Buf.Bytes);
      BufferPtrs[I] = Buf.IsOutput ? Out[I].data()
                                   : const_cast<uint8_t *>(Buf.Input.data());
    }
    std::vector<void *> Args(P.Args.size(), nullptr);
    std::vector<uint64_t> LocalBytes(P.Args.size(), 0);
    for (size_t I = 0; I < P.Args.size(); ++I) {
      const Arg &A = P.Args[I];
      if (A.K == Arg::BufferArg)
        Args[I] = &BufferPtrs[A.Index];
      else if (A.K == Arg::ValueArg)
        Args[I] = const_cast<uint8_t *>(A.Value.data());
      else
        LocalBytes[I] = A.Size;
    }
    NDRange L;
    uint64_t Groups = 1;
    for (unsigned D = 0; D < 3; ++D) {
      L.NumGroups[D] = P.Global[D] / P.Local[D];
      L.LocalSize[D] = P.Local[D];
      Groups *= L.NumGroups[D];
    }
    L.WorkDim = P.Dims;
    WorkGroupNeeds Needs{K->Cpu.LocalMemBytes, K->Cpu.StateBytesPerItem};
    auto Fn = reinterpret_cast<skmd_wg_fn>(*Sym);

    auto Reset = [&] {
      for (size_t I = 0; I < P.Buffers.size(); ++I)
        if (P.Buffers[I].ZeroEachRun)
          std::memset(Out[I].data(), 0, Out[I].bytes());
      return std::string();
    };
    auto Run = [&] {
      Status S = runWorkGroups(Pool, Fn, Args, LocalBytes, L, Needs, 0, Groups);
      return S ? std::string() : "runWorkGroups: " + S.error().message();
    };
    return timeRuns(Runs, Reset, Run, Ms);
  }

private:
  ThreadPool Pool;
};

//===----------------------------------------------------------------------===//
// PoCL through OpenCL
//===----------------------------------------------------------------------===//

#ifdef SKMD_BENCH_HAVE_OPENCL

std::string clFailed(const char *What, cl_int E) {
  return std::string(What) + " failed with OpenCL error " + std::to_string(E);
}

/// Owns one OpenCL object.
template <typename T, cl_int(CL_API_CALL *Release)(T)> class ClHandle {
public:
  ClHandle() = default;
  explicit ClHandle(T H) : H(H) {}
  ClHandle(ClHandle &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  ClHandle &operator=(ClHandle &&O) noexcept {
    std::swap(H, O.H);
    return *this;
  }
  ~ClHandle() {
    if (H)
      Release(H);
  }
  T get() const { return H; }

private:
  T H = nullptr;
};

using ClMem = ClHandle<cl_mem, clReleaseMemObject>;

class PoclDevice {
public:
  /// PoCL's CPU device, or null with the reason in \p Why.
  static std::unique_ptr<PoclDevice> open(std::string &Why) {
    cl_uint Count = 0;
    cl_int E = clGetPlatformIDs(0, nullptr, &Count);
    if (E != CL_SUCCESS || Count == 0) {
      Why = "no OpenCL platform (clGetPlatformIDs: " + std::to_string(E) +
            "; is pocl-opencl-icd installed?)";
      return nullptr;
    }
    std::vector<cl_platform_id> Platforms(Count);
    clGetPlatformIDs(Count, Platforms.data(), nullptr);
    std::string Seen;
    for (cl_platform_id Platform : Platforms) {
      std::string Name = platformInfo(Platform, CL_PLATFORM_NAME);
      Seen += (Seen.empty() ? "" : ", ") + Name;
      if (Name.find("Portable Computing Language") == std::string::npos)
        continue;
      cl_device_id Device = nullptr;
      if (clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 1, &Device, nullptr) !=
          CL_SUCCESS) {
        Why = "the PoCL platform has no CPU device";
        return nullptr;
      }
      auto D = std::unique_ptr<PoclDevice>(new PoclDevice);
      D->Device = Device;
      D->Context = ClHandle<cl_context, clReleaseContext>(
          clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &E));
      if (E != CL_SUCCESS) {
        Why = clFailed("clCreateContext", E);
        return nullptr;
      }
      D->Queue = ClHandle<cl_command_queue, clReleaseCommandQueue>(
          clCreateCommandQueue(D->Context.get(), Device, 0, &E));
      if (E != CL_SUCCESS) {
        Why = clFailed("clCreateCommandQueue", E);
        return nullptr;
      }
      char DeviceName[256] = {0};
      clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof(DeviceName) - 1,
                      DeviceName, nullptr);
      clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint),
                      &D->Units, nullptr);
      D->Name = platformInfo(Platform, CL_PLATFORM_VERSION) + ", " + DeviceName;
      return D;
    }
    Why = "no PoCL platform among the OpenCL platforms (" + Seen + ")";
    return nullptr;
  }

  const std::string &name() const { return Name; }
  unsigned computeUnits() const { return Units; }

  /// Builds \p Source and runs \p Function on \p P; fills \p Out and \p Ms,
  /// or returns an error.
  std::string run(const std::string &Source, const char *Function,
                  const Problem &P, unsigned Runs, Outputs &Out,
                  std::vector<double> &Ms) {
    cl_int E;
    const char *Text = Source.c_str();
    ClHandle<cl_program, clReleaseProgram> Program(
        clCreateProgramWithSource(Context.get(), 1, &Text, nullptr, &E));
    if (E != CL_SUCCESS)
      return clFailed("clCreateProgramWithSource", E);
    if ((E = clBuildProgram(Program.get(), 1, &Device, "-cl-std=CL1.2", nullptr,
                            nullptr)) != CL_SUCCESS) {
      size_t LogBytes = 0;
      clGetProgramBuildInfo(Program.get(), Device, CL_PROGRAM_BUILD_LOG, 0,
                            nullptr, &LogBytes);
      std::string Log(LogBytes, '\0');
      clGetProgramBuildInfo(Program.get(), Device, CL_PROGRAM_BUILD_LOG,
                            LogBytes, Log.data(), nullptr);
      return clFailed("clBuildProgram", E) + ":\n" + Log;
    }
    ClHandle<cl_kernel, clReleaseKernel> Kernel(
        clCreateKernel(Program.get(), Function, &E));
    if (E != CL_SUCCESS)
      return clFailed("clCreateKernel", E);

    std::vector<ClMem> Mems;
    for (size_t I = 0; I < P.Buffers.size(); ++I) {
      const Buffer &B = P.Buffers[I];
      if (B.IsOutput)
        Out[I] = HostArray(B.Bytes);
      void *Host =
          B.IsOutput ? Out[I].data() : const_cast<uint8_t *>(B.Input.data());
      cl_mem_flags Flags = CL_MEM_USE_HOST_PTR |
                           (B.IsOutput ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY);
      Mems.emplace_back(
          clCreateBuffer(Context.get(), Flags, B.Bytes, Host, &E));
      if (E != CL_SUCCESS)
        return clFailed("clCreateBuffer", E);
    }
    for (size_t I = 0; I < P.Args.size(); ++I) {
      const Arg &A = P.Args[I];
      cl_mem Mem = A.K == Arg::BufferArg ? Mems[A.Index].get() : nullptr;
      E = A.K == Arg::BufferArg
              ? clSetKernelArg(Kernel.get(), I, sizeof(cl_mem), &Mem)
          : A.K == Arg::ValueArg
              ? clSetKernelArg(Kernel.get(), I, A.Size, A.Value.data())
              : clSetKernelArg(Kernel.get(), I, A.Size, nullptr);
      if (E != CL_SUCCESS)
        return clFailed(("clSetKernelArg " + std::to_string(I)).c_str(), E);
    }

    auto Finish = [&] {
      cl_int Done = clFinish(Queue.get());
      return Done == CL_SUCCESS ? std::string() : clFailed("clFinish", Done);
    };
    auto Reset = [&] {
      const uint8_t Zero = 0;
      for (size_t I = 0; I < P.Buffers.size(); ++I)
        if (P.Buffers[I].ZeroEachRun)
          if (cl_int Fill =
                  clEnqueueFillBuffer(Queue.get(), Mems[I].get(), &Zero, 1, 0,
                                      P.Buffers[I].Bytes, 0, nullptr, nullptr))
            return clFailed("clEnqueueFillBuffer", Fill);
      return Finish();
    };
    auto Run = [&] {
      if (cl_int Launch = clEnqueueNDRangeKernel(
              Queue.get(), Kernel.get(), P.Dims, nullptr, P.Global.data(),
              P.Local.data(), 0, nullptr, nullptr))
        return clFailed("clEnqueueNDRangeKernel", Launch);
      return Finish();
    };
    if (std::string Err = timeRuns(Runs, Reset, Run, Ms); !Err.empty())
      return Err;

    // With CL_MEM_USE_HOST_PTR the host array is only certain to hold the
    // results after a map.
    for (size_t I = 0; I < P.Buffers.size(); ++I) {
      if (!P.Buffers[I].IsOutput)
        continue;
      void *Mapped =
          clEnqueueMapBuffer(Queue.get(), Mems[I].get(), CL_TRUE, CL_MAP_READ,
                             0, P.Buffers[I].Bytes, 0, nullptr, nullptr, &E);
      if (E != CL_SUCCESS)
        return clFailed("clEnqueueMapBuffer", E);
      if (Mapped != Out[I].data())
        std::memcpy(Out[I].data(), Mapped, P.Buffers[I].Bytes);
      clEnqueueUnmapMemObject(Queue.get(), Mems[I].get(), Mapped, 0, nullptr,
                              nullptr);
    }
    return Finish();
  }

private:
  PoclDevice() = default;

  static std::string platformInfo(cl_platform_id P, cl_platform_info What) {
    char Text[256] = {0};
    clGetPlatformInfo(P, What, sizeof(Text) - 1, Text, nullptr);
    return Text;
  }

  cl_device_id Device = nullptr;
  ClHandle<cl_context, clReleaseContext> Context;
  ClHandle<cl_command_queue, clReleaseCommandQueue> Queue;
  std::string Name;
  cl_uint Units = 0;
};

#else

/// Built without OpenCL: never available.
class PoclDevice {
public:
  static std::unique_ptr<PoclDevice> open(std::string &Why) {
    Why = "cpu-vs-pocl was built without OpenCL (CMake found no OpenCL)";
    return nullptr;
  }
  const std::string &name() const { return Name; }
  unsigned computeUnits() const { return 0; }
  std::string run(const std::string &, const char *, const Problem &, unsigned,
                  Outputs &, std::vector<double> &) {
    return "no OpenCL";
  }

private:
  std::string Name;
};

#endif

//===----------------------------------------------------------------------===//
// The driver program
//===----------------------------------------------------------------------===//

struct Options {
  double Scale = 1;
  std::set<std::string> Only;
  unsigned Runs = 3;
  std::string Json;
  std::string KernelsDir = SKMD_BENCH_KERNELS_DIR;
  std::string BundlesDir = SKMD_BENCH_BUNDLES_DIR;
};

void printUsage() {
  std::printf(
      "usage: cpu-vs-pocl [options]\n"
      "\n"
      "Runs the bench kernels under PoCL and under SKMD's CPU device, same\n"
      "source and sizes, and prints a markdown table of kernel times\n"
      "(best of the timed runs after one warm-up).\n"
      "\n"
      "  --scale=F          divide every problem's element count by F (the\n"
      "                     sides of matrices and images by sqrt(F)), e.g.\n"
      "                     16 for a quick run\n"
      "  --only=a,b,...     run these kernels only, of:\n"
      "                    ");
  for (const KernelCase &K : Kernels)
    std::printf(" %s", K.Name);
  std::printf(
      "\n"
      "  --runs=N           timed runs per kernel and driver (default 3)\n"
      "  --json=FILE        also write the results as JSON\n"
      "  --kernels-dir=DIR  the .cl sources (default %s)\n"
      "  --bundles-dir=DIR  the .skmd bundles (default %s)\n"
      "  --help             this text\n"
      "\n"
      "SKMD runs on SKMD_CPU_THREADS threads (default: all hardware\n"
      "threads); PoCL on its own device's compute units.\n",
      SKMD_BENCH_KERNELS_DIR, SKMD_BENCH_BUNDLES_DIR);
}

/// Parses argv into \p O; returns an error, or "" (and sets \p Help for
/// --help).
std::string parseOptions(int Argc, char **Argv, Options &O, bool &Help) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Name, std::string &Out) {
      std::string Prefix = std::string(Name) + "=";
      if (A.compare(0, Prefix.size(), Prefix) != 0)
        return false;
      Out = A.substr(Prefix.size());
      return true;
    };
    std::string V;
    if (A == "--help" || A == "-h") {
      Help = true;
    } else if (Value("--scale", V)) {
      char *End = nullptr;
      O.Scale = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || !(O.Scale >= 1) || !std::isfinite(O.Scale))
        return "--scale needs a number of at least 1, got '" + V + "'";
    } else if (Value("--runs", V)) {
      char *End = nullptr;
      long N = std::strtol(V.c_str(), &End, 10);
      if (V.empty() || *End || N < 1 || N > 1000)
        return "--runs needs a count from 1 to 1000, got '" + V + "'";
      O.Runs = unsigned(N);
    } else if (Value("--only", V)) {
      std::stringstream SS(V);
      for (std::string Name; std::getline(SS, Name, ',');) {
        bool Known =
            std::any_of(std::begin(Kernels), std::end(Kernels),
                        [&](const KernelCase &K) { return Name == K.Name; });
        if (!Known)
          return "--only: no kernel named '" + Name + "' (see --help)";
        O.Only.insert(Name);
      }
    } else if (Value("--json", O.Json) ||
               Value("--kernels-dir", O.KernelsDir) ||
               Value("--bundles-dir", O.BundlesDir)) {
      if (O.Json.empty() && A.rfind("--json", 0) == 0)
        return "--json needs a file name";
    } else {
      return "unknown option '" + A + "' (see --help)";
    }
  }
  return "";
}

std::string readFile(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return "cannot read " + Path;
  std::stringstream SS;
  SS << In.rdbuf();
  Out = SS.str();
  return "";
}

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind("model name", 0) == 0) {
      size_t Colon = Line.find(':');
      if (Colon != std::string::npos)
        return Line.substr(Line.find_first_not_of(' ', Colon + 1));
    }
  return "unknown CPU";
}

/// One row of the table.
struct Row {
  std::string Name, Size;
  /// The harness's own failure (e.g. no memory for the inputs), and the
  /// drivers'.
  std::string Error, PoclError, SkmdError;
  std::vector<double> PoclMs, SkmdMs;
  Check VsPocl, SkmdVsRef, PoclVsRef;
  bool RanPocl = false;

  bool ok() const {
    return Error.empty() && SkmdError.empty() && PoclError.empty() &&
           VsPocl.Ok && SkmdVsRef.Ok && PoclVsRef.Ok;
  }

  std::string check() const {
    if (!Error.empty())
      return "FAIL: " + Error;
    if (!SkmdError.empty())
      return "FAIL: SKMD: " + SkmdError;
    std::string S = ok() ? "ok: " : "FAIL: ";
    if (!PoclError.empty())
      S += "PoCL: " + PoclError + "; ";
    if (RanPocl)
      S += "SKMD vs PoCL " + VsPocl.str() + "; ";
    S += "SKMD vs C++ " + SkmdVsRef.str();
    if (RanPocl && !PoclVsRef.Ok)
      S += "; PoCL vs C++ " + PoclVsRef.str();
    return S;
  }
};

/// The table cell for a time, "-" without one.
std::string msCell(const std::vector<double> &Ms) {
  if (Ms.empty())
    return "-";
  char Text[32];
  double Best = best(Ms);
  std::snprintf(Text, sizeof(Text), Best < 1 ? "%.3f" : "%.1f", Best);
  return Text;
}

/// Markdown cells must stay on one line and keep their pipes.
std::string cell(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '|')
      C = C == '\n' ? ' ' : '/';
  return S;
}

/// Runs one kernel under both drivers into \p R.
void runKernel(const KernelCase &KC, const Options &O, SkmdDevice &Skmd,
               PoclDevice *Pocl, Row &R) {
  // A seed per kernel, so --only gets the same inputs as a full run.
  std::mt19937 Rng(1234 + unsigned(&KC - Kernels));
  Problem P = KC.Make(O.Scale, Rng);
  R.Size = P.Size;

  Outputs PoclOut(P.Buffers.size()), SkmdOut(P.Buffers.size());
  if (Pocl) {
    std::string Source;
    R.PoclError = readFile(O.KernelsDir + "/" + KC.Name + ".cl", Source);
    if (R.PoclError.empty())
      R.PoclError =
          Pocl->run(Source, KC.Function, P, O.Runs, PoclOut, R.PoclMs);
    R.RanPocl = R.PoclError.empty();
    if (!R.RanPocl)
      R.PoclMs.clear();
  }
  R.SkmdError = Skmd.run(O.BundlesDir + "/" + KC.Name + ".skmd", KC.Function, P,
                         O.Runs, SkmdOut, R.SkmdMs);
  if (R.SkmdError.empty()) {
    R.SkmdVsRef = P.Reference(P, SkmdOut);
    if (R.RanPocl)
      R.VsPocl = compareDrivers(P, SkmdOut, PoclOut);
  } else {
    R.SkmdMs.clear();
  }
  if (R.RanPocl)
    R.PoclVsRef = P.Reference(P, PoclOut);
}

nlohmann::json rowJson(const Row &R) {
  nlohmann::json J = {{"kernel", R.Name},    {"size", R.Size},
                      {"pocl_ms", R.PoclMs}, {"skmd_ms", R.SkmdMs},
                      {"check", R.check()},  {"ok", R.ok()}};
  if (!R.PoclMs.empty())
    J["pocl"] = {{"best_ms", best(R.PoclMs)}, {"median_ms", median(R.PoclMs)}};
  if (!R.SkmdMs.empty())
    J["skmd"] = {{"best_ms", best(R.SkmdMs)}, {"median_ms", median(R.SkmdMs)}};
  if (!R.PoclMs.empty() && !R.SkmdMs.empty())
    J["speedup_of_best"] = best(R.PoclMs) / best(R.SkmdMs);
  return J;
}

int run(int Argc, char **Argv) {
  Options O;
  bool Help = false;
  if (std::string E = parseOptions(Argc, Argv, O, Help); !E.empty()) {
    std::fprintf(stderr, "cpu-vs-pocl: %s\n", E.c_str());
    return 2;
  }
  if (Help) {
    printUsage();
    return 0;
  }

  SkmdDevice Skmd;
  std::string NoPocl;
  std::unique_ptr<PoclDevice> Pocl = PoclDevice::open(NoPocl);
  std::string Machine = cpuModel() + ", " +
                        std::to_string(std::thread::hardware_concurrency()) +
                        " hardware threads";
  std::string PoclText = Pocl ? Pocl->name() + ", " +
                                    std::to_string(Pocl->computeUnits()) +
                                    " compute units"
                              : "not run: " + NoPocl;
  std::string Timing = "best of " + std::to_string(O.Runs) +
                       " timed runs after 1 warm-up, kernel only";
  std::fprintf(stderr, "machine: %s\nPoCL: %s\nSKMD: %u threads\n",
               Machine.c_str(), PoclText.c_str(), Skmd.threads());
  if (!Pocl)
    std::fprintf(stderr,
                 "cpu-vs-pocl: PoCL is not available (%s); running "
                 "SKMD alone\n",
                 NoPocl.c_str());

  std::vector<Row> Rows;
  for (const KernelCase &KC : Kernels) {
    if (!O.Only.empty() && !O.Only.count(KC.Name))
      continue;
    Row &R = Rows.emplace_back();
    R.Name = KC.Name;
    std::fprintf(stderr, "%s: ", KC.Name);
    std::fflush(stderr);
    try {
      runKernel(KC, O, Skmd, Pocl.get(), R);
    } catch (const std::bad_alloc &) {
      R.Error = "out of memory (try --scale)";
    } catch (const std::exception &E) {
      R.Error = E.what();
    }
    std::fprintf(stderr, "%s, PoCL %s ms, SKMD %s ms, %s\n", R.Size.c_str(),
                 msCell(R.PoclMs).c_str(), msCell(R.SkmdMs).c_str(),
                 R.check().c_str());
  }

  std::string Threads = Pocl ? std::to_string(Pocl->computeUnits()) : "-";
  Threads += " / " + std::to_string(Skmd.threads());
  std::printf("Machine: %s. PoCL: %s. SKMD: %u threads. Times: %s. "
              "Scale: 1/%g.\n\n",
              Machine.c_str(), PoclText.c_str(), Skmd.threads(), Timing.c_str(),
              O.Scale);
  std::printf("| kernel | size | threads (PoCL / SKMD) | PoCL ms | SKMD ms | "
              "SKMD/PoCL speedup | check |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
  bool AllOk = true;
  for (const Row &R : Rows) {
    std::string Speedup = "-";
    if (!R.PoclMs.empty() && !R.SkmdMs.empty()) {
      char Text[32];
      std::snprintf(Text, sizeof(Text), "%.2fx",
                    best(R.PoclMs) / best(R.SkmdMs));
      Speedup = Text;
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", R.Name.c_str(),
                R.Size.c_str(), Threads.c_str(), msCell(R.PoclMs).c_str(),
                msCell(R.SkmdMs).c_str(), Speedup.c_str(),
                cell(R.check()).c_str());
    AllOk = AllOk && R.ok();
  }

  if (!O.Json.empty()) {
    nlohmann::json J = {{"machine", Machine},
                        {"pocl", PoclText},
                        {"pocl_compute_units", Pocl ? Pocl->computeUnits() : 0},
                        {"skmd_threads", Skmd.threads()},
                        {"timing", Timing},
                        {"scale", O.Scale},
                        {"kernels", nlohmann::json::array()}};
    for (const Row &R : Rows)
      J["kernels"].push_back(rowJson(R));
    std::ofstream Out(O.Json);
    Out << J.dump(2) << "\n";
    if (!Out) {
      std::fprintf(stderr, "cpu-vs-pocl: cannot write %s\n", O.Json.c_str());
      return 1;
    }
  }
  if (!Pocl)
    std::printf("\nPoCL was not run: %s\n", NoPocl.c_str());
  // Without PoCL there is nothing to compare with, but SKMD's own run and
  // checks still decide the exit status.
  return AllOk ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "cpu-vs-pocl: %s\n", E.what());
    return 1;
  }
}
