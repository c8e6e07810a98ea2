//===- CpuVsPocl.cpp - SKMD's CPU device against PoCL ---------------------===//
//
// Runs each one-launch application of the benchmark suite (bench/apps)
// twice, from the same OpenCL C source,
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
#include "suite/Apps.h"
#include "suite/OpenCL.h"
#include "suite/Text.h"
#include "suite/Timing.h"

#include <nlohmann/json.hpp>


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
using namespace skmd::bench;

namespace {
//===----------------------------------------------------------------------===//
// SKMD's CPU device
//===----------------------------------------------------------------------===//

/// Whether the bundle's idea of the kernel's arguments matches the
/// harness's; "" when it does.
std::string matchArgs(const KernelInfo &K, const Launch &P) {
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
  std::string run(const std::string &BundlePath, const std::string &Function,
                  const Problem &P, unsigned Runs, double LimitSeconds, Outputs &Out,
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
    const Launch &L = P.Launches[0];
    if (std::string E = matchArgs(*K, L); !E.empty())
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
    std::vector<void *> Args(L.Args.size(), nullptr);
    std::vector<uint64_t> LocalBytes(L.Args.size(), 0);
    for (size_t I = 0; I < L.Args.size(); ++I) {
      const Arg &A = L.Args[I];
      if (A.K == Arg::BufferArg)
        Args[I] = &BufferPtrs[A.Index];
      else if (A.K == Arg::ValueArg)
        Args[I] = const_cast<uint8_t *>(A.Value.data());
      else
        LocalBytes[I] = A.Size;
    }
    NDRange Range;
    uint64_t Groups = 1;
    for (unsigned D = 0; D < 3; ++D) {
      Range.NumGroups[D] = L.Global[D] / L.Local[D];
      Range.LocalSize[D] = L.Local[D];
      Groups *= Range.NumGroups[D];
    }
    Range.WorkDim = L.Dims;
    WorkGroupNeeds Needs{K->Cpu.LocalMemBytes, K->Cpu.StateBytesPerItem};
    auto Fn = reinterpret_cast<skmd_wg_fn>(*Sym);

    auto Reset = [&] {
      for (size_t I = 0; I < P.Buffers.size(); ++I)
        if (P.Buffers[I].IsOutput)
          P.Buffers[I].initialContents(Out[I].data());
      return std::string();
    };
    auto Run = [&] {
      Status S = runWorkGroups(Pool, Fn, Args, LocalBytes, Range, Needs, 0, Groups);
      return S ? std::string() : "runWorkGroups: " + S.error().message();
    };
    return timeRuns(1, Runs, Reset, Run, Ms, LimitSeconds, /*LongWarmupCounts=*/true);
  }

private:
  ThreadPool Pool;
};

//===----------------------------------------------------------------------===//
// PoCL through OpenCL
//===----------------------------------------------------------------------===//

/// PoCL's CPU device; the kernel computes on the host arrays in place.
class PoclDevice {
public:
  /// PoCL's CPU device, or null with the reason in \p Why.
  static std::unique_ptr<PoclDevice> open(std::string &Why) {
    for (const ClDeviceInfo &D : listOpenClDevices(Why))
      if (D.Label == "pocl-cpu") {
        auto P = std::unique_ptr<PoclDevice>(new PoclDevice);
        P->Info = D;
        return P;
      }
    if (Why.empty())
      Why = "no PoCL CPU device among the OpenCL devices (is pocl-opencl-icd installed?)";
    return nullptr;
  }

  std::string name() const { return Info.Version + ", " + Info.Name; }
  unsigned computeUnits() const { return Info.ComputeUnits; }

  /// Builds \p Source and runs \p P on it; fills \p Out and \p Ms, or
  /// returns an error.
  std::string run(const std::string &Source, const Problem &P, unsigned Runs,
                  double LimitSeconds, Outputs &Out,
                  std::vector<double> &Ms) {
    std::string Why;
    auto R = ClProblemRun::prepare(Info, Source, P, ClProblemRun::Placement::InPlace, Out, Why);
    if (!R)
      return Why;
    if (std::string E = timeRuns(
            1, Runs, [&] { return R->reset(); }, [&] { return R->run(); }, Ms, LimitSeconds,
            /*LongWarmupCounts=*/true);
        !E.empty())
      return E;
    return R->collect();
  }

private:
  PoclDevice() = default;
  ClDeviceInfo Info;
};

//===----------------------------------------------------------------------===//
// The driver program
//===----------------------------------------------------------------------===//

/// The applications cpu-vs-pocl can run: those of one launch (SKMD's CPU
/// device runs one work-group function here). Found once: each is made
/// at its smallest size to count its launches.
const std::vector<App> &oneLaunchApps() {
  static const std::vector<App> Apps = [] {
    std::vector<App> One;
    for (const App &A : allApps()) {
      std::mt19937 Rng(appSeed(A));
      if (A.Make(1e12, Rng).Launches.size() == 1)
        One.push_back(A);
    }
    return One;
  }();
  return Apps;
}

struct Options {
  double Scale = 1;
  std::set<std::string> Only;
  unsigned Runs = 3;
  /// Seconds of timed runs per kernel and driver, after one at least.
  double TimeLimit = 10;
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
  for (const App &A : oneLaunchApps())
    std::printf(" %s", A.Name);
  std::printf(
      "\n"
      "  --runs=N           timed runs per kernel and driver (default 3)\n"
      "  --time-limit=S     stop a kernel's timed runs on a driver once they\n"
      "                     took S seconds (default 10; 0: no limit), one at\n"
      "                     least; a warm-up longer than S is the timed run\n"
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
    } else if (Value("--time-limit", V)) {
      char *End = nullptr;
      O.TimeLimit = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || !(O.TimeLimit >= 0) || !std::isfinite(O.TimeLimit))
        return "--time-limit needs a number of seconds, 0 or more, got '" + V + "'";
    } else if (Value("--only", V)) {
      std::stringstream SS(V);
      for (std::string Name; std::getline(SS, Name, ',');) {
        const std::vector<App> &Apps = oneLaunchApps();
        bool Known = std::any_of(Apps.begin(), Apps.end(),
                                 [&](const App &A) { return Name == A.Name; });
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

/// One row of the table.
struct Row {
  std::string Name, Size;
  /// The harness's own failure (e.g. no memory for the inputs), and the
  /// drivers'.
  std::string Error, PoclError, SkmdError;
  /// Why it was not run at this size (a kernel of one launch at its
  /// smallest size that takes several at this one: scan's levels).
  std::string Skipped;
  std::vector<double> PoclMs, SkmdMs;
  Check VsPocl, SkmdVsRef, PoclVsRef;
  bool RanPocl = false;

  bool ok() const {
    return !Skipped.empty() || (Error.empty() && SkmdError.empty() && PoclError.empty() &&
                                VsPocl.Ok && SkmdVsRef.Ok && PoclVsRef.Ok);
  }

  std::string check() const {
    if (!Skipped.empty())
      return "skipped: " + Skipped;
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

/// Runs one kernel under both drivers into \p R.
void runKernel(const App &KC, const Options &O, SkmdDevice &Skmd,
               PoclDevice *Pocl, Row &R) {
  // A seed per kernel, so --only gets the same inputs as a full run.
  std::mt19937 Rng(appSeed(KC));
  Problem P = KC.Make(O.Scale, Rng);
  const std::string &Function = P.Launches[0].Kernel;
  R.Size = P.Size;
  // Its one launch would be timed and checked as if it were the whole
  // problem (a first level of block scans against the prefix sums).
  if (P.Launches.size() != 1) {
    R.Skipped = "takes " + std::to_string(P.Launches.size()) +
                " launches at this size; cpu-vs-pocl times kernels of one launch";
    return;
  }

  Outputs PoclOut(P.Buffers.size()), SkmdOut(P.Buffers.size());
  if (Pocl) {
    std::string Source;
    R.PoclError = readFile(O.KernelsDir + "/" + KC.Source + ".cl", Source);
    if (R.PoclError.empty())
      R.PoclError =
          Pocl->run(Source, P, O.Runs, O.TimeLimit, PoclOut, R.PoclMs);
    R.RanPocl = R.PoclError.empty();
    if (!R.RanPocl)
      R.PoclMs.clear();
  }
  R.SkmdError = Skmd.run(O.BundlesDir + "/" + KC.Source + ".skmd", Function, P,
                         O.Runs, O.TimeLimit, SkmdOut, R.SkmdMs);
  if (R.SkmdError.empty()) {
    R.SkmdVsRef = P.Reference(P, SkmdOut);
    if (R.RanPocl)
      R.VsPocl = compareOutputs(P, SkmdOut, PoclOut);
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
  if (O.TimeLimit > 0) {
    char Limit[160];
    std::snprintf(Limit, sizeof Limit,
                  " (fewer where they took over %g s; one where the warm-up did, which is "
                  "then the timed run)",
                  O.TimeLimit);
    Timing += Limit;
  }
  std::fprintf(stderr, "machine: %s\nPoCL: %s\nSKMD: %u threads\n",
               Machine.c_str(), PoclText.c_str(), Skmd.threads());
  if (!Pocl)
    std::fprintf(stderr,
                 "cpu-vs-pocl: PoCL is not available (%s); running "
                 "SKMD alone\n",
                 NoPocl.c_str());

  std::vector<Row> Rows;
  for (const App &KC : oneLaunchApps()) {
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
                markdownCell(R.check()).c_str());
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

