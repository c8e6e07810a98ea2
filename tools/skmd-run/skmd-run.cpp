//===- skmd-run.cpp - Run a kernel of a bundle on generated inputs --------===//
//
// skmd-run bundle.skmd kernel --global=N[,N,N] --local=L[,L,L]
//          --arg=SPEC ... [--devices=LIST] [--plan=PLAN] [--explain]
//          [--check] [--repeat=N] [--trace=out.json]
//
// Generates the kernel's inputs from the --arg specs, runs it through the
// public API (include/skmd/skmd.h) and prints the plan, each device's times
// and bytes, and, with --check, a comparison with the same launch on the
// CPU alone. Written buffers are compared bit for bit when every device
// runs the x86 variant; floats within --tolerance otherwise.
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "common/ArgSpecs.h"
#include "common/Trace.h"
#include "devices/opencl/ReferenceRun.h"
#include "skmd/skmd.h"


#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace skmd::tools;

namespace {

const char *Usage =
    "usage: skmd-run <bundle.skmd> <kernel> --global=N[,N,N] --local=L[,L,L]\n"
    "                --arg=SPEC [--arg=SPEC ...] [options]\n"
    "\n"
    "Runs a kernel of a bundle made by skmd-cc on generated inputs, across\n"
    "the devices, and prints the partition, the times and the bytes moved.\n"
    "\n"
    "One --arg per kernel argument, in order:\n"
    "  buffer    COUNT[:FILL[:SEED]]  COUNT elements of the pointee type\n"
    "            (a number or a product, e.g. 1024*1024);\n"
    "            FILL: random (default; [0,1) for floats, 0..99 for\n"
    "            integers), zero, iota, a number, or LO..HI (uniform in\n"
    "            [LO, HI]); a buffer of structs fills every member\n"
    "  value     the value, e.g. 1000, -3, 2.5; a vector or struct: one\n"
    "            value for all its scalars or one each, comma-separated\n"
    "            (members in order), e.g. 1.5,2,3\n"
    "  __local   its size in bytes\n"
    "\n"
    "Options:\n"
    "  --devices=LIST  devices to open: cpu, discrete, cuda, cuda:N, opencl,\n"
    "                  opencl:N, remote:<address> (a server's), shared (this\n"
    "                  node's skmd-server's), comma-separated (default: every\n"
    "                  device found)\n"
    "  --plan=PLAN     auto: the model partitioner (needs profiles: skmd-prof,\n"
    "                  or SKMD_PROFILE=auto); linear: shares by predicted\n"
    "                  throughput; proportional, even, cpu, gpu0, discrete0,\n"
    "                  manual:cpu=0.3,gpu0=0.7; gpu0@8 (8 pipelined chunks;\n"
    "                  else the model's count). Default: auto where the\n"
    "                  profiles suffice, else proportional\n"
    "  --explain       print the predicted times per device before the run\n"
    "                  and the prediction error after it (as SKMD_EXPLAIN=1)\n"
    "  --pinned        put the buffers in page-locked memory (skmd_alloc_host),\n"
    "                  which GPUs copy by DMA, not through the staging pool\n"
    "  --memory=KIND   pageable (default), pinned (as --pinned), or both: the\n"
    "                  runs on each, reported side by side (and checked)\n"
    "  --offset=N[,N,N]  global offset\n"
    "  --check         compare every written buffer with a CPU-only run\n"
    "  --check=opencl[:N]  also run the kernel as written (the source the\n"
    "                  bundle carries) on OpenCL device N of the installed\n"
    "                  drivers (default 0: PoCL, Intel's or NVIDIA's), an\n"
    "                  independent reference, and say per buffer which of\n"
    "                  this plan, SKMD's CPU and the driver agree; where\n"
    "                  floats differ, a run of the source with doubles for\n"
    "                  floats on the same driver decides: SKMD passes when\n"
    "                  its error is at most twice the driver's (rounding),\n"
    "                  or, where the driver's is beyond 1e-3, clearly less\n"
    "  --tolerance=X   relative error allowed for floats when two runs used\n"
    "                  different code (default 1e-5)\n"
    "  --ulp=N         ... or this many units in the last place (default 4,\n"
    "                  OpenCL's bound for most math functions)\n"
    "  --repeat=N      run N times, report each and the median (default 1)\n"
    "  --print=ARG[:N] after the run, print the first N elements (default 8)\n"
    "                  of buffer ARG (its name or index); may repeat\n"
    "  --trace=FILE    write the last run as a Chrome trace (open it in\n"
    "                  Perfetto): the launch's batch, a row per engine (a\n"
    "                  device's copies in, kernels, copies out; the host),\n"
    "                  each operation as it ran and as the plan predicted\n"
    "  --help          this text\n";

struct Options {
  std::string Bundle, Kernel, Devices, Plan, Trace;
  bool HaveDevices = false, Check = false, Explain = false;
  /// Page-locked buffers or not, in the order run.
  std::vector<bool> Memories{false};
  std::vector<size_t> Global, Local, Offset;
  std::vector<std::string> Args, Print;
  unsigned Repeat = 1;
  double Tolerance = 1e-5;
  unsigned Ulps = 4;
  /// --check=opencl[:N]: also against the kernel's source on OpenCL
  /// device N of the installed drivers.
  bool Reference = false;
  unsigned ReferenceDevice = 0;
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
      O.Global = parseSizes(V, "--global");
    } else if (const char *V = Value("--local")) {
      O.Local = parseSizes(V, "--local");
    } else if (const char *V = Value("--offset")) {
      O.Offset = parseSizes(V, "--offset");
    } else if (const char *V = Value("--arg")) {
      O.Args.push_back(V);
    } else if (const char *V = Value("--devices")) {
      O.Devices = V;
      O.HaveDevices = true;
    } else if (const char *V = Value("--plan")) {
      O.Plan = V;
    } else if (const char *V = Value("--print")) {
      O.Print.push_back(V);
    } else if (const char *V = Value("--trace")) {
      O.Trace = V;
    } else if (const char *V = Value("--repeat")) {
      O.Repeat = unsigned(parseCount(V, "--repeat"));
      if (O.Repeat == 0)
        die("--repeat must be at least 1");
    } else if (const char *V = Value("--tolerance")) {
      O.Tolerance = std::atof(V);
    } else if (A == "--check" || A == "--check=cpu") {
      O.Check = true;
    } else if (A.rfind("--check=opencl", 0) == 0 &&
               (A.size() == 14 || A[14] == ':')) {
      O.Check = O.Reference = true;
      if (A.size() > 14)
        O.ReferenceDevice = unsigned(parseCount(A.substr(15), "--check=opencl:N"));
    } else if (A.rfind("--check=", 0) == 0) {
      die("--check takes cpu or opencl[:N], not '" + A.substr(8) + "'");
    } else if (const char *V = Value("--ulp")) {
      O.Ulps = unsigned(parseCount(V, "--ulp"));
    } else if (A == "--explain") {
      O.Explain = true;
    } else if (A == "--pinned") {
      O.Memories = {true};
    } else if (const char *V = Value("--memory")) {
      std::string M = V;
      if (M != "pageable" && M != "pinned" && M != "both")
        die("--memory takes pageable, pinned or both, not '" + M + "'");
      O.Memories = M == "both" ? std::vector<bool>{false, true} : std::vector<bool>{M == "pinned"};
    } else if (!A.empty() && A[0] == '-') {
      die("unknown option '" + A + "' (see --help)");
    } else {
      Positional.push_back(A);
    }
  }
  if (Positional.size() != 2)
    die("give a bundle and a kernel name (see --help)");
  O.Bundle = Positional[0];
  O.Kernel = Positional[1];
  if (O.Global.empty() || O.Local.empty())
    die("--global and --local are required");
  if (O.Global.size() != O.Local.size() ||
      (!O.Offset.empty() && O.Offset.size() != O.Global.size()))
    die("--global, --local and --offset need the same number of dimensions");
  return O;
}

struct Launched {
  std::vector<std::vector<uint8_t>> Buffers; ///< Per argument; empty if none.
  skmd_launch_report Report;
  skmd_status Status;
  std::string Error;
};

/// One launch on \p Ctx with fresh copies of \p Initial.
Launched runOnce(skmd_context Ctx, skmd_kernel K, const Options &O,
                 const std::vector<std::vector<uint8_t>> &Initial,
                 const std::vector<skmd_arg_info> &Infos, const char *Plan, bool Pinned) {
  Launched L;
  L.Buffers = Initial;
  // --pinned: the buffers in page-locked memory from skmd_alloc_host, which
  // GPUs copy by DMA; the results come back to L.Buffers for the check.
  std::vector<std::pair<void *, size_t>> Memory;
  for (std::vector<uint8_t> &B : L.Buffers) {
    void *At = B.data();
    if (Pinned && !B.empty()) {
      At = skmd_alloc_host(Ctx, B.size());
      if (!At)
        die("--pinned: no page-locked memory for " + std::to_string(B.size()) + " bytes");
      std::memcpy(At, B.data(), B.size());
    }
    Memory.push_back({At, B.size()});
  }
  std::vector<skmd_buffer> Wrapped = setBuffers(Ctx, K, Memory, Infos);
  L.Status = skmd_launch(K, uint32_t(O.Global.size()),
                         O.Offset.empty() ? nullptr : O.Offset.data(),
                         O.Global.data(), O.Local.data(), Plan, &L.Report);
  L.Error = skmd_last_error();
  for (skmd_buffer B : Wrapped)
    skmd_release_buffer(B);
  for (size_t I = 0; I < Memory.size(); ++I)
    if (Memory[I].first != L.Buffers[I].data()) {
      std::memcpy(L.Buffers[I].data(), Memory[I].first, Memory[I].second);
      skmd_free_host(Ctx, Memory[I].first);
    }
  return L;
}

void printReport(const skmd_launch_report &R) {
  std::printf("  %-10s %-22s %6s %6s %9s %9s %9s %9s %9s %9s\n", "device", "groups",
              "share", "chunks", "input ms", "kernel ms", "output ms", "merge ms", "MB in",
              "MB out");
  for (size_t I = 0; I < R.piece_count; ++I) {
    const skmd_piece_report &P = R.pieces[I];
    char Groups[64];
    std::snprintf(Groups, sizeof Groups, "[%llu, %llu)",
                  (unsigned long long)P.first_group,
                  (unsigned long long)(P.first_group + P.group_count));
    std::printf("  %-10s %-22s %5.1f%% %6u %9.3f %9.3f %9.3f %9.3f %9.2f %9.2f%s\n",
                P.device, Groups, 100.0 * double(P.group_count) / double(R.total_groups),
                P.chunks, P.input_ms, P.kernel_ms, P.output_ms, P.merge_ms, P.bytes_in / 1e6,
                P.bytes_out / 1e6, P.failed ? "  FAILED, re-run on the CPU" : "");
  }
}

/// The last run's batch, as it ran and as predicted.
void writeLaunchTrace(const std::string &Path, const skmd_launch_report &R,
                      const std::string &Kernel) {
  std::vector<TracedOperation> Ops;
  for (size_t I = 0; I < R.operation_count; ++I) {
    const skmd_operation_report &Op = R.operations[I];
    Ops.push_back({Op.label, Op.engine, Op.start_ms, Op.end_ms, Op.end_ms > 0,
                   Op.predicted_start_ms, Op.predicted_end_ms});
  }
  writeTrace(Path, Kernel, Ops);
}

/// The value of the float scalar of type \p T at \p At.
double floatAt(const uint8_t *At, const std::string &T) {
  if (T == "double") {
    double D;
    std::memcpy(&D, At, 8);
    return D;
  }
  if (T == "float") {
    float F;
    std::memcpy(&F, At, 4);
    return F;
  }
  uint16_t H;
  std::memcpy(&H, At, 2);
  int Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  double V = Exp == 0    ? std::ldexp(Man, -24)
             : Exp == 31 ? (Man ? NAN : INFINITY)
                         : std::ldexp(Man | 0x400, Exp - 25);
  return (H & 0x8000) ? -V : V;
}

/// One scalar of OpenCL type \p T at \p At, as text.
std::string scalarText(const uint8_t *At, const std::string &T) {
  char Text[64];
  if (isFloatType(T)) {
    std::snprintf(Text, sizeof Text, "%.9g", floatAt(At, T));
    return Text;
  }
  uint64_t Raw = 0;
  unsigned Size = skmd::scalarTypeBytes(T);
  std::memcpy(&Raw, At, Size);
  if (T[0] == 'u' || Size == 8) {
    if (T[0] == 'u')
      std::snprintf(Text, sizeof Text, "%llu", (unsigned long long)Raw);
    else
      std::snprintf(Text, sizeof Text, "%lld", (long long)Raw);
    return Text;
  }
  unsigned Shift = 64 - 8 * Size;
  std::snprintf(Text, sizeof Text, "%lld", (long long)(int64_t(Raw << Shift) >> Shift));
  return Text;
}

/// Prints the first elements of buffers as --print asks.
void printBuffers(const std::vector<std::string> &Specs, skmd_kernel K,
                  const std::vector<skmd_arg_info> &Infos,
                  const std::vector<std::vector<uint8_t>> &Buffers) {
  for (const std::string &Spec : Specs) {
    std::vector<std::string> Parts = split(Spec, ':');
    if (Parts.size() > 2)
      die("--print: '" + Spec + "' is not ARG[:N]");
    unsigned Index = unsigned(Infos.size());
    for (unsigned I = 0; I < Infos.size(); ++I)
      if (Parts[0] == Infos[I].name)
        Index = I;
    if (Index == Infos.size() && !Parts[0].empty() &&
        Parts[0].find_first_not_of("0123456789") == std::string::npos)
      Index = unsigned(parseCount(Parts[0], "--print"));
    if (Index >= Infos.size() || Buffers[Index].empty())
      die("--print: '" + Parts[0] + "' is not a buffer argument of the kernel");
    const skmd_arg_info &Info = Infos[Index];
    uint64_t Want = Parts.size() > 1 ? parseCount(Parts[1], "--print count") : 8;
    std::vector<skmd_scalar_run> Layout = argLayout(K, Index, Info);
    size_t Elem = Info.element_size ? Info.element_size : 1;
    uint64_t N = std::min<uint64_t>(Want, Buffers[Index].size() / Elem);
    std::printf("  %s:", Info.name);
    for (uint64_t E = 0; E < N; ++E) {
      const uint8_t *Base = Buffers[Index].data() + E * Elem;
      std::string Item;
      size_t Scalars = 0;
      for (const skmd_scalar_run &R : Layout)
        for (size_t I = 0; I < R.count; ++I, ++Scalars)
          Item += (Scalars ? ", " : "") +
                  scalarText(Base + R.offset + I * skmd::scalarTypeBytes(R.type), R.type);
      if (Layout.empty()) {
        char Hex[4];
        for (size_t B = 0; B < Elem; ++B, ++Scalars) {
          std::snprintf(Hex, sizeof Hex, "%02x", Base[B]);
          Item += Hex;
        }
      }
      std::printf(" %s", Scalars > 1 && !Layout.empty() ? ("{" + Item + "}").c_str()
                                                        : Item.c_str());
    }
    std::printf("\n");
  }
}

/// How many representable values of type \p T lie between \p A and \p B
/// (both finite or both infinite).
double ulpsApart(double A, double B, const std::string &T) {
  auto Ordered = [&](double V) -> int64_t {
    if (T == "double") {
      int64_t I;
      std::memcpy(&I, &V, 8);
      return I < 0 ? INT64_MIN - I : I;
    }
    float F = float(V); // half values are exact floats: count in float ulps / 8192
    int32_t I;
    std::memcpy(&I, &F, 4);
    return I < 0 ? int64_t(INT32_MIN) - I : I;
  };
  double D = std::fabs(double(Ordered(A)) - double(Ordered(B)));
  return T == "half" ? D / 8192 : D;
}

/// Empty if \p Got matches \p Want, else what differs. Integers and bytes
/// outside a known layout compare exactly; floats within \p Tolerance or
/// \p Ulps unless \p Exact, every NaN equal to every NaN.
std::string compare(const skmd_arg_info &Info, const std::vector<skmd_scalar_run> &Layout,
                    const std::vector<uint8_t> &Got, const std::vector<uint8_t> &Want,
                    bool Exact, double Tolerance, unsigned Ulps, double &WorstRel) {
  bool HasFloats = false;
  for (const skmd_scalar_run &R : Layout)
    HasFloats |= isFloatType(R.type);
  if (Exact || !HasFloats) {
    for (size_t I = 0; I < Got.size(); ++I)
      if (Got[I] != Want[I])
        return "byte " + std::to_string(I) + " differs";
    return "";
  }
  size_t Elem = Info.element_size ? Info.element_size : 1, Bad = 0, First = 0;
  std::string FirstWhat;
  for (size_t E = 0; E + Elem <= Got.size(); E += Elem)
    for (const skmd_scalar_run &R : Layout) {
      std::string T = R.type;
      bool Float = isFloatType(T);
      size_t Size = skmd::scalarTypeBytes(T);
      for (size_t I = 0; I < R.count; ++I) {
        size_t At = E + R.offset + I * Size;
        bool Differs;
        if (Float) {
          double G = floatAt(&Got[At], T), W = floatAt(&Want[At], T);
          if (std::isnan(G) && std::isnan(W))
            continue;
          double Rel = G == W ? 0 : std::fabs(G - W) / std::max(std::fabs(W), 1e-30);
          WorstRel = std::max(WorstRel, Rel);
          Differs = !(Rel <= Tolerance) && !(ulpsApart(G, W, T) <= Ulps);
        } else {
          Differs = std::memcmp(&Got[At], &Want[At], Size) != 0;
        }
        if (Differs && Bad++ == 0) {
          First = E / Elem;
          FirstWhat = Float ? "off by more than " + std::to_string(Tolerance) + " and " +
                                  std::to_string(Ulps) + " ulp"
                            : "differs";
        }
      }
    }
  if (Bad)
    return std::to_string(Bad) + " scalars differ (first: element " + std::to_string(First) +
           ", " + FirstWhat + ")";
  return "";
}

/// Whether every scalar of \p Layout is a float: such an argument becomes
/// its double twin in a ReferencePrecision::Double run, twice the bytes with
/// every offset doubled (float3's 16 bytes are double3's 32).
bool allFloats(const std::vector<skmd_scalar_run> &Layout) {
  if (Layout.empty())
    return false;
  for (const skmd_scalar_run &R : Layout)
    if (std::string(R.type) != "float")
      return false;
  return true;
}

/// Calls \p Fn with the byte offset of every float in \p Bytes bytes of
/// elements of \p Elem bytes laid out as \p Layout (all floats); the same
/// float of the double twin is at twice the offset.
template <typename FnT>
void forEachFloat(size_t Bytes, size_t Elem, const std::vector<skmd_scalar_run> &Layout,
                  FnT Fn) {
  for (size_t E = 0; E + Elem <= Bytes; E += Elem)
    for (const skmd_scalar_run &R : Layout)
      for (size_t I = 0; I < R.count; ++I)
        Fn(E + R.offset + 4 * I);
}

/// \p Bytes, elements of \p Elem bytes laid out as \p Layout (all floats),
/// with every float widened to a double in place.
std::vector<uint8_t> promote(const std::vector<uint8_t> &Bytes, size_t Elem,
                             const std::vector<skmd_scalar_run> &Layout) {
  std::vector<uint8_t> Out(2 * Bytes.size());
  forEachFloat(Bytes.size(), Elem, Layout, [&](size_t At) {
    double D = floatAt(&Bytes[At], "float");
    std::memcpy(&Out[2 * At], &D, 8);
  });
  return Out;
}

/// The kernel's source on the driver of --check=opencl, on the launch's
/// inputs; the buffers it leaves, per argument. With
/// ReferencePrecision::Double every all-float argument goes in promoted.
skmd::Result<std::vector<std::vector<uint8_t>>>
runOnDriver(const Options &O, const skmd::BundleSource &Source, skmd_kernel K,
            const std::vector<skmd_arg_info> &Infos,
            const std::vector<std::vector<uint8_t>> &Initial, skmd::ReferencePrecision Precision,
            std::string &Device) {
  bool Double = Precision == skmd::ReferencePrecision::Double;
  std::vector<std::vector<uint8_t>> Out = Initial;
  std::vector<skmd::ReferenceArg> Args(Infos.size());
  for (unsigned I = 0; I < Infos.size(); ++I) {
    std::vector<skmd_scalar_run> Layout = argLayout(K, I, Infos[I]);
    bool Widen = Double && allFloats(Layout);
    size_t Elem = Infos[I].element_size ? Infos[I].element_size : 1;
    switch (Infos[I].kind) {
    case SKMD_ARG_GLOBAL_BUFFER:
    case SKMD_ARG_CONSTANT_BUFFER:
      if (Widen)
        Out[I] = promote(Out[I], Elem, Layout);
      Args[I].K = skmd::ReferenceArg::Buffer;
      Args[I].Data = &Out[I];
      break;
    case SKMD_ARG_LOCAL:
      Args[I].K = skmd::ReferenceArg::Local;
      Args[I].LocalBytes = parseCount(O.Args[I], "local size") * (Widen ? 2 : 1);
      break;
    default:
      Args[I].Bytes = scalarValue(Infos[I], Layout, O.Args[I]);
      if (Widen)
        Args[I].Bytes = promote(Args[I].Bytes, Args[I].Bytes.size(), Layout);
    }
  }
  skmd::Status S = skmd::runReference(
      Source, O.Kernel, O.ReferenceDevice, unsigned(O.Global.size()),
      O.Offset.empty() ? nullptr : O.Offset.data(), O.Global.data(), O.Local.data(), Args,
      Device, Precision);
  if (!S)
    return S.error();
  return Out;
}

/// The largest difference between the floats of \p Got and the doubles of
/// \p Exact (the same buffer from a double-precision run), relative to the
/// largest magnitude in \p Exact: the normwise error, which near-zero
/// elements of an FFT or a difference do not blow up.
double normwiseError(const std::vector<uint8_t> &Got, const std::vector<uint8_t> &Exact,
                     size_t Elem, const std::vector<skmd_scalar_run> &Layout) {
  double Worst = 0, Scale = 0;
  forEachFloat(Got.size(), Elem, Layout, [&](size_t At) {
    double G = floatAt(&Got[At], "float"), X = floatAt(&Exact[2 * At], "double");
    if (std::isnan(G) && std::isnan(X))
      return;
    if (std::isnan(G) || std::isnan(X) || ((std::isinf(G) || std::isinf(X)) && G != X))
      Worst = INFINITY;
    else if (!std::isinf(X))
      Worst = std::max(Worst, std::fabs(G - X));
    Scale = std::max(Scale, std::isinf(X) ? 0.0 : std::fabs(X));
  });
  return Worst == 0 ? 0 : Worst / std::max(Scale, 1e-30);
}

/// The double-precision arbiter of --check=opencl: the kernel's source
/// with doubles for floats on the reference driver, run at most once, on
/// first need. It tells rounding (another exp, a fused multiply-add,
/// another summation order) from a wrong answer.
class Arbiter {
public:
  Arbiter(const Options &O, const skmd::BundleSource &Source, skmd_kernel K,
          const std::vector<skmd_arg_info> &Infos,
          const std::vector<std::vector<uint8_t>> &Initial)
      : O(O), Source(Source), K(K), Infos(Infos), Initial(Initial) {}

  /// Whether \p Candidate's floats in argument \p Arg are as close to the
  /// double-precision run as \p Baseline's: within twice its normwise
  /// error, or a few float epsilons; where \p Baseline's error exceeds
  /// 1e-3, clearly closer. \p Line gets the errors, or why there
  /// is no arbiter. False for arguments that are not all floats.
  bool asAccurate(unsigned Arg, const std::vector<uint8_t> &Candidate,
                  const std::vector<uint8_t> &Baseline, const char *CandidateName,
                  const char *BaselineName, std::string &Line) {
    std::vector<skmd_scalar_run> Layout = argLayout(K, Arg, Infos[Arg]);
    if (!allFloats(Layout))
      return false;
    if (!Ran) {
      Ran = true;
      std::string Device;
      auto R = runOnDriver(O, Source, K, Infos, Initial, skmd::ReferencePrecision::Double,
                           Device);
      if (R)
        Exact = std::move(*R);
      else
        Why = R.error().message();
    }
    if (!Why.empty()) {
      Line += "; no double-precision run to tell rounding from a fault: " + Why;
      return false;
    }
    size_t Elem = Infos[Arg].element_size ? Infos[Arg].element_size : 1;
    double Mine = normwiseError(Candidate, Exact[Arg], Elem, Layout);
    double Theirs = normwiseError(Baseline, Exact[Arg], Elem, Layout);
    // Where the other side is itself far from the double run (beyond
    // 1e-3), the double run is no oracle for "as close": two far answers
    // may both be legal (slots an atomic counter hands out, in another
    // order). SKMD passes then only where it is clearly closer.
    const double Eps = 1.1920929e-7, Far = 1e-3;
    bool Ok = Theirs <= Far ? Mine <= std::max(2 * Theirs, 8 * Eps)
                            : Mine <= Far || Mine <= Theirs / 2;
    char Errors[200];
    std::snprintf(Errors, sizeof Errors,
                  "against a double-precision run, %s's error %.3g, %s's %.3g%s", CandidateName,
                  Mine, BaselineName, Theirs,
                  Theirs > Far ? (Ok ? " (closer than the other side)"
                                     : " (both far from it: not rounding)")
                               : "");
    Line = Ok ? std::string("rounding: ") + Errors + " (" + Line + ")" : Line + "; " + Errors;
    return Ok;
  }

private:
  const Options &O;
  const skmd::BundleSource &Source;
  skmd_kernel K;
  const std::vector<skmd_arg_info> &Infos;
  const std::vector<std::vector<uint8_t>> &Initial;
  bool Ran = false;
  std::vector<std::vector<uint8_t>> Exact;
  std::string Why;
};

/// --check=opencl: the kernel's source on an installed OpenCL driver, and
/// per written buffer which of the plan, SKMD's CPU and the driver agree.
/// Float buffers beyond the tolerance go to \p Arb: SKMD passes when its
/// error against the double-precision run is at most twice the driver's.
/// False when the plan or SKMD's CPU differs and the arbiter does not
/// clear it.
bool checkAgainstDriver(const Options &O, const skmd::BundleSource &Source, skmd_kernel K,
                        const std::vector<skmd_arg_info> &Infos,
                        const std::vector<std::vector<uint8_t>> &Initial, const Launched &Plan,
                        const Launched &Cpu, Arbiter &Arb) {
  std::string Device;
  auto Out = runOnDriver(O, Source, K, Infos, Initial, skmd::ReferencePrecision::AsWritten,
                         Device);
  if (!Out)
    die("--check=opencl: " + Out.error().message());

  bool Ok = true, Rounding = false;
  double WorstRel = 0;
  std::string Lines;
  for (unsigned I = 0; I < Infos.size(); ++I) {
    if ((*Out)[I].empty() || !Infos[I].written)
      continue;
    std::vector<skmd_scalar_run> Layout = argLayout(K, I, Infos[I]);
    std::string PlanWhy = compare(Infos[I], Layout, Plan.Buffers[I], (*Out)[I], false,
                                  O.Tolerance, O.Ulps, WorstRel);
    std::string CpuWhy = compare(Infos[I], Layout, Cpu.Buffers[I], (*Out)[I], false,
                                 O.Tolerance, O.Ulps, WorstRel);
    if (PlanWhy.empty() && CpuWhy.empty())
      continue;
    std::string Line =
        CpuWhy.empty()    ? "SKMD's CPU agrees with the driver; this plan does not: " + PlanWhy
        : PlanWhy.empty() ? "this plan agrees with the driver; SKMD's CPU does not: " + CpuWhy
                          : "this plan and SKMD's CPU both differ from the driver: " + PlanWhy;
    // SKMD's CPU result where it differs, else the plan's, goes to the
    // arbiter (and names the errors); where both differ, the plan must
    // clear too.
    const std::vector<uint8_t> &First = CpuWhy.empty() ? Plan.Buffers[I] : Cpu.Buffers[I];
    bool Cleared = Arb.asAccurate(I, First, (*Out)[I], "SKMD", "the driver", Line);
    if (Cleared && !PlanWhy.empty() && !CpuWhy.empty()) {
      std::string Unused = Line;
      Cleared = Arb.asAccurate(I, Plan.Buffers[I], (*Out)[I], "SKMD", "the driver", Unused);
    }
    Ok &= Cleared;
    Rounding |= Cleared;
    Lines += std::string("         ") + Infos[I].name + ": " + Line + "\n";
  }
  if (!Ok)
    std::printf("  check: FAILED against %s:\n%s", Device.c_str(), Lines.c_str());
  else if (Rounding)
    std::printf("  check: ok against %s, up to rounding:\n%s", Device.c_str(), Lines.c_str());
  else
    std::printf("  check: ok, every written buffer of this plan and of SKMD's CPU matches "
                "%s (largest relative difference %.3g)\n",
                Device.c_str(), WorstRel);
  return Ok;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolName = "skmd-run";
  Options O = parse(Argc, Argv);
  skmd_context Ctx;
  check(skmd_init(O.HaveDevices ? O.Devices.c_str() : nullptr, &Ctx), "opening devices");
  if (O.Explain)
    skmd_set_explain(Ctx, 1);
  skmd_program Prog;
  check(skmd_load_bundle(Ctx, O.Bundle.c_str(), &Prog), "loading " + O.Bundle);
  skmd_kernel K;
  check(skmd_get_kernel(Prog, O.Kernel.c_str(), &K), "kernel");

  std::vector<skmd_arg_info> Infos;
  std::vector<std::vector<uint8_t>> Initial = setArguments(K, O.Kernel, O.Args, Infos);
  size_t NumArgs = Infos.size();

  std::printf("skmd-run: %s from %s\n  devices:", O.Kernel.c_str(), O.Bundle.c_str());
  bool AllX86 = true;
  for (size_t I = 0; I < skmd_device_count(Ctx); ++I) {
    skmd_device_info D;
    skmd_get_device_info(Ctx, I, &D);
    std::printf(" %s (%s)%s", D.name, D.description,
                I + 1 < skmd_device_count(Ctx) ? "," : "\n");
    AllX86 &= D.kind == SKMD_DEVICE_CPU || D.kind == SKMD_DEVICE_HOST_DISCRETE;
  }
  const char *Plan = O.Plan.empty() ? nullptr : O.Plan.c_str();

  // Each memory kind's runs, one after the other (--memory=both: pageable,
  // then page-locked).
  std::vector<Launched> Lasts;
  int Exit = 0;
  for (bool Pinned : O.Memories) {
    if (O.Memories.size() > 1)
      std::printf("  on %s buffers:\n", Pinned ? "page-locked" : "pageable");
    std::vector<double> Totals;
    Launched Last;
    for (unsigned Run = 0; Run < O.Repeat; ++Run) {
      Last = runOnce(Ctx, K, O, Initial, Infos, Plan, Pinned);
      if (Last.Status != SKMD_SUCCESS && Last.Status != SKMD_ERROR_DEVICE_FAILED)
        die("launch: " + Last.Error);
      if (Last.Status == SKMD_ERROR_DEVICE_FAILED)
        std::fprintf(stderr, "skmd-run: warning: %s\n", Last.Error.c_str());
      Totals.push_back(Last.Report.total_ms);
      if (Run == 0)
        std::printf("  plan %s: %llu groups\n", Last.Report.plan,
                    (unsigned long long)Last.Report.total_groups);
      if (O.Repeat > 1)
        std::printf("  run %u: %.3f ms\n", Run + 1, Last.Report.total_ms);
    }
    printReport(Last.Report);
    printBuffers(O.Print, K, Infos, Last.Buffers);
    std::vector<double> Sorted = Totals;
    std::sort(Sorted.begin(), Sorted.end());
    std::printf("  total %.3f ms%s, of which planning %.3f ms", Sorted[Sorted.size() / 2],
                O.Repeat > 1 ? (" (median of " + std::to_string(O.Repeat) + ")").c_str() : "",
                Last.Report.plan_ms);
    if (Last.Report.predicted_ms > 0)
      std::printf("; the model predicted %.3f ms after planning", Last.Report.predicted_ms);
    if (Last.Report.bound_ms > 0)
      std::printf("; bound %.3f ms (total / bound %.2f)", Last.Report.bound_ms,
                  Sorted[Sorted.size() / 2] / Last.Report.bound_ms);
    std::printf("\n");
    if (!O.Trace.empty() && Lasts.empty()) {
      writeLaunchTrace(O.Trace, Last.Report, O.Kernel);
      std::printf("  trace: %s\n", O.Trace.c_str());
    }
    if (Last.Status != SKMD_SUCCESS)
      Exit = 2;
    Lasts.push_back(std::move(Last));
  }

  if (O.Check) {
    skmd_set_explain(Ctx, 0); // The reference run is not the user's launch.
    Launched Ref = runOnce(Ctx, K, O, Initial, Infos, "cpu", false);
    if (Ref.Status != SKMD_SUCCESS)
      die("the CPU-only run for --check failed: " + Ref.Error);
    // With --check=opencl, the source the bundle carries, and the arbiter
    // for floats that a GPU's code rounds otherwise than the CPU's.
    std::optional<skmd::BundleSource> Source;
    if (O.Reference) {
      auto B = skmd::Bundle::fromFile(O.Bundle);
      if (!B)
        die("--check=opencl: " + B.error().message());
      auto S = B->source();
      if (!S)
        die("--check=opencl: " + S.error().message());
      Source = std::move(*S);
    }
    std::optional<Arbiter> Arb;
    if (Source)
      Arb.emplace(O, *Source, K, Infos, Initial);
    for (size_t M = 0; M < Lasts.size(); ++M) {
      const Launched &Last = Lasts[M];
      if (Lasts.size() > 1)
        std::printf("  on %s buffers:\n", O.Memories[M] ? "page-locked" : "pageable");
      std::string Verdict, Rounded;
      double WorstRel = 0;
      for (unsigned I = 0; I < NumArgs; ++I)
        if (!Last.Buffers[I].empty() && Infos[I].written) {
          std::string Why = compare(Infos[I], argLayout(K, I, Infos[I]), Last.Buffers[I],
                                    Ref.Buffers[I], AllX86, O.Tolerance, O.Ulps, WorstRel);
          if (Why.empty())
            continue;
          if (Arb && !AllX86 &&
              Arb->asAccurate(I, Last.Buffers[I], Ref.Buffers[I], "this plan", "SKMD's CPU",
                              Why))
            Rounded += std::string("         ") + Infos[I].name + ": " + Why + "\n";
          else
            Verdict += std::string(Verdict.empty() ? "" : "; ") + Infos[I].name + ": " + Why;
        }
      if (!Verdict.empty()) {
        std::printf("  check: FAILED: %s\n", Verdict.c_str());
        Exit = 3;
      } else if (!Rounded.empty()) {
        std::printf("  check: ok against the CPU-only run, up to rounding:\n%s", Rounded.c_str());
      } else {
        std::printf("  check: ok, every written buffer %s the CPU-only run\n",
                    AllX86 ? "equals, bit for bit," : "matches");
        if (!AllX86)
          std::printf("         (largest relative difference %.3g)\n", WorstRel);
      }
      if (Source && !checkAgainstDriver(O, *Source, K, Infos, Initial, Last, Ref, *Arb))
        Exit = 3;
    }
  }
  skmd_release_context(Ctx);
  return Exit;
}
