//===- SuiteMain.cpp - skmd-bench: the paper's applications, every driver ==//
//
// Runs each benchmark application (bench/apps) end to end, inputs in host
// memory before and outputs in host memory after, under:
//   - each vendor OpenCL driver's device (PoCL's CPU, NVIDIA's GPUs...),
//     running the original kernel from source with its buffers copied from
//     and to pageable host memory;
//   - SKMD on each of its devices alone;
//   - SKMD with linear partitioning and with the model partitioner.
// Every configuration's outputs are checked against the application's C++
// reference; times are the median of --runs runs after --warmup untimed
// ones, the configurations' runs taken in turn (round by round). Writes a
// markdown table (stdout or --markdown) and JSON (--json);
// bench/plot-suite.py draws the plots.
//
//===----------------------------------------------------------------------===//
#include "model/Profiler.h"
#include "suite/Apps.h"
#include "suite/OpenCL.h"
#include "suite/SkmdRun.h"
#include "suite/Text.h"
#include "suite/Timing.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace skmd::bench;

namespace {

struct Options {
  std::vector<const App *> Apps;
  double Scale = 1;
  std::string SizeName = "paper";
  unsigned Runs = 5, Warmups = 1;
  double TimeLimit = 0; ///< Seconds per configuration; 0: none.
  bool HaveDevices = false;
  std::string Devices;
  std::string OpenCl = "all";
  std::vector<std::string> Plans{"single", "linear", "auto"};
  bool PlansGiven = false;
  /// SKMD's buffers in pageable memory, page-locked memory, or each.
  std::vector<bool> Memories{false};
  std::string Profile = "auto";
  std::string Db, Json, Markdown;
  std::string KernelsDir = SKMD_BENCH_KERNELS_DIR;
  std::string BundlesDir = SKMD_BENCH_BUNDLES_DIR;
  bool List = false;
};

void printUsage() {
  std::printf(
      "usage: skmd-bench [options]\n"
      "\n"
      "Runs the SKMD paper's applications end to end (inputs from and outputs\n"
      "to host memory) under each vendor OpenCL driver and under SKMD (each\n"
      "device alone, linear partitioning, the model partitioner), checks every\n"
      "result against the application's C++ reference, and prints a markdown\n"
      "table of median times and speedups.\n"
      "\n"
      "  --only=a,b,...     these applications only (--list shows them)\n"
      "  --size=S           paper (the paper's Table II sizes, the default),\n"
      "                     small (1/%g of the work, for CI), or a number F:\n"
      "                     the work divided by F\n"
      "  --runs=N           timed runs per configuration (default 5)\n"
      "  --warmup=N         untimed runs before them (default 1)\n"
      "  --time-limit=S     stop a configuration's timed runs once they took\n"
      "                     S seconds (one at least); the table shows how\n"
      "                     many runs each median has when it is fewer\n"
      "  --devices=LIST     SKMD's devices, as SKMD_DEVICES (default: every\n"
      "                     device found), e.g. cpu,cuda or cpu,discrete,discrete\n"
      "  --opencl=LIST      vendor-driver devices: all (default), none, or\n"
      "                     labels such as pocl-cpu,nvidia-gpu0\n"
      "  --plans=LIST       SKMD plans: single (each device alone), device\n"
      "                     names (cpu, gpu0...), linear, auto, even,\n"
      "                     manual:..., or opencl: the application's plain\n"
      "                     OpenCL host code on the SKMD platform (its ICD\n"
      "                     registered, e.g. OCL_ICD_VENDORS=build/opencl/vendors;\n"
      "                     its plan the platform's default)\n"
      "                     (default single,linear,auto, and opencl when the\n"
      "                     SKMD platform is registered)\n"
      "  --memory=KIND      SKMD's buffers in pageable memory (the default),\n"
      "                     pinned (page-locked, from skmd_alloc_host), or\n"
      "                     both: each SKMD configuration twice, side by side\n"
      "                     (the vendor drivers' buffers stay pageable)\n"
      "  --pinned           the same as --memory=pinned\n"
      "  --profile=MODE     auto (default): profile what the model lacks\n"
      "                     before a linear or auto run; off: fail instead\n"
      "  --db=FILE          the profile database (default: SKMD_PROFILE_DB,\n"
      "                     else ~/.cache/skmd/profiles.sqlite)\n"
      "  --json=FILE        write every time, check and plan as JSON\n"
      "  --markdown=FILE    write the table there instead of stdout\n"
      "  --kernels-dir=DIR  the .cl sources (default %s)\n"
      "  --bundles-dir=DIR  the .skmd bundles (default %s)\n"
      "  --list             list the applications and their sizes\n"
      "  --help             this text\n"
      "\n"
      "Exit status: 0 when every configuration ran and matched its\n"
      "reference, 1 when one did not, 2 for a bad option.\n",
      SmallScale, SKMD_BENCH_KERNELS_DIR, SKMD_BENCH_BUNDLES_DIR);
}

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
    auto Count = [](const std::string &V, unsigned Min, unsigned &Out) {
      char *End = nullptr;
      long N = std::strtol(V.c_str(), &End, 10);
      if (V.empty() || *End || N < long(Min) || N > 1000)
        return false;
      Out = unsigned(N);
      return true;
    };
    std::string V;
    if (A == "--help" || A == "-h") {
      Help = true;
    } else if (A == "--list") {
      O.List = true;
    } else if (A == "--pinned") {
      O.Memories = {true};
    } else if (Value("--memory", V)) {
      if (V == "pageable" || V == "pinned")
        O.Memories = {V == "pinned"};
      else if (V == "both")
        O.Memories = {false, true};
      else
        return "--memory is pageable, pinned or both, got '" + V + "'";
    } else if (Value("--only", V)) {
      for (const std::string &Name : splitList(V)) {
        const App *Found = findApp(Name);
        if (!Found)
          return "--only: no application named '" + Name + "' (see --list)";
        O.Apps.push_back(Found);
      }
    } else if (Value("--size", V)) {
      std::optional<double> Scale = scaleOfSize(V);
      if (!Scale)
        return "--size needs paper, small or a number of at least 1, got '" + V + "'";
      O.Scale = *Scale;
      O.SizeName = V == "paper" || V == "small" ? V : "1/" + V;
    } else if (Value("--runs", V)) {
      if (!Count(V, 1, O.Runs))
        return "--runs needs a count from 1 to 1000, got '" + V + "'";
    } else if (Value("--warmup", V)) {
      if (!Count(V, 0, O.Warmups))
        return "--warmup needs a count from 0 to 1000, got '" + V + "'";
    } else if (Value("--time-limit", V)) {
      char *End = nullptr;
      O.TimeLimit = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || !(O.TimeLimit > 0) || !std::isfinite(O.TimeLimit))
        return "--time-limit needs a positive number of seconds, got '" + V + "'";
    } else if (Value("--devices", O.Devices)) {
      O.HaveDevices = true;
    } else if (Value("--opencl", O.OpenCl)) {
    } else if (Value("--plans", V)) {
      // A manual plan's own list goes on until the next plan:
      // --plans=cpu,manual:cpu=0.5,gpu0=0.5,auto.
      O.Plans.clear();
      for (std::string &Item : splitList(V))
        if (!O.Plans.empty() && O.Plans.back().rfind("manual:", 0) == 0 &&
            Item.find('=') != std::string::npos && Item.find(':') == std::string::npos)
          O.Plans.back() += "," + Item;
        else
          O.Plans.push_back(std::move(Item));
      O.PlansGiven = true;
      if (O.Plans.empty())
        return "--plans needs at least one plan";
    } else if (Value("--profile", O.Profile)) {
      if (O.Profile != "auto" && O.Profile != "off")
        return "--profile is auto or off, got '" + O.Profile + "'";
    } else if (Value("--db", O.Db) || Value("--json", O.Json) || Value("--markdown", O.Markdown) ||
               Value("--kernels-dir", O.KernelsDir) || Value("--bundles-dir", O.BundlesDir)) {
      if (A.back() == '=')
        return A + " needs a value";
    } else {
      return "unknown option '" + A + "' (see --help)";
    }
  }
  if (O.Apps.empty())
    for (const App &A : allApps())
      O.Apps.push_back(&A);
  return "";
}

/// One configuration: a vendor driver's device, SKMD with a plan, or the
/// OpenCL host code on the SKMD platform (plan "opencl").
struct Config {
  std::string Label; ///< "pocl-cpu", "skmd cpu", "skmd auto", "skmd-opencl"
  bool Vendor = false;
  ClDeviceInfo ClDevice; ///< When Vendor, or the SKMD platform's device.
  std::string Plan;      ///< When !Vendor.
  bool SingleDevice = false;
  /// OpenCL host code: buffers written and read (Copied), or the host
  /// arrays themselves (InPlace, CL_MEM_USE_HOST_PTR: how CPU drivers are
  /// meant to be used, and the platform's way to compute on the caller's
  /// memory as the C API does).
  ClProblemRun::Placement Where = ClProblemRun::Placement::Copied;
  /// SKMD through its C API: buffers in page-locked memory.
  bool Pinned = false;
};

/// One configuration's outcome for one application.
struct Result {
  std::string Error;
  std::vector<double> Ms;
  Check Against;
  std::vector<SkmdLaunchSummary> Launches; ///< SKMD's last run.

  bool ok() const { return Error.empty() && Against.Ok; }
  double medianMs() const { return median(Ms); }
};

struct AppRow {
  const App *Application;
  std::string Size, Error;
  std::vector<Result> Results; ///< Per configuration.
};

/// The fastest successful configuration among those \p Pick accepts: its
/// index, or -1.
template <typename PickFn>
int fastest(const std::vector<Config> &Configs, const AppRow &Row, PickFn Pick) {
  int Best = -1;
  for (size_t I = 0; I < Configs.size(); ++I) {
    const Result &R = Row.Results[I];
    if (!Pick(Configs[I]) || !R.ok() || R.Ms.empty())
      continue;
    if (Best < 0 || R.medianMs() < Row.Results[size_t(Best)].medianMs())
      Best = int(I);
  }
  return Best;
}

bool isVendor(const Config &C) { return C.Vendor; }
bool isSkmdSingle(const Config &C) { return !C.Vendor && C.SingleDevice; }

/// Each device's share of the groups over a run's launches, e.g.
/// "cpu 12% gpu0 88%".
std::string shares(const std::vector<SkmdLaunchSummary> &Launches) {
  std::vector<std::pair<std::string, double>> Groups;
  double Total = 0;
  for (const SkmdLaunchSummary &L : Launches)
    for (const SkmdPiece &P : L.Pieces) {
      auto It = std::find_if(Groups.begin(), Groups.end(),
                             [&](const auto &G) { return G.first == P.Device; });
      if (It == Groups.end())
        It = Groups.insert(Groups.end(), {P.Device, 0.0});
      It->second += double(P.Groups);
      Total += double(P.Groups);
    }
  std::string S;
  for (const auto &[Device, N] : Groups) {
    if (N == 0)
      continue;
    char Text[64];
    std::snprintf(Text, sizeof(Text), "%s%s %.0f%%", S.empty() ? "" : " ", Device.c_str(),
                  Total > 0 ? 100 * N / Total : 0.0);
    S += Text;
  }
  return S;
}

std::string fixed(double V, const char *Format) {
  char Text[64];
  std::snprintf(Text, sizeof(Text), Format, V);
  return Text;
}

std::string msText(double Ms) { return fixed(Ms, Ms < 10 ? "%.3f" : Ms < 1000 ? "%.2f" : "%.1f"); }

/// One configuration prepared for an application: a vendor driver's
/// program and buffers, or an SKMD bundle with its buffers wrapped.
struct PreparedRun {
  const Config *C = nullptr;
  Result *R = nullptr;
  std::unique_ptr<ClProblemRun> Cl;
  std::unique_ptr<SkmdProblemRun> Skmd;
  double TimedMs = 0; ///< Its timed runs so far.
  bool Done = false;

  std::string reset() { return Cl ? Cl->reset() : Skmd->reset(); }
  std::string run() { return Cl ? Cl->run() : Skmd->run(C->Plan); }
};

/// Prepares configuration \p C with its outputs in \p Out; null with the
/// error in \p R.
std::unique_ptr<PreparedRun> prepareConfig(const Options &O, skmd_context Ctx, const Config &C,
                                           const App &A, const Problem &P, Outputs &Out,
                                           Result &R) {
  auto Run = std::make_unique<PreparedRun>();
  Run->C = &C;
  Run->R = &R;
  std::string Why;
  if (C.Vendor || C.Plan == "opencl") {
    std::string Source;
    if (std::string E = readFile(O.KernelsDir + "/" + A.Source + ".cl", Source); !E.empty()) {
      R.Error = E;
      return nullptr;
    }
    Run->Cl =
        ClProblemRun::prepare(C.ClDevice, Source, P, C.Where, Out, Why);
  } else {
    Run->Skmd =
        SkmdProblemRun::prepare(Ctx, O.BundlesDir + "/" + A.Source + ".skmd", P, C.Pinned, Out,
                                Why);
  }
  if (!Run->Cl && !Run->Skmd) {
    R.Error = Why;
    return nullptr;
  }
  return Run;
}

/// Ends \p Run after its last run: its outputs, still in \p Out, are
/// collected and checked before another configuration writes there.
void finishConfig(PreparedRun &Run, const Problem &P, Outputs &Out) {
  Result &R = *Run.R;
  Run.Done = true;
  if (R.Error.empty())
    R.Error = Run.Cl ? Run.Cl->collect() : Run.Skmd->collect();
  if (Run.Skmd)
    R.Launches = Run.Skmd->lastReports();
  if (R.Error.empty())
    R.Against = P.Reference(P, Out);
  else
    R.Ms.clear();
}

/// Measures every configuration of one application. All are prepared
/// first and warmed up in turn; then the timed runs go round the
/// configurations, one run of each per round, so that a change in the
/// machine (a neighbour on a shared host, the CPU's clock) falls on all
/// of them alike: on the GPU hosts the same CPU-only plan, measured
/// configuration after configuration, differed by up to 45% (median
/// filter on the H100 host, 8.4 against 12.1 ms). Before each timed run
/// the caches are evicted. Every configuration
/// writes the same output memory, so none is timed on pages of its own;
/// each is checked right after its last run.
void measureApp(const Options &O, skmd_context Ctx, const std::vector<Config> &Configs,
                const App &A, const Problem &P, std::vector<Result> &Results) {
  Outputs Out(P.Buffers.size());
  std::vector<std::unique_ptr<PreparedRun>> Runs;
  for (size_t I = 0; I < Configs.size(); ++I) {
    try {
      if (auto Run = prepareConfig(O, Ctx, Configs[I], A, P, Out, Results[I]))
        Runs.push_back(std::move(Run));
    } catch (const std::bad_alloc &) {
      Results[I].Error = "out of memory (try a smaller --size)";
    }
  }
  auto Fail = [&](PreparedRun &Run, std::string E) {
    Run.R->Error = std::move(E);
    finishConfig(Run, P, Out);
  };
  for (auto &Run : Runs)
    for (unsigned W = 0; W < O.Warmups && !Run->Done; ++W) {
      // A warm-up may include one-time work (a JIT, SKMD's profiling).
      if (std::string E = Run->reset(); !E.empty())
        Fail(*Run, E);
      else if (std::string E = Run->run(); !E.empty())
        Fail(*Run, E);
    }
  const double LimitMs = O.TimeLimit * 1e3;
  for (unsigned Round = 0; Round < O.Runs; ++Round)
    for (auto &Run : Runs) {
      if (Run->Done)
        continue;
      if (std::string E = Run->reset(); !E.empty()) {
        Fail(*Run, E);
        continue;
      }
      // Every run finds its inputs in memory, not in the caches that the
      // configuration before it happened to fill (a 300 MB last-level
      // cache held much of an input for whichever ran after a CPU run),
      // as the profiles SKMD plans from do.
      skmd::evictCaches();
      auto T0 = std::chrono::steady_clock::now();
      if (std::string E = Run->run(); !E.empty()) {
        Fail(*Run, E);
        continue;
      }
      double Ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
      Run->R->Ms.push_back(Ms);
      Run->TimedMs += Ms;
      if (Round + 1 == O.Runs || (LimitMs > 0 && Run->TimedMs > LimitMs))
        finishConfig(*Run, P, Out);
    }
}

nlohmann::json launchesJson(const std::vector<SkmdLaunchSummary> &Launches) {
  nlohmann::json J = nlohmann::json::array();
  for (const SkmdLaunchSummary &L : Launches) {
    nlohmann::json Pieces = nlohmann::json::array();
    for (const SkmdPiece &P : L.Pieces)
      Pieces.push_back({{"device", P.Device},
                        {"groups", P.Groups},
                        {"input_ms", P.InputMs},
                        {"kernel_ms", P.KernelMs},
                        {"output_ms", P.OutputMs},
                        {"merge_ms", P.MergeMs},
                        {"bytes_in", P.BytesIn},
                        {"bytes_out", P.BytesOut},
                        {"predicted_input_ms", P.PredictedInputMs},
                        {"predicted_kernel_ms", P.PredictedKernelMs},
                        {"predicted_output_ms", P.PredictedOutputMs},
                        {"predicted_merge_ms", P.PredictedMergeMs},
                        {"chunks", P.Chunks}});
    J.push_back({{"kernel", L.Kernel},
                 {"plan", L.Plan},
                 {"total_groups", L.TotalGroups},
                 {"total_ms", L.TotalMs},
                 {"plan_ms", L.PlanMs},
                 {"predicted_ms", L.PredictedMs},
                 {"estimated_ms", L.EstimatedMs},
                 {"bound_ms", L.BoundMs},
                 {"pieces", Pieces}});
  }
  return J;
}

/// Writes \p Text to \p Path whole or not at all (through a temporary
/// file renamed into place).
bool writeWhole(const std::string &Path, const std::string &Text) {
  std::string Temp = Path + ".tmp";
  {
    std::ofstream Out(Temp, std::ios::binary);
    Out << Text;
    if (!Out.flush()) {
      std::remove(Temp.c_str());
      return false;
    }
  }
  if (std::rename(Temp.c_str(), Path.c_str()) != 0) {
    std::remove(Temp.c_str());
    return false;
  }
  return true;
}

int run(int Argc, char **Argv) {
  Options O;
  bool Help = false;
  if (std::string E = parseOptions(Argc, Argv, O, Help); !E.empty()) {
    std::fprintf(stderr, "skmd-bench: %s\n", E.c_str());
    return 2;
  }
  if (Help) {
    printUsage();
    return 0;
  }
  if (O.List) {
    for (const App &A : allApps()) {
      std::mt19937 Rng(appSeed(A));
      // The paper's sizes would draw gigabytes of inputs just to be named.
      Problem Small = A.Make(SmallScale, Rng);
      std::printf("%-18s kernels/%s.cl, %zu launch%s; small: %s\n", A.Name, A.Source,
                  Small.Launches.size(), Small.Launches.size() == 1 ? "" : "es",
                  Small.Size.c_str());
    }
    return 0;
  }
  // The SKMD library reads these at skmd_init, and the SKMD platform (plan
  // opencl) when it opens its devices.
  if (!O.Db.empty())
    setenv("SKMD_PROFILE_DB", O.Db.c_str(), 1);
  setenv("SKMD_PROFILE", O.Profile.c_str(), 1);
  if (O.HaveDevices)
    setenv("SKMD_DEVICES", O.Devices.c_str(), 1);

  skmd_context Ctx = nullptr;
  if (skmd_status E = skmd_init(O.HaveDevices ? O.Devices.c_str() : nullptr, &Ctx)) {
    std::fprintf(stderr, "skmd-bench: opening SKMD's devices: %s: %s\n", skmd_status_name(E),
                 skmd_last_error());
    return 1;
  }
  std::vector<std::string> SkmdDevices;
  std::string DeviceText;
  for (size_t I = 0; I < skmd_device_count(Ctx); ++I) {
    skmd_device_info Info;
    skmd_get_device_info(Ctx, I, &Info);
    SkmdDevices.push_back(Info.name);
    DeviceText += std::string(DeviceText.empty() ? "" : "; ") + Info.name + ": " + Info.description;
  }

  std::vector<Config> Configs;
  std::string NoOpenCl;
  std::string VendorText;
  // The SKMD platform is not a vendor driver: it is the "opencl" plan.
  std::vector<ClDeviceInfo> Found = listOpenClDevices(NoOpenCl);
  std::optional<ClDeviceInfo> SkmdPlatform;
  for (auto It = Found.begin(); It != Found.end();)
    if (It->Platform == "SKMD") {
      if (!SkmdPlatform)
        SkmdPlatform = *It;
      It = Found.erase(It);
    } else {
      ++It;
    }
  if (!O.PlansGiven && SkmdPlatform)
    O.Plans.push_back("opencl");
  if (O.OpenCl != "none") {
    std::vector<std::string> Wanted = splitList(O.OpenCl);
    bool All = O.OpenCl == "all";
    for (const ClDeviceInfo &D : Found) {
      if (!All && std::find(Wanted.begin(), Wanted.end(), D.Label) == Wanted.end())
        continue;
      Config C;
      C.Label = D.Label;
      C.Vendor = true;
      C.ClDevice = D;
      Configs.push_back(C);
      // A CPU driver also as its vendor means it: on the host arrays (on
      // the H100 host PoCL's vector add took 83 ms with copies, 8 without).
      if (D.IsCpu) {
        C.Label = D.Label + " in place";
        C.Where = ClProblemRun::Placement::InPlace;
        Configs.push_back(C);
      }
      VendorText += std::string(VendorText.empty() ? "" : "; ") + D.Label + ": " + D.Version +
                    ", " + D.Name + ", " + std::to_string(D.ComputeUnits) + " compute units";
    }
    for (const std::string &W : Wanted) {
      if (All)
        break;
      if (std::none_of(Found.begin(), Found.end(),
                       [&](const ClDeviceInfo &D) { return D.Label == W; })) {
        std::string Labels;
        for (const ClDeviceInfo &D : Found)
          Labels += (Labels.empty() ? "" : ", ") + D.Label;
        std::fprintf(stderr, "skmd-bench: --opencl: no OpenCL device '%s' (found: %s)\n",
                     W.c_str(), Labels.empty() ? NoOpenCl.c_str() : Labels.c_str());
        skmd_release_context(Ctx);
        return 2;
      }
    }
    if (Found.empty())
      std::fprintf(stderr, "skmd-bench: no vendor OpenCL driver: %s\n", NoOpenCl.c_str());
  }
  // SKMD's own configurations in each memory kind, side by side.
  const bool BothMemories = O.Memories.size() > 1;
  auto AddSkmd = [&](const std::string &Label, const std::string &Plan, bool Single) {
    for (bool Pinned : O.Memories) {
      Config C{Label + (Pinned && BothMemories ? " pinned" : ""), false, {}, Plan, Single};
      C.Pinned = Pinned;
      Configs.push_back(C);
    }
  };
  for (const std::string &Plan : O.Plans) {
    if (Plan == "single") {
      for (const std::string &D : SkmdDevices)
        AddSkmd("skmd " + D, D, true);
      continue;
    }
    if (Plan == "opencl") {
      if (!SkmdPlatform) {
        std::fprintf(stderr,
                     "skmd-bench: --plans=opencl: the SKMD platform is not registered with the "
                     "ICD loader (OCL_ICD_VENDORS=<build>/opencl/vendors, or "
                     "OCL_ICD_FILENAMES=<build>/lib/libSKMD_OpenCL.so with Khronos' loader)\n");
        skmd_release_context(Ctx);
        return 2;
      }
      Configs.push_back({"skmd-opencl", false, *SkmdPlatform, Plan, false});
      Configs.push_back({"skmd-opencl in place", false, *SkmdPlatform, Plan, false,
                         ClProblemRun::Placement::InPlace});
      continue;
    }
    // A device alone, whole or in pipelined chunks ("gpu0@8").
    std::string Device = Plan.substr(0, Plan.find('@'));
    bool Single = std::find(SkmdDevices.begin(), SkmdDevices.end(), Device) != SkmdDevices.end();
    AddSkmd("skmd " + Plan, Plan, Single);
  }

  std::string Machine = cpuModel() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                        " hardware threads";
  std::fprintf(stderr, "skmd-bench: %s\n  SKMD devices: %s\n  vendor drivers: %s\n",
               Machine.c_str(), DeviceText.c_str(),
               VendorText.empty() ? ("none: " + NoOpenCl).c_str() : VendorText.c_str());

  std::vector<AppRow> Rows;
  for (const App *A : O.Apps) {
    AppRow &Row = Rows.emplace_back();
    Row.Application = A;
    Row.Results.resize(Configs.size());
    try {
      std::mt19937 Rng(appSeed(*A));
      Problem P = A->Make(O.Scale, Rng);
      Row.Size = P.Size;
      std::fprintf(stderr, "%s (%s):\n", A->Name, P.Size.c_str());
      measureApp(O, Ctx, Configs, *A, P, Row.Results);
      for (size_t I = 0; I < Configs.size(); ++I) {
        const Result &R = Row.Results[I];
        std::string Status = R.Error.empty() ? R.Against.str() : "FAIL: " + R.Error;
        std::string Plan = R.Launches.empty() ? "" : "; " + shares(R.Launches);
        std::fprintf(stderr, "  %-16s %s ms%s; %s%s\n", Configs[I].Label.c_str(),
                     R.Ms.empty() ? "-" : msText(R.medianMs()).c_str(),
                     R.Ms.empty() ? "" : (" (median of " + std::to_string(R.Ms.size()) + ")").c_str(),
                     R.ok() ? "ok: " : (R.Error.empty() ? "FAIL: " : ""), (Status + Plan).c_str());
      }
    } catch (const std::bad_alloc &) {
      Row.Error = "out of memory for the inputs (try a smaller --size)";
      std::fprintf(stderr, "%s: %s\n", A->Name, Row.Error.c_str());
    }
  }

  // The table: times, then, per memory kind, the model partitioner
  // against the fastest single devices and against the bound.
  std::ostringstream Md;
  const char *MemoryText = !BothMemories && O.Memories[0] ? "; SKMD on page-locked buffers"
                           : BothMemories ? "; SKMD on pageable buffers and, in the columns "
                                            "marked pinned, on page-locked ones"
                                          : "";
  Md << "Machine: " << Machine << ". SKMD devices: " << DeviceText << ". Vendor drivers: "
     << (VendorText.empty() ? "none" : VendorText) << ". Size: " << O.SizeName << ". Times: ms, end to end, median of "
     << O.Runs << " after " << O.Warmups << " warm-up" << (O.Warmups == 1 ? "" : "s")
     << (O.TimeLimit > 0 ? " (fewer, shown in parentheses, where a configuration reached the " +
                               fixed(O.TimeLimit, "%g") + " s limit)"
                         : std::string())
     << MemoryText << ".\n\n| application | size |";
  // Per memory kind with an auto configuration: its summary columns.
  struct Summary {
    bool Pinned = false;
    int Auto = -1;
    std::string Suffix; ///< " (pinned)" beside a pageable summary.
    double LogVendor = 0, LogSingle = 0, LogBound = 0, LogNear = 0;
    unsigned NVendor = 0, NSingle = 0, NBound = 0, NNear = 0;
    double WorstSingle = INFINITY, WorstBound = 0;
  };
  std::vector<Summary> Summaries;
  for (bool Pinned : O.Memories)
    for (size_t I = 0; I < Configs.size(); ++I)
      if (!Configs[I].Vendor && Configs[I].Plan == "auto" && Configs[I].Pinned == Pinned) {
        Summary Sm;
        Sm.Pinned = Pinned;
        Sm.Auto = int(I);
        Sm.Suffix = Pinned && BothMemories ? " (pinned)" : "";
        Summaries.push_back(Sm);
      }
  for (const Config &C : Configs)
    Md << " " << C.Label << " |";
  for (const Summary &Sm : Summaries)
    Md << " auto vs fastest vendor" << Sm.Suffix << " | auto vs fastest SKMD single" << Sm.Suffix
       << " | auto / bound" << Sm.Suffix << " | auto's groups" << Sm.Suffix << " |";
  Md << " check |\n| --- | --- |";
  for (size_t I = 0; I < Configs.size(); ++I)
    Md << " ---: |";
  for (size_t I = 0; I < Summaries.size(); ++I)
    Md << " ---: | ---: | ---: | --- |";
  Md << " --- |\n";
  // The platform's configurations against the C API's auto (pageable):
  // buffers written and read, and the host arrays in place.
  struct VsAuto {
    int Index = -1;
    const char *Key, *Text;
    double LogSum = 0;
    unsigned N = 0;
  };
  VsAuto OpenCl[2] = {{-1, "opencl_vs_auto", "unmodified OpenCL host code (skmd-opencl)"},
                      {-1, "opencl_in_place_vs_auto",
                       "the same on the host arrays (CL_MEM_USE_HOST_PTR, skmd-opencl in place)"}};
  for (size_t I = 0; I < Configs.size(); ++I)
    if (Configs[I].Plan == "opencl")
      OpenCl[Configs[I].Where == ClProblemRun::Placement::InPlace].Index = int(I);
  bool AllOk = true;
  nlohmann::json JApps = nlohmann::json::array();
  for (const AppRow &Row : Rows) {
    Md << "| " << Row.Application->Name << " | " << Row.Size << " |";
    std::string Failures = Row.Error;
    nlohmann::json JConfigs = nlohmann::json::array();
    for (size_t I = 0; I < Configs.size(); ++I) {
      const Result &R = Row.Results[I];
      Md << " " << (R.Ms.empty() ? "-" : msText(R.medianMs()));
      if (!R.Ms.empty() && R.Ms.size() < O.Runs)
        Md << " (" << R.Ms.size() << ")";
      Md << " |";
      if (!R.ok() && Row.Error.empty())
        Failures += (Failures.empty() ? "" : "; ") + Configs[I].Label + ": " +
                    (R.Error.empty() ? R.Against.str() : R.Error);
      nlohmann::json J = {{"config", Configs[I].Label},
                          {"vendor", Configs[I].Vendor},
                          {"in_place", Configs[I].Where == ClProblemRun::Placement::InPlace},
                          {"pinned", Configs[I].Pinned},
                          {"single_device", Configs[I].Vendor || Configs[I].SingleDevice},
                          {"ms", R.Ms},
                          {"ok", R.ok()},
                          {"check", R.Error.empty() ? R.Against.str() : R.Error}};
      if (!R.Ms.empty())
        J["median_ms"] = R.medianMs();
      if (!R.Launches.empty()) {
        J["launches"] = launchesJson(R.Launches);
        J["shares"] = shares(R.Launches);
      }
      JConfigs.push_back(J);
    }
    nlohmann::json JApp = {{"application", Row.Application->Name},
                           {"size", Row.Size},
                           {"configs", JConfigs}};
    const int Vendor = fastest(Configs, Row, isVendor);
    for (Summary &Sm : Summaries) {
      const Result *Auto = Row.Error.empty() ? &Row.Results[size_t(Sm.Auto)] : nullptr;
      bool AutoRan = Auto && Auto->ok() && !Auto->Ms.empty();
      const std::string Key = Sm.Pinned ? "pinned_" : "";
      auto SameMemory = [&](const Config &C) { return C.Pinned == Sm.Pinned; };
      int Single = fastest(Configs, Row, [&](const Config &C) {
        return isSkmdSingle(C) && SameMemory(C);
      });
      auto Speedup = [&](int Base, double &LogSum, unsigned &N, const std::string &Name) {
        if (!AutoRan || Base < 0)
          return std::string("-");
        double S = Row.Results[size_t(Base)].medianMs() / Auto->medianMs();
        LogSum += std::log(S);
        ++N;
        JApp[Key + Name] = S;
        JApp[Key + Name + "_base"] = Configs[size_t(Base)].Label;
        return fixed(S, "%.2fx") + " (" + Configs[size_t(Base)].Label + ")";
      };
      std::string VsVendor = Speedup(Vendor, Sm.LogVendor, Sm.NVendor, "auto_vs_fastest_vendor");
      std::string VsSingle =
          Speedup(Single, Sm.LogSingle, Sm.NSingle, "auto_vs_fastest_skmd_single");
      if (AutoRan && Single >= 0) {
        double S = Row.Results[size_t(Single)].medianMs() / Auto->medianMs();
        Sm.WorstSingle = std::min(Sm.WorstSingle, S);
        // The applications where the CPU alone and the fastest other
        // device alone are within 4x of each other: where a split can
        // gain much.
        int Cpu = fastest(Configs, Row, [&](const Config &C) {
          return isSkmdSingle(C) && SameMemory(C) && C.Plan.rfind("cpu", 0) == 0;
        });
        int Other = fastest(Configs, Row, [&](const Config &C) {
          return isSkmdSingle(C) && SameMemory(C) && C.Plan.rfind("cpu", 0) != 0;
        });
        if (Cpu >= 0 && Other >= 0) {
          double A = Row.Results[size_t(Cpu)].medianMs(),
                 B = Row.Results[size_t(Other)].medianMs();
          if (std::max(A, B) <= 4 * std::min(A, B)) {
            Sm.LogNear += std::log(S);
            ++Sm.NNear;
            JApp[Key + "devices_within_4x"] = true;
          }
        }
      }
      // The bound of the run: its launches' bounds summed.
      double Bound = 0;
      if (AutoRan)
        for (const SkmdLaunchSummary &L : Auto->Launches)
          Bound = L.BoundMs > 0 && Bound >= 0 ? Bound + L.BoundMs : -1;
      std::string VsBound = "-";
      if (Bound > 0) {
        double R = Auto->medianMs() / Bound;
        Sm.LogBound += std::log(R);
        ++Sm.NBound;
        Sm.WorstBound = std::max(Sm.WorstBound, R);
        JApp[Key + "bound_ms"] = Bound;
        JApp[Key + "auto_vs_bound"] = R;
        VsBound = fixed(R, "%.2f") + " (" + msText(Bound) + ")";
      }
      Md << " " << VsVendor << " | " << VsSingle << " | " << VsBound << " | "
         << (AutoRan ? shares(Auto->Launches) : "-") << " |";
      // The same applications through the ICD against the C API's auto:
      // above 1 the platform was slower.
      for (VsAuto &V : OpenCl) {
        if (!AutoRan || Sm.Pinned || V.Index < 0)
          continue;
        const Result &Cl = Row.Results[size_t(V.Index)];
        if (Cl.ok() && !Cl.Ms.empty()) {
          double Ratio = Cl.medianMs() / Auto->medianMs();
          V.LogSum += std::log(Ratio);
          ++V.N;
          JApp[V.Key] = Ratio;
        }
      }
    }
    Md << " " << (Failures.empty() ? "ok" : markdownCell("FAIL: " + Failures)) << " |\n";
    AllOk = AllOk && Failures.empty();
    JApp["ok"] = Failures.empty();
    JApps.push_back(JApp);
  }
  auto Geo = [](double LogSum, unsigned N) { return N ? std::exp(LogSum / N) : 0.0; };
  for (const Summary &Sm : Summaries) {
    const char *Memory = Sm.Pinned ? "page-locked" : "pageable";
    Md << "\nThe model partitioner (auto), SKMD on " << Memory << " buffers: "
       << (Sm.NVendor ? fixed(Geo(Sm.LogVendor, Sm.NVendor), "%.2fx") : std::string("-"))
       << " over the fastest vendor-driver device (geometric mean, " << Sm.NVendor
       << " applications); "
       << (Sm.NSingle ? fixed(Geo(Sm.LogSingle, Sm.NSingle), "%.2fx") : std::string("-"))
       << " over SKMD's fastest single device (" << Sm.NSingle << " applications, the least "
       << (Sm.NSingle ? fixed(Sm.WorstSingle, "%.2fx") : std::string("-")) << "), "
       << (Sm.NNear ? fixed(Geo(Sm.LogNear, Sm.NNear), "%.2fx") : std::string("-"))
       << " over the " << Sm.NNear
       << " where the CPU alone and the fastest other device alone are within 4x; "
       << (Sm.NBound ? fixed(Geo(Sm.LogBound, Sm.NBound), "%.2f") : std::string("-"))
       << " times the bound (" << Sm.NBound << " applications, the most "
       << (Sm.NBound ? fixed(Sm.WorstBound, "%.2f") : std::string("-")) << ").\n";
  }
  for (const VsAuto &V : OpenCl)
    if (V.N)
      Md << "\nThrough the SKMD platform, " << V.Text << " took "
         << fixed(std::exp(V.LogSum / V.N), "%.2fx") << " the C API's auto time (geometric mean, "
         << V.N << " applications).\n";

  if (O.Markdown.empty()) {
    std::fputs(Md.str().c_str(), stdout);
  } else {
    if (!writeWhole(O.Markdown, Md.str())) {
      std::fprintf(stderr, "skmd-bench: cannot write %s\n", O.Markdown.c_str());
      AllOk = false;
    }
  }
  if (!O.Json.empty()) {
    nlohmann::json J = {{"machine", Machine},
                        {"skmd_devices", DeviceText},
                        {"vendor_drivers", VendorText},
                        {"size", O.SizeName},
                        {"scale", O.Scale},
                        {"runs", O.Runs},
                        {"warmups", O.Warmups},
                        {"time_limit_s", O.TimeLimit},
                        {"memories", O.Memories},
                        {"applications", JApps}};
    for (const Summary &Sm : Summaries) {
      const std::string Key = std::string("geomean_") + (Sm.Pinned ? "pinned_" : "");
      if (Sm.NVendor)
        J[Key + "auto_vs_fastest_vendor"] = Geo(Sm.LogVendor, Sm.NVendor);
      if (Sm.NSingle)
        J[Key + "auto_vs_fastest_skmd_single"] = Geo(Sm.LogSingle, Sm.NSingle);
      if (Sm.NNear)
        J[Key + "auto_vs_fastest_skmd_single_within_4x"] = Geo(Sm.LogNear, Sm.NNear);
      if (Sm.NBound)
        J[Key + "auto_vs_bound"] = Geo(Sm.LogBound, Sm.NBound);
    }
    for (const VsAuto &V : OpenCl)
      if (V.N)
        J[std::string("geomean_") + V.Key] = std::exp(V.LogSum / V.N);
    if (!writeWhole(O.Json, J.dump(2) + "\n")) {
      std::fprintf(stderr, "skmd-bench: cannot write %s\n", O.Json.c_str());
      AllOk = false;
    }
  }
  skmd_release_context(Ctx);
  return AllOk ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "skmd-bench: %s\n", E.what());
    return 1;
  }
}
