//===- LaunchOverhead.cpp - Host time per launch through plain OpenCL -----===//
//
// launch-overhead [--launches=N] [--devices=all|LABEL,...]
//                 [--patterns=independent,chain,sync,shapes] [--json=FILE]
//
// What a launch costs the host on every OpenCL device the ICD loader lists
// (PoCL's CPU, NVIDIA's GPUs, the SKMD platform's device): a kernel that
// does almost nothing (each work-item of a 64-item range adds one to its
// element of a small buffer), launched --launches times in four patterns:
//   independent  enqueued back to back on one in-order queue, one clFinish;
//   chain        each launch waits for the previous one's event;
//   sync         each launch followed by clFinish (a round trip);
//   shapes       a new global size each launch (64 to 64 * 2048 items, as a
//                triangular solver shrinks its range), one clFinish.
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
)CL";

constexpr size_t Width = 64;         ///< Work-items of a fixed-size launch.
constexpr size_t MaxShapeSteps = 2048; ///< Global sizes 64 .. 64 * this.

enum class Pattern { Independent, Chain, Sync, Shapes };
/// Every pattern with its name, in the order a device's rounds run them.
constexpr std::pair<Pattern, const char *> Patterns[] = {{Pattern::Independent, "independent"},
                                                         {Pattern::Chain, "chain"},
                                                         {Pattern::Sync, "sync"},
                                                         {Pattern::Shapes, "shapes"}};

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

/// The kernel and the buffer it touches on one device.
struct Objects : ClKernel {
  cl_mem Data = nullptr;
  ~Objects() {
    if (Data)
      clReleaseMemObject(Data);
  }
};

std::string failed(const char *Call, cl_int Err) {
  return std::string(Call) + " failed: " + std::to_string(Err);
}

std::string setUp(const ClDeviceInfo &D, Objects &Ob) {
  if (std::string Err = Ob.build(D, Source, "", "touch"); !Err.empty())
    return Err;
  cl_int E;
  std::vector<cl_int> Zero(Width * MaxShapeSteps, 0);
  Ob.Data = clCreateBuffer(Ob.Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           Zero.size() * sizeof(cl_int), Zero.data(), &E);
  if (E != CL_SUCCESS)
    return failed("clCreateBuffer", E);
  if ((E = clSetKernelArg(Ob.K, 0, sizeof(cl_mem), &Ob.Data)) != CL_SUCCESS)
    return failed("clSetKernelArg", E);
  return "";
}

size_t globalSize(Pattern P, unsigned I) {
  return P == Pattern::Shapes ? Width * (MaxShapeSteps - I % MaxShapeSteps) : Width;
}

struct Timing {
  double EnqueueUs = 0, TotalUs = 0; ///< Per launch.
};

/// One round of \p N launches in pattern \p P; adds each launch's range to
/// \p Expected.
std::string round(Objects &Ob, Pattern P, unsigned N, std::vector<cl_int> &Expected,
                  Timing &T) {
  double InEnqueue = 0, Start = nowUs();
  cl_event Prev = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    size_t Global = globalSize(P, I);
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
    for (size_t G = 0; G < Global; ++G)
      ++Expected[G];
    if (P == Pattern::Sync && (E = clFinish(Ob.Q)) != CL_SUCCESS)
      return failed("clFinish", E);
  }
  cl_int E = clFinish(Ob.Q);
  if (Prev)
    clReleaseEvent(Prev);
  if (E != CL_SUCCESS)
    return failed("clFinish", E);
  T.EnqueueUs = InEnqueue / N;
  T.TotalUs = (nowUs() - Start) / N;
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
                  "                       [--patterns=independent,chain,sync,shapes] "
                  "[--json=FILE]\n"
                  "Host time per OpenCL launch of a tiny kernel on every device the ICD\n"
                  "loader lists, in four patterns (independent, chain, sync, shapes).\n");
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
  std::printf("%u launches per round, median of 3 rounds (us per launch)\n\n", O.Launches);
  std::printf("| device | pattern | in clEnqueueNDRangeKernel | until clFinish returned |\n");
  std::printf("| --- | --- | --- | --- |\n");
  for (const ClDeviceInfo &D : Devices) {
    if (!wanted(O, D))
      continue;
    Any = true;
    Objects Ob;
    std::string Err = setUp(D, Ob);
    std::vector<cl_int> Expected(Width * MaxShapeSteps, 0);
    // A warm-up launch: a driver's first launch builds and loads code.
    if (Err.empty()) {
      Timing Warm;
      Err = round(Ob, Pattern::Independent, 1, Expected, Warm);
    }
    for (auto [P, Name] : Patterns) {
      if (!Err.empty())
        break;
      if (!O.runs(Name))
        continue;
      std::vector<double> Enq, Total;
      for (int R = 0; R < 3 && Err.empty(); ++R) {
        Timing T;
        Err = round(Ob, P, O.Launches, Expected, T);
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
                     {"launches", O.Launches},
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
