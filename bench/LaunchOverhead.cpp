//===- LaunchOverhead.cpp - Host time per launch through plain OpenCL -----===//
//
// launch-overhead [--launches=N] [--devices=all|LABEL,...]
//                 [--patterns=independent,chain,sync,shapes,solver] [--json=FILE]
//
// What a launch costs the host on every OpenCL device the ICD loader lists
// (PoCL's CPU, NVIDIA's GPUs, the SKMD platform's device): a kernel that
// does almost nothing (each work-item of a 64-item range adds one to its
// element of a small buffer), launched --launches times in four patterns:
//   independent  enqueued back to back on one in-order queue, one clFinish;
//   chain        each launch waits for the previous one's event;
//   sync         each launch followed by clFinish (a round trip);
//   shapes       a new global size each launch (64 to 64 * 8192 items, as a
//                triangular solver shrinks its range; no round repeats
//                another's sizes up to 8,192 launches in all), one clFinish;
// and a fifth on real work:
//   solver       a triangular solver's launches: forward substitution of
//                n = (launches + 1) / 2 unknowns, per column a one-item
//                launch and an update of the rows below with a new global
//                offset, size and scalar argument (2n - 1 launches), one
//                clFinish; the solution is checked against the host's.
// --devices takes labels or their beginnings ("skmd", "nvidia,pocl").
// Per pattern: microseconds per launch spent in clEnqueueNDRangeKernel, and
// per launch until the final clFinish returned (the median of 3 rounds).
// The buffer is read back at the end and checked: each element must have
// been incremented once per launch that covered it. Exits 1 when a device
// fails or a check is off.
//
//===----------------------------------------------------------------------===//
#include "suite/ClKernel.h"
#include "suite/OpenCL.h"
#include "suite/Text.h"
#include "suite/Timing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

using namespace skmd::bench;

namespace {

const char *Source = R"CL(
__kernel void touch(__global int *Data) {
  Data[get_global_id(0)] += 1;
}
__kernel void pivot(__global const float *L, __global float *X, int N, int J) {
  X[J] = X[J] / L[J * N + J];
}
__kernel void update(__global const float *L, __global float *X, int N, int J) {
  int I = get_global_id(0);
  if (I < N)
    X[I] -= L[I * N + J] * X[J];
}
)CL";

constexpr size_t Width = 64;         ///< Work-items of a fixed-size launch.
constexpr size_t MaxShapeSteps = 8192; ///< Global sizes 64 .. 64 * this.

enum class Pattern { Independent, Chain, Sync, Shapes, Solver };
/// Every pattern with its name, in the order a device's rounds run them.
constexpr std::pair<Pattern, const char *> Patterns[] = {{Pattern::Independent, "independent"},
                                                         {Pattern::Chain, "chain"},
                                                         {Pattern::Sync, "sync"},
                                                         {Pattern::Shapes, "shapes"},
                                                         {Pattern::Solver, "solver"}};

struct Options {
  unsigned Launches = 10000;
  std::string Devices = "all";
  /// The patterns asked for (--patterns), by name; empty: all of them.
  std::vector<std::string> Patterns;
  std::string Json;

  bool runs(const char *Pattern) const {
    return Patterns.empty() ||
           std::find(Patterns.begin(), Patterns.end(), Pattern) != Patterns.end();
  }
};

double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The kernels and their buffers on one device: touch's, and the
/// solver's matrix and right-hand side.
struct Objects : ClKernel {
  cl_mem Data = nullptr, Matrix = nullptr, Rhs = nullptr;
  cl_kernel Pivot = nullptr, Update = nullptr;
  ~Objects() {
    for (cl_kernel K : {Pivot, Update})
      if (K)
        clReleaseKernel(K);
    for (cl_mem M : {Data, Matrix, Rhs})
      if (M)
        clReleaseMemObject(M);
  }
};

/// A lower-triangular system of \p N unknowns, well conditioned (a heavy
/// diagonal), and its right-hand side.
struct System {
  unsigned N = 0;
  std::vector<float> L, B;
  explicit System(unsigned N) : N(N), L(size_t(N) * N, 0.0f), B(N) {
    uint32_t Seed = 12345;
    auto Next = [&] {
      Seed = Seed * 1664525u + 1013904223u;
      return float(Seed >> 8) / float(1u << 24);
    };
    for (unsigned I = 0; I < N; ++I) {
      for (unsigned J = 0; J < I; ++J)
        L[size_t(I) * N + J] = Next() / float(N);
      L[size_t(I) * N + I] = 1.0f + Next();
      B[I] = Next();
    }
  }
  /// The solution, in double precision.
  std::vector<double> solve() const {
    std::vector<double> X(N);
    for (unsigned I = 0; I < N; ++I) {
      double S = B[I];
      for (unsigned J = 0; J < I; ++J)
        S -= double(L[size_t(I) * N + J]) * X[J];
      X[I] = S / L[size_t(I) * N + I];
    }
    return X;
  }
};

std::string failed(const char *Call, cl_int Err) {
  return std::string(Call) + " failed: " + std::to_string(Err);
}

std::string setUp(const ClDeviceInfo &D, const System &Sys, Objects &Ob) {
  if (std::string Err = Ob.build(D, Source, "", "touch"); !Err.empty())
    return Err;
  cl_int E;
  Ob.Pivot = clCreateKernel(Ob.Prog, "pivot", &E);
  if (E == CL_SUCCESS)
    Ob.Update = clCreateKernel(Ob.Prog, "update", &E);
  if (E != CL_SUCCESS)
    return failed("clCreateKernel", E);
  Ob.Matrix = clCreateBuffer(Ob.Ctx, CL_MEM_READ_ONLY, Sys.L.size() * sizeof(float), nullptr, &E);
  if (E == CL_SUCCESS)
    Ob.Rhs = clCreateBuffer(Ob.Ctx, CL_MEM_READ_WRITE, Sys.B.size() * sizeof(float), nullptr, &E);
  if (E != CL_SUCCESS)
    return failed("clCreateBuffer", E);
  cl_int N = cl_int(Sys.N);
  for (cl_kernel K : {Ob.Pivot, Ob.Update})
    if ((E = clSetKernelArg(K, 0, sizeof(cl_mem), &Ob.Matrix)) != CL_SUCCESS ||
        (E = clSetKernelArg(K, 1, sizeof(cl_mem), &Ob.Rhs)) != CL_SUCCESS ||
        (E = clSetKernelArg(K, 2, sizeof(cl_int), &N)) != CL_SUCCESS)
      return failed("clSetKernelArg", E);
  std::vector<cl_int> Zero(Width * MaxShapeSteps, 0);
  Ob.Data = clCreateBuffer(Ob.Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           Zero.size() * sizeof(cl_int), Zero.data(), &E);
  if (E != CL_SUCCESS)
    return failed("clCreateBuffer", E);
  if ((E = clSetKernelArg(Ob.K, 0, sizeof(cl_mem), &Ob.Data)) != CL_SUCCESS)
    return failed("clSetKernelArg", E);
  return "";
}

/// Launch \p I of a round, counted over the rounds: the shapes pattern's
/// rounds take shapes the rounds before did not (until 8,192 launches).
size_t globalSize(Pattern P, unsigned I) {
  return P == Pattern::Shapes ? Width * (MaxShapeSteps - I % MaxShapeSteps) : Width;
}

struct Timing {
  double EnqueueUs = 0, TotalUs = 0; ///< Per launch.
};

/// One round of \p N launches in pattern \p P, after \p Earlier launches
/// of it; adds each launch's range to \p Expected (after the timing: the
/// benchmark's own bookkeeping is not the launches').
std::string round(Objects &Ob, Pattern P, unsigned N, unsigned Earlier,
                  std::vector<cl_int> &Expected, Timing &T) {
  double InEnqueue = 0, Start = nowUs();
  cl_event Prev = nullptr;
  std::vector<size_t> Globals;
  Globals.reserve(N);
  for (unsigned I = 0; I < N; ++I) {
    size_t Global = globalSize(P, Earlier + I);
    cl_event Ev = nullptr;
    bool Chain = P == Pattern::Chain;
    double Before = nowUs();
    cl_int E = clEnqueueNDRangeKernel(Ob.Q, Ob.K, 1, nullptr, &Global, nullptr,
                                      Chain && Prev ? 1 : 0, Chain && Prev ? &Prev : nullptr,
                                      Chain ? &Ev : nullptr);
    InEnqueue += nowUs() - Before;
    if (Prev)
      clReleaseEvent(Prev);
    Prev = Ev;
    if (E != CL_SUCCESS)
      return failed("clEnqueueNDRangeKernel", E);
    Globals.push_back(Global);
    if (P == Pattern::Sync && (E = clFinish(Ob.Q)) != CL_SUCCESS)
      return failed("clFinish", E);
  }
  cl_int E = clFinish(Ob.Q);
  T.TotalUs = (nowUs() - Start) / N;
  T.EnqueueUs = InEnqueue / N;
  if (Prev)
    clReleaseEvent(Prev);
  if (E != CL_SUCCESS)
    return failed("clFinish", E);
  for (size_t Global : Globals)
    for (size_t G = 0; G < Global; ++G)
      ++Expected[G];
  return "";
}

/// One round of the solver on \p Sys: the system written, then its 2n - 1
/// launches timed until clFinish returns; the solution read and checked.
std::string solve(Objects &Ob, const System &Sys, Timing &T) {
  cl_int E = clEnqueueWriteBuffer(Ob.Q, Ob.Matrix, CL_TRUE, 0, Sys.L.size() * sizeof(float),
                                  Sys.L.data(), 0, nullptr, nullptr);
  if (E == CL_SUCCESS)
    E = clEnqueueWriteBuffer(Ob.Q, Ob.Rhs, CL_TRUE, 0, Sys.B.size() * sizeof(float),
                             Sys.B.data(), 0, nullptr, nullptr);
  if (E == CL_SUCCESS)
    E = clFinish(Ob.Q);
  if (E != CL_SUCCESS)
    return failed("clEnqueueWriteBuffer", E);
  const unsigned N = Sys.N;
  double InEnqueue = 0, Start = nowUs();
  unsigned Launches = 0;
  for (unsigned J = 0; J < N; ++J) {
    cl_int Column = cl_int(J);
    size_t One = 1, Offset = J + 1, Local = 32;
    size_t Global = (N - J - 1 + Local - 1) / Local * Local;
    double Before = nowUs();
    E = clSetKernelArg(Ob.Pivot, 3, sizeof(cl_int), &Column);
    if (E == CL_SUCCESS)
      E = clEnqueueNDRangeKernel(Ob.Q, Ob.Pivot, 1, nullptr, &One, &One, 0, nullptr, nullptr);
    if (E == CL_SUCCESS && J + 1 < N) {
      E = clSetKernelArg(Ob.Update, 3, sizeof(cl_int), &Column);
      if (E == CL_SUCCESS)
        E = clEnqueueNDRangeKernel(Ob.Q, Ob.Update, 1, &Offset, &Global, &Local, 0, nullptr,
                                   nullptr);
      ++Launches;
    }
    InEnqueue += nowUs() - Before;
    ++Launches;
    if (E != CL_SUCCESS)
      return failed("clEnqueueNDRangeKernel", E);
  }
  if ((E = clFinish(Ob.Q)) != CL_SUCCESS)
    return failed("clFinish", E);
  T.EnqueueUs = InEnqueue / Launches;
  T.TotalUs = (nowUs() - Start) / Launches;
  std::vector<float> Got(N);
  E = clEnqueueReadBuffer(Ob.Q, Ob.Rhs, CL_TRUE, 0, N * sizeof(float), Got.data(), 0, nullptr,
                          nullptr);
  if (E != CL_SUCCESS)
    return failed("clEnqueueReadBuffer", E);
  std::vector<double> Want = Sys.solve();
  for (unsigned I = 0; I < N; ++I)
    if (!(std::fabs(Got[I] - Want[I]) <= 1e-3 * (1.0 + std::fabs(Want[I]))))
      return "solver: x[" + std::to_string(I) + "] is " + std::to_string(Got[I]) +
             ", expected " + std::to_string(Want[I]);
  return "";
}

std::string check(Objects &Ob, const std::vector<cl_int> &Expected) {
  std::vector<cl_int> Got(Expected.size());
  cl_int E = clEnqueueReadBuffer(Ob.Q, Ob.Data, CL_TRUE, 0, Got.size() * sizeof(cl_int),
                                 Got.data(), 0, nullptr, nullptr);
  if (E != CL_SUCCESS)
    return failed("clEnqueueReadBuffer", E);
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Expected[I])
      return "element " + std::to_string(I) + " is " + std::to_string(Got[I]) + ", expected " +
             std::to_string(Expected[I]);
  return "";
}

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Flag) -> const char * {
      size_t L = std::string(Flag).size();
      return A.compare(0, L, Flag) == 0 ? Argv[I] + L : nullptr;
    };
    if (A == "--help" || A == "-h") {
      std::printf("usage: launch-overhead [--launches=N] [--devices=all|LABEL,...]\n"
                  "                       [--patterns=independent,chain,sync,shapes,solver] "
                  "[--json=FILE]\n"
                  "Host time per OpenCL launch of a tiny kernel on every device the ICD\n"
                  "loader lists, in four patterns (independent, chain, sync, shapes), and\n"
                  "of a triangular solver's launches (solver).\n");
      std::exit(0);
    } else if (const char *V = Value("--launches=")) {
      O.Launches = unsigned(std::strtoul(V, nullptr, 10));
    } else if (const char *V = Value("--devices=")) {
      O.Devices = V;
    } else if (const char *V = Value("--patterns=")) {
      O.Patterns = splitList(V);
    } else if (const char *V = Value("--json=")) {
      O.Json = V;
    } else {
      std::fprintf(stderr, "launch-overhead: unknown argument '%s' (see --help)\n", Argv[I]);
      std::exit(2);
    }
  }
  for (const std::string &P : O.Patterns)
    if (std::none_of(std::begin(Patterns), std::end(Patterns),
                     [&](const auto &Known) { return P == Known.second; })) {
      std::string Names;
      for (const auto &Known : Patterns)
        Names += (Names.empty() ? "" : ", ") + std::string(Known.second);
      std::fprintf(stderr, "launch-overhead: unknown pattern '%s' (%s)\n", P.c_str(),
                   Names.c_str());
      std::exit(2);
    }
  if (O.Launches == 0) {
    std::fprintf(stderr, "launch-overhead: --launches must be at least 1\n");
    std::exit(2);
  }
  return O;
}

bool wanted(const Options &O, const ClDeviceInfo &D) {
  if (O.Devices == "all")
    return true;
  for (const std::string &L : splitList(O.Devices))
    if (D.Label.compare(0, L.size(), L) == 0)
      return true;
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  std::string Why;
  std::vector<ClDeviceInfo> Devices = listOpenClDevices(Why);
  if (Devices.empty()) {
    std::fprintf(stderr, "launch-overhead: no OpenCL device: %s\n", Why.c_str());
    return 1;
  }
  nlohmann::json Out = nlohmann::json::array();
  bool Failed = false, Any = false;
  const System Sys((O.Launches + 1) / 2);
  std::printf("%u launches per round, median of 3 rounds (us per launch)\n\n", O.Launches);
  std::printf("| device | pattern | in clEnqueueNDRangeKernel | until clFinish returned |\n");
  std::printf("| --- | --- | --- | --- |\n");
  for (const ClDeviceInfo &D : Devices) {
    if (!wanted(O, D))
      continue;
    Any = true;
    Objects Ob;
    std::string Err = setUp(D, Sys, Ob);
    std::vector<cl_int> Expected(Width * MaxShapeSteps, 0);
    // A warm-up launch: a driver's first launch builds and loads code.
    if (Err.empty()) {
      Timing Warm;
      Err = round(Ob, Pattern::Independent, 1, 0, Expected, Warm);
    }
    for (auto [P, Name] : Patterns) {
      if (!Err.empty())
        break;
      if (!O.runs(Name))
        continue;
      std::vector<double> Enq, Total;
      for (int R = 0; R < 3 && Err.empty(); ++R) {
        Timing T;
        Err = P == Pattern::Solver ? solve(Ob, Sys, T)
                                    : round(Ob, P, O.Launches, R * O.Launches, Expected, T);
        Enq.push_back(T.EnqueueUs);
        Total.push_back(T.TotalUs);
      }
      if (!Err.empty())
        break;
      std::printf("| %s | %s | %.1f | %.1f |\n", D.Label.c_str(), Name, median(Enq),
                  median(Total));
      std::fflush(stdout);
      Out.push_back({{"device", D.Label},
                     {"name", D.Name},
                     {"pattern", Name},
                     {"launches", P == Pattern::Solver ? 2 * Sys.N - 1 : O.Launches},
                     {"enqueue_us", median(Enq)},
                     {"total_us", median(Total)}});
    }
    if (Err.empty())
      Err = check(Ob, Expected);
    if (!Err.empty()) {
      std::printf("| %s | failed: %s | | |\n", D.Label.c_str(), markdownCell(Err).c_str());
      Out.push_back({{"device", D.Label}, {"error", Err}});
      Failed = true;
    }
  }
  if (!O.Json.empty())
    std::ofstream(O.Json) << Out.dump(2) << '\n';
  if (!Any) {
    std::string Labels;
    for (const ClDeviceInfo &D : Devices)
      Labels += (Labels.empty() ? "" : ", ") + D.Label;
    std::fprintf(stderr, "launch-overhead: no device matches --devices=%s (devices: %s)\n",
                 O.Devices.c_str(), Labels.c_str());
    return 1;
  }
  return Failed ? 1 : 0;
}
