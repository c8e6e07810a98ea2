//===- Problem.h - A benchmark application's buffers, launches, checks ----===//
//
// One benchmark application at one size, as every driver runs it: its host
// buffers (inputs with their contents, outputs the drivers allocate), the
// kernel launches in order (kernel, arguments, NDRange), and a C++
// reference that judges a driver's outputs. The same Problem goes to PoCL,
// to NVIDIA's OpenCL and to SKMD, so that every driver computes from the
// same bytes and is checked by the same code.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BENCH_SUITE_PROBLEM_H
#define SKMD_BENCH_SUITE_PROBLEM_H

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace skmd::bench {

/// Zeroed, page-aligned host memory (PoCL's CL_MEM_USE_HOST_PTR then uses
/// it in place instead of copying it).
class HostArray {
public:
  HostArray() = default;
  explicit HostArray(size_t Bytes);

  size_t bytes() const { return Bytes; }
  uint8_t *data() { return Data.get(); }
  const uint8_t *data() const { return Data.get(); }
  template <typename T> T *as() { return reinterpret_cast<T *>(Data.get()); }
  template <typename T> const T *as() const {
    return reinterpret_cast<const T *>(Data.get());
  }

private:
  struct Free {
    void operator()(uint8_t *P) const { std::free(P); }
  };
  std::unique_ptr<uint8_t, Free> Data;
  size_t Bytes = 0;
};

/// How an output is compared between two drivers.
enum class Compare {
  Exact,    ///< Bit for bit.
  Relative, ///< Element by element (floats), within the tolerance.
  Sum,      ///< Only the sum of its floats (partial sums).
};

struct Buffer {
  size_t Bytes = 0;
  /// The initial contents; empty for an output that starts zeroed.
  HostArray Input;
  /// Written by a launch: each driver runs on its own copy, set to Input
  /// (or zeros) before every run, untimed.
  bool IsOutput = false;
  Compare How = Compare::Exact;
  /// Only passed between launches (a scan's block sums): left out of the
  /// comparisons between drivers, and an OpenCL driver does not read it
  /// back.
  bool Scratch = false;

  /// Writes its contents before a run to \p Dst (Bytes bytes): Input, or
  /// zeros.
  void initialContents(void *Dst) const;
};

/// A host array of Count T's, each from Next(I).
template <typename T, typename Gen> Buffer inputOf(size_t Count, Gen Next) {
  Buffer B;
  B.Bytes = Count * sizeof(T);
  B.Input = HostArray(B.Bytes);
  T *Data = B.Input.as<T>();
  for (size_t I = 0; I < Count; ++I)
    Data[I] = Next(I);
  return B;
}

Buffer uniformFloats(size_t Count, float Lo, float Hi, std::mt19937 &Rng);
/// An output of \p Bytes bytes, zeroed before every run.
Buffer output(size_t Bytes, Compare How);
/// A buffer the launches pass to each other only.
Buffer scratch(size_t Bytes);
/// An input the launches also write (in place): restored before every run.
Buffer inOut(Buffer Input, Compare How);

/// One kernel argument, as every driver passes it.
struct Arg {
  enum Kind { BufferArg, ValueArg, LocalArg } K = ValueArg;
  unsigned Index = 0;              ///< The buffer, for BufferArg.
  std::array<uint8_t, 16> Value{}; ///< The bytes of a ValueArg.
  size_t Size = 0;                 ///< Bytes of the value or of __local memory.
};

Arg bufferArg(unsigned Index);
Arg localArg(size_t Bytes);
template <typename T> Arg valueArg(T V) {
  static_assert(sizeof(T) <= sizeof(Arg::Value), "small value arguments only");
  Arg A;
  A.K = Arg::ValueArg;
  std::memcpy(A.Value.data(), &V, sizeof(T));
  A.Size = sizeof(T);
  return A;
}

/// One kernel launch.
struct Launch {
  std::string Kernel; ///< The __kernel's name in the application's source.
  std::vector<Arg> Args;
  unsigned Dims = 1;
  std::array<size_t, 3> Global{1, 1, 1}, Local{1, 1, 1};
};

/// A driver's buffers after a run, by buffer index.
using Outputs = std::vector<HostArray>;

/// The outcome of comparing outputs, mergeable over several outputs.
struct Check {
  bool Ok = true;
  bool Exact = true;   ///< Every comparison was bit for bit.
  double WorstRel = 0; ///< The largest relative error of the others.
  std::string Scope;   ///< What was compared, e.g. "4096 samples".
  std::string Problem; ///< What differs, when !Ok.

  static Check mismatch(std::string What);
  /// A relative error \p Err against the tolerance \p Tol.
  static Check relative(double Err, double Tol, const std::string &What);
  void merge(const Check &O);
  std::string str() const;
};

struct Problem;
using ReferenceFn = std::function<Check(const Problem &, const Outputs &)>;

/// An application at one size.
struct Problem {
  std::string Size; ///< For people, e.g. "4096x4096".
  std::vector<Buffer> Buffers;
  std::vector<Launch> Launches; ///< In order; each sees the ones before.
  /// Relative tolerance of Compare::Relative and Compare::Sum outputs.
  double Tolerance = 0;
  /// Checks one driver's outputs against C++.
  ReferenceFn Reference;

  template <typename T> const T *in(unsigned I) const {
    return Buffers[I].Input.as<T>();
  }
  /// Adds a launch of \p Kernel over \p Global in groups of \p Local.
  void launch(std::string Kernel, std::vector<Arg> Args, unsigned Dims,
              std::array<size_t, 3> Global, std::array<size_t, 3> Local);
};

/// One driver's outputs against another's, over every compared output.
Check compareOutputs(const Problem &P, const Outputs &Got, const Outputs &Want);

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
/// small), with the last one included; the jitter keeps them off the rows
/// of a 2-D array.
std::vector<size_t> sampleOf(size_t N, size_t Samples);
std::string samplesScope(size_t Taken, size_t Of);

/// Compares a float output of \p Count elements with a double-precision
/// reference, Want(I), at about \p Samples indices.
template <typename ReferenceAt>
Check sampledFloats(const float *Got, size_t Count, size_t Samples, double Tol,
                    const std::string &What, ReferenceAt Want) {
  std::vector<size_t> Index = sampleOf(Count, Samples);
  std::vector<double> Expected(Index.size());
  for (size_t I = 0; I < Index.size(); ++I)
    Expected[I] = Want(Index[I]);
  Check C = Check::relative(
      maxRelError(
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
      OS << What << "[" << I << "] is " << +Got[I] << ", expected " << +W;
      return Check::mismatch(OS.str());
    }
  }
  Check C;
  C.Scope = "all";
  return C;
}

double sumOfFloats(const float *Data, size_t N);

/// A problem size divided by \p Scale, rounded down to a multiple of
/// \p Multiple and at least \p Multiple.
size_t scaled(double Full, double Scale, size_t Multiple);
/// A side of a 2-D problem: the element count is divided by \p Scale.
size_t scaledSide(double Full, double Scale, size_t Multiple);
/// A side of a 3-D problem: the element count is divided by \p Scale.
size_t scaledCubeSide(double Full, double Scale, size_t Multiple);
size_t roundUp(size_t N, size_t Multiple);

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_PROBLEM_H
