//===- PtxOverhead.cpp - Partition-ready PTX against the kernel as written ==//
//
// ptx-overhead [--only=a,b] [--size=paper|small|F] [--runs=N] [--bundles-dir=DIR]
//
// For each launch of each benchmark application (bench/apps), on the
// first GPU, with the bundle's PTX: the kernel as written (K) over its
// grid, the partition-ready kernel over all its groups as the CUDA device
// launches it (the box form, K__skmd_box, over the whole grid:
// splitIntoLaunches) and as one 1-D launch of the range form
// (K__skmd_range), and the guard form (K__skmd_guard) twice over the full grid: with every
// group enabled, and with none, whose time over the number of groups is
// the cost of a disabled group (the SKMD paper measured 2.687 ns per group
// on a GTX 760). Kernel times from CUDA events, median of --runs rounds
// after one warm-up, each round running every variant in turn; the
// buffers are the application's, on the device. The target
// (docs/results/paper-apps.md): the range form within 2% of K at full range.
//
// Exit status: 0 measured, 1 an error, 77 no CUDA driver or GPU.
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "devices/NDRange.h"
#include "devices/cuda/CudaDriver.h"
#include "suite/Apps.h"
#include "suite/Timing.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace skmd;
using namespace skmd::bench;

namespace {

struct Options {
  std::vector<const App *> Apps;
  double Scale = 1;
  unsigned Runs = 10;
  std::string BundlesDir = SKMD_BENCH_BUNDLES_DIR;
};

class Timer {
public:
  explicit Timer(const CudaDriver &D) : D(D) {
    D.cuEventCreate(&Start, 0);
    D.cuEventCreate(&Stop, 0);
  }
  ~Timer() {
    D.cuEventDestroy(Start);
    D.cuEventDestroy(Stop);
  }

  /// Median ms of each of \p Launches over \p Runs rounds (after one more
  /// as a warm-up), or a negative value where a launch failed. Each round
  /// runs every launch once, in turn: the GPU's clocks drift over a few
  /// milliseconds, and timing one variant's runs back to back put that
  /// drift into the differences between variants.
  std::vector<double> medians(unsigned Runs,
                              const std::vector<std::function<CUresult()>> &Launches) {
    std::vector<std::vector<double>> Ms(Launches.size());
    std::vector<double> Out(Launches.size(), 0);
    for (unsigned I = 0; I <= Runs; ++I)
      for (size_t L = 0; L < Launches.size(); ++L) {
        if (Out[L] < 0)
          continue;
        D.cuEventRecord(Start, nullptr);
        if (Launches[L]() != 0) {
          Out[L] = -1;
          continue;
        }
        D.cuEventRecord(Stop, nullptr);
        float T = 0;
        if (D.cuEventSynchronize(Stop) != 0 || D.cuEventElapsedTime(&T, Start, Stop) != 0) {
          Out[L] = -1;
          continue;
        }
        if (I > 0)
          Ms[L].push_back(T);
      }
    for (size_t L = 0; L < Launches.size(); ++L)
      if (Out[L] == 0)
        Out[L] = bench::median(Ms[L]);
    return Out;
  }

private:
  const CudaDriver &D;
  CUevent Start = nullptr, Stop = nullptr;
};

/// One application's launches on the GPU: prints a table row per launch.
std::string measure(const CudaDriver &D, const Options &O, const App &A) {
  std::mt19937 Rng(appSeed(A));
  Problem P = A.Make(O.Scale, Rng);
  auto B = Bundle::fromFile(O.BundlesDir + "/" + A.Source + ".skmd");
  if (!B)
    return B.error().message();
  std::string_view Ptx = B->variant(TargetKind::PTX);
  if (Ptx.empty())
    return "the bundle has no PTX variant";
  CUmodule Mod;
  if (CUresult R = D.cuModuleLoadDataEx(&Mod, Ptx.data(), 0, nullptr, nullptr))
    return "cuModuleLoadDataEx: " + D.describe(R);

  std::vector<CUdeviceptr> Mem(P.Buffers.size(), 0);
  std::string Error;
  for (size_t I = 0; I < P.Buffers.size() && Error.empty(); ++I) {
    const Buffer &Buf = P.Buffers[I];
    if (CUresult R = D.cuMemAlloc(&Mem[I], std::max<size_t>(Buf.Bytes, 1)))
      Error = "cuMemAlloc of " + std::to_string(Buf.Bytes) + " bytes: " + D.describe(R);
    else if (CUresult R = Buf.Input.bytes() ? D.cuMemcpyHtoD(Mem[I], Buf.Input.data(), Buf.Bytes)
                                            : D.cuMemsetD8(Mem[I], 0, Buf.Bytes))
      Error = "filling buffer " + std::to_string(I) + ": " + D.describe(R);
  }

  Timer T(D);
  for (size_t L = 0; L < P.Launches.size() && Error.empty(); ++L) {
    const Launch &Ln = P.Launches[L];
    const KernelInfo *K = B->metadata().findKernel(Ln.Kernel);
    if (!K || !K->Symbols.count(TargetKind::PTX)) {
      Error = "no PTX of kernel " + Ln.Kernel;
      break;
    }
    const KernelSymbols &S = K->Symbols.at(TargetKind::PTX);
    CUfunction Orig = nullptr, Range = nullptr, Box = nullptr, Guard = nullptr;
    D.cuModuleGetFunction(&Orig, Mod, S.Kernel.c_str());
    D.cuModuleGetFunction(&Range, Mod, S.Range.c_str());
    if (!S.Box.empty())
      D.cuModuleGetFunction(&Box, Mod, S.Box.c_str());
    if (!S.Guard.empty())
      D.cuModuleGetFunction(&Guard, Mod, S.Guard.c_str());
    if (!Orig || !Range) {
      Error = "the module lacks " + S.Kernel + " or " + S.Range;
      break;
    }
    NDRange R;
    R.WorkDim = Ln.Dims;
    uint64_t Groups = 1;
    for (unsigned Dim = 0; Dim < 3; ++Dim) {
      R.NumGroups[Dim] = Ln.Global[Dim] / Ln.Local[Dim];
      R.LocalSize[Dim] = Ln.Local[Dim];
      Groups *= R.NumGroups[Dim];
    }
    // Parameters as SKMD's CUDA device passes them (devices/cuda): buffer
    // addresses, value bytes, and for a __local pointer its offset into the
    // dynamic shared memory (CodeGen/NVPTXLocalArguments.h).
    // Grid: the launch's groups per dimension (the full grid for K).
    auto Launch = [&](CUfunction F, std::array<uint64_t, 3> Grid, std::vector<uint64_t> Extra) {
      uint64_t Dynamic = 0;
      std::vector<uint64_t> Words;
      Words.reserve(Ln.Args.size() + Extra.size());
      std::vector<void *> Params;
      for (const Arg &Ar : Ln.Args) {
        if (Ar.K == Arg::ValueArg) {
          Params.push_back(const_cast<uint8_t *>(Ar.Value.data()));
          continue;
        }
        if (Ar.K == Arg::BufferArg) {
          Words.push_back(Mem[Ar.Index]);
        } else {
          Words.push_back(Dynamic);
          Dynamic += (Ar.Size + 15) / 16 * 16;
        }
        Params.push_back(&Words.back());
      }
      for (uint64_t V : Extra) {
        Words.push_back(V);
        Params.push_back(&Words.back());
      }
      return D.cuLaunchKernel(F, unsigned(Grid[0]), unsigned(Grid[1]), unsigned(Grid[2]),
                              unsigned(R.LocalSize[0]), unsigned(R.LocalSize[1]),
                              unsigned(R.LocalSize[2]), unsigned(Dynamic), nullptr,
                              Params.data(), nullptr);
    };
    auto Words = [&](const RangeLaunch &L) {
      auto W = rangeLaunchArgs(R, L);
      return std::vector<uint64_t>(W.begin(), W.end());
    };
    RangeLaunch Flat;
    Flat.Grid = {Groups, 1, 1};
    std::vector<RangeLaunch> AsRun = splitIntoLaunches(R, 0, Groups, Box != nullptr);
    std::vector<std::function<CUresult()>> Variants = {
        [&] { return Launch(Orig, R.NumGroups, {}); },
        [&] {
          for (const RangeLaunch &L : AsRun)
            if (CUresult E = Launch(L.F == RangeLaunch::Box ? Box : Range, L.Grid, Words(L)))
              return E;
          return CUresult(0);
        },
        [&] { return Launch(Range, Flat.Grid, Words(Flat)); }};
    if (Guard) {
      Variants.push_back([&] { return Launch(Guard, R.NumGroups, {0, Groups}); });
      Variants.push_back([&] { return Launch(Guard, R.NumGroups, {0, 0}); });
    }
    std::vector<double> Ms = T.medians(O.Runs, Variants);
    double OrigMs = Ms[0], RangeMs = Ms[1], FlatMs = Ms[2];
    double GuardAll = Guard ? Ms[3] : -1, GuardNone = Guard ? Ms[4] : -1;
    if (OrigMs < 0 || RangeMs < 0 || FlatMs < 0) {
      Error = Ln.Kernel + ": a launch failed: " + D.describe(D.cuCtxSynchronize());
      break;
    }
    auto Cell = [](double Ms) {
      char Text[32];
      std::snprintf(Text, sizeof(Text), Ms < 0 ? "-" : "%.4f", Ms);
      return std::string(Text);
    };
    char Row[512];
    std::snprintf(Row, sizeof(Row),
                  "| %s | %s | %s | %llu | %s | %s | %+.1f%% | %s | %+.1f%% | %s | %s | %s |\n",
                  A.Name, Ln.Kernel.c_str(), P.Size.c_str(), (unsigned long long)Groups,
                  Cell(OrigMs).c_str(), Cell(RangeMs).c_str(), 100 * (RangeMs / OrigMs - 1),
                  Cell(FlatMs).c_str(), 100 * (FlatMs / OrigMs - 1),
                  Cell(GuardAll).c_str(), Cell(GuardNone).c_str(),
                  GuardNone < 0 ? "-" : (std::to_string(GuardNone * 1e6 / double(Groups))).c_str());
    std::fputs(Row, stdout);
    std::fflush(stdout);
  }
  for (CUdeviceptr M : Mem)
    if (M)
      D.cuMemFree(M);
  D.cuModuleUnload(Mod);
  return Error;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--only=", 0) == 0) {
      std::stringstream SS(A.substr(7));
      for (std::string Name; std::getline(SS, Name, ',');) {
        const App *Found = findApp(Name);
        if (!Found) {
          std::fprintf(stderr, "ptx-overhead: no application named '%s'\n", Name.c_str());
          return 2;
        }
        O.Apps.push_back(Found);
      }
    } else if (A.rfind("--size=", 0) == 0) {
      std::optional<double> Scale = scaleOfSize(A.substr(7));
      if (!Scale) {
        std::fprintf(stderr, "ptx-overhead: --size is paper, small or a number >= 1\n");
        return 2;
      }
      O.Scale = *Scale;
    } else if (A.rfind("--runs=", 0) == 0) {
      O.Runs = unsigned(std::max(1, std::atoi(A.c_str() + 7)));
    } else if (A.rfind("--bundles-dir=", 0) == 0) {
      O.BundlesDir = A.substr(14);
    } else {
      std::printf("usage: ptx-overhead [--only=a,b] [--size=paper|small|F] [--runs=N] "
                  "[--bundles-dir=DIR]\n"
                  "Times each application's kernels as written against their partition-ready\n"
                  "and guard forms on the first GPU (CUDA events, median of --runs).\n");
      return A == "--help" ? 0 : 2;
    }
  }
  if (O.Apps.empty())
    for (const App &A : allApps())
      O.Apps.push_back(&A);

  std::string Why;
  const CudaDriver *D = CudaDriver::get(Why);
  int Count = 0;
  if (!D || D->cuDeviceGetCount(&Count) != 0 || Count == 0) {
    std::fprintf(stderr, "ptx-overhead: skipped: no GPU (%s)\n", D ? "no device" : Why.c_str());
    return 77;
  }
  CUdevice Dev;
  CUcontext Ctx;
  char Name[128] = {0};
  if (D->cuDeviceGet(&Dev, 0) || D->cuDevicePrimaryCtxRetain(&Ctx, Dev) ||
      D->cuCtxSetCurrent(Ctx)) {
    std::fprintf(stderr, "ptx-overhead: cannot open GPU 0\n");
    return 1;
  }
  D->cuDeviceGetName(Name, sizeof(Name) - 1, Dev);
  std::printf("ptx-overhead: %s; kernel times in ms, median of %u rounds after a warm-up\n\n", Name,
              O.Runs);
  std::printf("| application | kernel | size | groups | as written | partition-ready | "
              "difference | partition-ready, 1-D launch | difference | guard, all enabled | "
              "guard, none enabled | ns per disabled group |\n");
  std::printf("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
              "---: |\n");
  int Status = 0;
  for (const App *A : O.Apps) {
    std::string E;
    try {
      E = measure(*D, O, *A);
    } catch (const std::exception &Ex) {
      E = Ex.what();
    }
    if (!E.empty()) {
      std::fprintf(stderr, "ptx-overhead: %s: %s\n", A->Name, E.c_str());
      Status = 1;
    }
  }
  D->cuDevicePrimaryCtxRelease(Dev);
  return Status;
}
