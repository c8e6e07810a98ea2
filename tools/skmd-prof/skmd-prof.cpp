//===- skmd-prof.cpp - Profile kernels for the model partitioner ----------===//
//
// skmd-prof bundle.skmd kernel --global=N[,N,N] --local=L[,L,L] --arg=SPEC ...
//           [--sizes=S,S,...] [--devices=LIST] [--profile=LIST] [--runs=N]
//           [--db=FILE] [--validate [--validate-sizes=S,...]] [--no-profile]
// skmd-prof --list [--db=FILE]
//
// Runs the profiler (skmd_profile) on generated inputs, at one launch size
// or several (--sizes replaces {n} in --global and --arg), then fits each
// device's model from what the database now holds and prints its held-out
// error. --validate measures the models: fresh dry runs at 10%, 20%, ...,
// 100% of the groups on each device against the predictions. --list shows
// what the database holds.
//
//===----------------------------------------------------------------------===//
#include "batch/Machine.h"
#include "bundle/Bundle.h"
#include "common/ArgSpecs.h"
#include "session/Devices.h"
#include "model/ProfileDatabase.h"
#include "model/Profiler.h"
#include "skmd/skmd.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace skmd;
using namespace skmd::tools;

namespace {

const char *Usage =
    "usage: skmd-prof <bundle.skmd> <kernel> --global=N[,N,N] --local=L[,L,L]\n"
    "                 --arg=SPEC [--arg=SPEC ...] [options]\n"
    "       skmd-prof --list [--db=FILE]\n"
    "       skmd-prof --links [--remeasure] [--devices=LIST] [--db=FILE]\n"
    "\n"
    "Profiles a kernel on each device for the model partitioner: dry runs of\n"
    "its partition-ready form over growing numbers of work-groups (4, 8, 12,\n"
    "16, then doubling, then all of them), each the best of a few runs,\n"
    "recorded in the profile database with each device's copy costs. Then\n"
    "fits each device's model and prints its error on held-out profiles.\n"
    "Launches use the profiles to choose plans (skmd-run --plan=auto, the\n"
    "default once profiles exist).\n"
    "\n"
    "--global, --local and --arg as in skmd-run (see skmd-run --help).\n"
    "\n"
    "Options:\n"
    "  --sizes=S,S,...  profile once per size: each {n} in --global and --arg\n"
    "                   is replaced by it (e.g. --global={n} --arg={n}\n"
    "                   --sizes=1048576,4194304), so that the model learns\n"
    "                   how the kernel's time grows with its inputs\n"
    "  --devices=LIST   devices to open (default: every device found)\n"
    "  --profile=LIST   devices to profile (default: every device opened)\n"
    "  --runs=N         runs per group count, the best kept (default 2)\n"
    "  --db=FILE        the profile database (default: $SKMD_PROFILE_DB, else\n"
    "                   ~/.cache/skmd/profiles.sqlite)\n"
    "  --validate       then measure each model: dry runs of 10%, 20%, ...,\n"
    "                   100% of the groups on each device, best of 3 passes,\n"
    "                   against its predictions; prints the median error\n"
    "  --validate-sizes=S,...  validate at these sizes ({n}) instead of the\n"
    "                   profiled ones (sizes the model has not seen)\n"
    "  --no-profile     validate the profiles the database holds already\n"
    "  --list           list the kernels and devices the database holds\n"
    "  --links          measure the routes copies take (host memory to each\n"
    "                   device and back, page-locked and pageable) alone, both\n"
    "                   ways of a device at once, every device at once, and\n"
    "                   host memory, into the database where missing, and\n"
    "                   print them: what the batch model predicts copies from\n"
    "  --remeasure      with --links: forget every recorded copy cost first\n"
    "  --help           this text\n";

struct Options {
  std::string Bundle, Kernel, Devices, Profile, Db;
  bool HaveDevices = false, HaveProfile = false, List = false, Validate = false,
       NoProfile = false, Links = false, Remeasure = false;
  std::string Global, Local, Offset;
  std::vector<std::string> Args, Sizes, ValidateSizes;
  unsigned Runs = 2;
};

Options parse(int Argc, char **Argv) {
  Options O;
  std::vector<std::string> Positional;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Name) { return optionValue(Argc, Argv, I, Name); };
    if (A == "--help" || A == "-h") {
      std::fputs(Usage, stdout);
      std::exit(0);
    } else if (const char *V = Value("--global")) {
      O.Global = V;
    } else if (const char *V = Value("--local")) {
      O.Local = V;
    } else if (const char *V = Value("--offset")) {
      O.Offset = V;
    } else if (const char *V = Value("--arg")) {
      O.Args.push_back(V);
    } else if (const char *V = Value("--sizes")) {
      O.Sizes = split(V, ',');
      for (const std::string &S : O.Sizes)
        parseCount(S, "--sizes");
    } else if (const char *V = Value("--devices")) {
      O.Devices = V;
      O.HaveDevices = true;
    } else if (const char *V = Value("--profile")) {
      O.Profile = V;
      O.HaveProfile = true;
    } else if (const char *V = Value("--runs")) {
      O.Runs = unsigned(parseCount(V, "--runs"));
      if (O.Runs == 0)
        die("--runs must be at least 1");
    } else if (const char *V = Value("--db")) {
      O.Db = V;
    } else if (const char *V = Value("--validate-sizes")) {
      O.ValidateSizes = split(V, ',');
      for (const std::string &S : O.ValidateSizes)
        parseCount(S, "--validate-sizes");
      O.Validate = true;
    } else if (A == "--validate") {
      O.Validate = true;
    } else if (A == "--no-profile") {
      O.NoProfile = true;
    } else if (A == "--list") {
      O.List = true;
    } else if (A == "--links") {
      O.Links = true;
    } else if (A == "--remeasure") {
      O.Remeasure = true;
    } else if (!A.empty() && A[0] == '-') {
      die("unknown option '" + A + "' (see --help)");
    } else {
      Positional.push_back(A);
    }
  }
  if (O.Remeasure && !O.Links)
    die("--remeasure goes with --links");
  if (O.List || O.Links) {
    if (!Positional.empty())
      die(std::string(O.List ? "--list" : "--links") + " takes no bundle or kernel");
    return O;
  }
  if (Positional.size() != 2)
    die("give a bundle and a kernel name (see --help)");
  O.Bundle = Positional[0];
  O.Kernel = Positional[1];
  if (O.Global.empty() || O.Local.empty())
    die("--global and --local are required");
  bool Placeholder = O.Global.find("{n}") != std::string::npos;
  for (const std::string &A : O.Args)
    Placeholder |= A.find("{n}") != std::string::npos;
  if (Placeholder && O.Sizes.empty())
    die("{n} appears in --global or --arg: give --sizes");
  if (!Placeholder && !O.Sizes.empty())
    die("--sizes needs {n} in --global or an --arg to replace");
  if (O.Sizes.empty())
    O.Sizes.push_back("");
  if (!O.ValidateSizes.empty() && !Placeholder)
    die("--validate-sizes needs {n} in --global or an --arg to replace");
  if (O.ValidateSizes.empty())
    O.ValidateSizes = O.Sizes;
  if (O.NoProfile && !O.Validate)
    die("--no-profile without --validate does nothing");
  return O;
}

std::string substitute(std::string S, const std::string &N) {
  for (size_t At; (At = S.find("{n}")) != std::string::npos;)
    S.replace(At, 3, N);
  return S;
}

int list(const std::string &Path) {
  auto Db = ProfileDatabase::open(Path, /*Create=*/false);
  if (!Db)
    die(Db.error().message());
  auto Rows = (*Db)->summary();
  if (!Rows)
    die(Rows.error().message());
  std::printf("skmd-prof: %s\n", (*Db)->path().c_str());
  if (Rows->empty())
    std::printf("  no profiles\n");
  for (const ProfileDatabase::Summary &S : *Rows)
    std::printf("  %s\n    on %s: %llu profiles, %llu launch shapes\n", S.Kernel.c_str(),
                S.Device.c_str(), (unsigned long long)S.Rows, (unsigned long long)S.Shapes);
  return 0;
}

/// Measures (where missing) and prints the routes of the devices opened.
int links(const Options &O) {
  auto Opened = openDevices(O.HaveDevices ? O.Devices : "");
  if (!Opened)
    die("opening devices: " + Opened.error().message());
  auto Db = ProfileDatabase::open(O.Db);
  if (!Db)
    die(Db.error().message());
  if (O.Remeasure)
    if (Status S = (*Db)->forgetLinks(); !S)
      die(S.error().message());
  std::vector<Device *> Devices;
  std::string Names;
  for (auto &D : Opened->Devices) {
    Devices.push_back(D.get());
    Names += (Names.empty() ? "" : ", ") + D->info().Name;
  }
  std::printf("skmd-prof: the routes of %s, in %s\n", Names.c_str(), (*Db)->path().c_str());
  std::fflush(stdout);
  auto Where = discoverTopology(Devices);
  if (!Where)
    die("the machine's topology: " + Where.error().message());
  auto M = measuredMachine(
      Devices, Opened->Cpu, **Db,
      [](const std::string &Line) {
        std::printf("  %s\n", Line.c_str());
        std::fflush(stdout);
      },
      &*Where);
  if (!M)
    die("measuring the routes: " + M.error().message());
  std::fputs(describeRoutes(*M).c_str(), stdout);
  return 0;
}

void progress(const char *Line, void *) { std::printf("  %s\n", Line); std::fflush(stdout); }

/// One launch's sizes and generated arguments, set on the kernel.
struct Launch {
  std::vector<size_t> Global, Local, Offset;
  std::vector<std::vector<uint8_t>> Buffers;
  std::vector<skmd_buffer> Wrapped;
  std::string Size;
  Launch(skmd_context Ctx, skmd_kernel K, const Options &O, const std::string &N) {
    Global = parseSizes(substitute(O.Global, N), "--global");
    Local = parseSizes(O.Local, "--local");
    if (!O.Offset.empty())
      Offset = parseSizes(O.Offset, "--offset");
    if (Global.size() != Local.size() || (!Offset.empty() && Offset.size() != Global.size()))
      die("--global, --local and --offset need the same number of dimensions");
    std::vector<std::string> Specs;
    for (const std::string &A : O.Args)
      Specs.push_back(substitute(A, N));
    std::vector<skmd_arg_info> Infos;
    Buffers = setArguments(K, O.Kernel, Specs, Infos);
    Wrapped = setBuffers(Ctx, K, Buffers, Infos);
    for (size_t D = 0; D < Global.size(); ++D)
      Size += (D ? "x" : "") + std::to_string(Global[D]);
    if (!N.empty())
      Size += " (n=" + N + ")";
  }
  ~Launch() {
    for (skmd_buffer B : Wrapped)
      skmd_release_buffer(B);
  }
  const size_t *offset() const { return Offset.empty() ? nullptr : Offset.data(); }
  uint64_t groups() const {
    uint64_t G = 1;
    for (size_t D = 0; D < Global.size(); ++D)
      G *= Global[D] / Local[D];
    return G;
  }
};

/// The devices profiled: --profile's, else every device opened.
std::vector<std::string> deviceNames(skmd_context Ctx, const Options &O) {
  if (O.HaveProfile)
    return split(O.Profile, ',');
  std::vector<std::string> Names;
  for (size_t I = 0; I < skmd_device_count(Ctx); ++I) {
    skmd_device_info D;
    skmd_get_device_info(Ctx, I, &D);
    Names.push_back(D.name);
  }
  return Names;
}

/// Each device's model, as launches will fit it, with its held-out error.
void printModels(skmd_context Ctx, const Options &O) {
  auto B = Bundle::fromFile(O.Bundle);
  auto Db = ProfileDatabase::open();
  if (!B || !Db)
    die(!B ? B.error().message() : Db.error().message());
  const KernelInfo *Info = B->metadata().findKernel(O.Kernel);
  std::printf("models:\n");
  for (size_t I = 0; I < skmd_device_count(Ctx); ++I) {
    skmd_device_info D;
    skmd_get_device_info(Ctx, I, &D);
    DeviceInfo Dev;
    Dev.Name = D.name;
    Dev.Description = D.description;
    auto Rows = (*Db)->rows(kernelKey(B->metadata(), *Info), deviceKey(Dev));
    if (!Rows || Rows->empty())
      continue;
    auto Model = fitKernelModel(*Rows);
    if (!Model) {
      std::printf("  %-10s %zu profiles: %s\n", D.name, Rows->size(),
                  Model.error().message().c_str());
      continue;
    }
    std::printf("  %-10s %zu profiles, held-out median error %.1f%%\n", D.name, Rows->size(),
                100 * Model->heldOutError());
  }
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (V[M - 1] + V[M]) / 2;
}

/// Dry runs at 10%, ..., 100% of the groups against the models.
int validate(skmd_context Ctx, skmd_kernel K, const Options &O,
             const std::vector<std::string> &Devices) {
  std::printf("validation (dry runs, best of 3 passes; error = (predicted - measured) / measured):\n");
  std::vector<double> All;
  for (const std::string &N : O.ValidateSizes) {
    Launch L(Ctx, K, O, N);
    std::printf("size %s:\n  %-10s %10s %12s %12s %8s\n", L.Size.c_str(), "device", "groups",
                "measured ms", "predicted ms", "error");
    std::vector<uint64_t> Counts;
    for (int Tenth = 1; Tenth <= 10; ++Tenth)
      Counts.push_back(std::max<uint64_t>(1, L.groups() * uint64_t(Tenth) / 10));
    for (const std::string &Dev : Devices) {
      std::vector<double> Measured(Counts.size()), Predicted(Counts.size());
      check(skmd_check_model(K, uint32_t(L.Global.size()), L.offset(), L.Global.data(),
                             L.Local.data(), Dev.c_str(), Counts.data(), Counts.size(), 3,
                             Measured.data(), Predicted.data()),
            "validating on " + Dev);
      for (size_t I = 0; I < Counts.size(); ++I) {
        double Err = Measured[I] > 0 ? (Predicted[I] - Measured[I]) / Measured[I] : 0;
        All.push_back(std::fabs(Err));
        std::printf("  %-10s %10llu %12.4f %12.4f %+7.1f%%\n", Dev.c_str(),
                    (unsigned long long)Counts[I], Measured[I], Predicted[I], 100 * Err);
      }
    }
  }
  std::printf("median prediction error: %.1f%% over %zu points (counts of 10%% to 100%% "
              "of the groups)\n",
              100 * median(All), All.size());
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolName = "skmd-prof";
  Options O = parse(Argc, Argv);
  if (!O.Db.empty())
    setenv("SKMD_PROFILE_DB", O.Db.c_str(), 1);
  if (O.List)
    return list(O.Db);
  if (O.Links)
    return links(O);

  skmd_context Ctx;
  check(skmd_init(O.HaveDevices ? O.Devices.c_str() : nullptr, &Ctx), "opening devices");
  skmd_set_progress(Ctx, progress, nullptr);
  skmd_program Prog;
  check(skmd_load_bundle(Ctx, O.Bundle.c_str(), &Prog), "loading " + O.Bundle);
  skmd_kernel K;
  check(skmd_get_kernel(Prog, O.Kernel.c_str(), &K), "kernel");
  std::printf("skmd-prof: %s from %s, into %s\n", O.Kernel.c_str(), O.Bundle.c_str(),
              ProfileDatabase::defaultPath().c_str());

  std::vector<std::string> Profiled = deviceNames(Ctx, O);
  if (!O.NoProfile)
    for (const std::string &N : O.Sizes) {
      Launch L(Ctx, K, O, N);
      std::printf("size %s:\n", L.Size.c_str());
      check(skmd_profile(K, uint32_t(L.Global.size()), L.offset(), L.Global.data(),
                         L.Local.data(), O.HaveProfile ? O.Profile.c_str() : nullptr, O.Runs),
            "profiling");
    }
  if (!O.NoProfile)
    printModels(Ctx, O);
  int Exit = 0;
  if (O.Validate)
    Exit = validate(Ctx, K, O, Profiled);
  skmd_release_context(Ctx);
  return Exit;
}
