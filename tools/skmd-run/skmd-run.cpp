//===- skmd-run.cpp - Run a kernel of a bundle on generated inputs --------===//
//
// skmd-run bundle.skmd kernel --global=N[,N,N] --local=L[,L,L]
//          --arg=SPEC ... [--devices=LIST] [--plan=PLAN] [--check]
//          [--repeat=N] [--trace=out.json]
//
// Generates the kernel's inputs from the --arg specs, runs it through the
// public API (include/skmd/skmd.h) and prints the plan, each device's times
// and bytes, and, with --check, a comparison with the same launch on the
// CPU alone. Written buffers are compared bit for bit when every device
// runs the x86 variant; floats within --tolerance otherwise.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

const char *Usage =
    "usage: skmd-run <bundle.skmd> <kernel> --global=N[,N,N] --local=L[,L,L]\n"
    "                --arg=SPEC [--arg=SPEC ...] [options]\n"
    "\n"
    "Runs a kernel of a bundle made by skmd-cc on generated inputs, across\n"
    "the devices, and prints the partition, the times and the bytes moved.\n"
    "\n"
    "One --arg per kernel argument, in order:\n"
    "  buffer    COUNT[:FILL[:SEED]]  COUNT elements of the pointee type;\n"
    "            FILL: random (default; [0,1) for floats, small integers\n"
    "            otherwise), zero, iota, or a number\n"
    "  value     the value, e.g. 1000, -3, 2.5\n"
    "  __local   its size in bytes\n"
    "\n"
    "Options:\n"
    "  --devices=LIST  devices to open: cpu, discrete, cuda, cuda:N,\n"
    "                  comma-separated (default: every device found)\n"
    "  --plan=PLAN     proportional (default), even, cpu, gpu0, discrete0,\n"
    "                  manual:cpu=0.3,gpu0=0.7\n"
    "  --offset=N[,N,N]  global offset\n"
    "  --check         compare every written buffer with a CPU-only run\n"
    "  --tolerance=X   relative error allowed for floats when a device runs\n"
    "                  other code than the CPU's (default 1e-5)\n"
    "  --repeat=N      run N times, report each and the median (default 1)\n"
    "  --trace=FILE    write the last run as a Chrome trace (open it in\n"
    "                  Perfetto): a lane per device for transfers, kernel\n"
    "                  and merge\n"
    "  --help          this text\n";

[[noreturn]] void die(const std::string &Message) {
  std::fprintf(stderr, "skmd-run: error: %s\n", Message.c_str());
  std::exit(1);
}

void check(skmd_status S, const std::string &What) {
  if (S != SKMD_SUCCESS)
    die(What + ": " + skmd_last_error());
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  size_t Pos = 0;
  while (true) {
    size_t At = S.find(Sep, Pos);
    Out.push_back(S.substr(Pos, At == std::string::npos ? std::string::npos : At - Pos));
    if (At == std::string::npos)
      return Out;
    Pos = At + 1;
  }
}

uint64_t parseCount(const std::string &S, const std::string &What) {
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(S.c_str(), &End, 10);
  if (S.empty() || *End || errno || S[0] == '-')
    die(What + ": '" + S + "' is not a non-negative integer");
  return V;
}

std::vector<size_t> parseSizes(const std::string &S, const std::string &What) {
  std::vector<size_t> Out;
  for (const std::string &Part : split(S, ','))
    Out.push_back(parseCount(Part, What));
  if (Out.empty() || Out.size() > 3)
    die(What + " needs 1 to 3 comma-separated sizes");
  return Out;
}

/// The scalar element type behind an OpenCL type name ("float4*" -> float).
std::string baseType(std::string T) {
  for (const char *Strip : {"const ", "volatile ", "restrict ", "__global ",
                            "global ", "__constant ", "constant "})
    for (size_t At; (At = T.find(Strip)) != std::string::npos;)
      T.erase(At, std::strlen(Strip));
  while (!T.empty() && (T.back() == '*' || T.back() == ' '))
    T.pop_back();
  while (!T.empty() && std::isdigit(static_cast<unsigned char>(T.back())))
    T.pop_back();
  return T;
}

/// Writes \p Text as the value of a scalar argument of \p Info's type.
std::vector<uint8_t> scalarValue(const skmd_arg_info &Info, const std::string &Text) {
  std::string T = baseType(Info.type_name);
  std::vector<uint8_t> Bytes(Info.size);
  auto Put = [&](auto V) {
    if (sizeof V != Info.size)
      die(std::string("argument '") + Info.name + "' (" + Info.type_name +
          "): only scalar values can be given on the command line");
    std::memcpy(Bytes.data(), &V, sizeof V);
  };
  char *End = nullptr;
  errno = 0;
  if (T == "float" || T == "double") {
    double V = std::strtod(Text.c_str(), &End);
    if (Text.empty() || *End)
      die(std::string("argument '") + Info.name + "': '" + Text + "' is not a number");
    T == "float" ? Put(float(V)) : Put(V);
    return Bytes;
  }
  bool Unsigned = T[0] == 'u' || T == "size_t" || T == "bool";
  long long S = 0;
  unsigned long long U = 0;
  if (Unsigned && !Text.empty() && Text[0] != '-')
    U = std::strtoull(Text.c_str(), &End, 0);
  else
    S = std::strtoll(Text.c_str(), &End, 0);
  if (Text.empty() || *End || errno)
    die(std::string("argument '") + Info.name + "' (" + Info.type_name + "): '" +
        Text + "' is not an integer");
  uint64_t Raw = Unsigned && Text[0] != '-' ? U : uint64_t(S);
  switch (Info.size) {
  case 1:
    Put(uint8_t(Raw));
    break;
  case 2:
    Put(uint16_t(Raw));
    break;
  case 4:
    Put(uint32_t(Raw));
    break;
  case 8:
    Put(uint64_t(Raw));
    break;
  default:
    die(std::string("argument '") + Info.name + "' (" + Info.type_name +
        "): only scalar values can be given on the command line");
  }
  return Bytes;
}

/// COUNT elements of the buffer's type, filled as the spec says.
std::vector<uint8_t> bufferContents(const skmd_arg_info &Info, const std::string &Spec) {
  std::vector<std::string> Parts = split(Spec, ':');
  if (Parts.size() > 3)
    die(std::string("argument '") + Info.name + "': '" + Spec +
        "' is not COUNT[:FILL[:SEED]]");
  uint64_t Count = parseCount(Parts[0], std::string("argument '") + Info.name + "' count");
  std::string Fill = Parts.size() > 1 ? Parts[1] : "random";
  uint64_t Seed = Parts.size() > 2 ? parseCount(Parts[2], "seed") : 1;
  size_t Elem = Info.element_size ? Info.element_size : 1;
  std::string T = baseType(Info.type_name);
  size_t Scalar = T == "double" || T == "long" || T == "ulong" ? 8
                  : T == "float" || T == "int" || T == "uint"  ? 4
                  : T == "short" || T == "ushort" || T == "half" ? 2
                  : T == "char" || T == "uchar"                  ? 1
                                                                 : 0;
  std::vector<uint8_t> Bytes(Count * Elem, 0);
  if (Fill == "zero")
    return Bytes;
  if (Scalar == 0 || Elem % Scalar)
    die(std::string("argument '") + Info.name + "' (" + Info.type_name +
        "): only zero fill is possible for this type");
  std::mt19937_64 Rng(Seed);
  size_t Lanes = Count * (Elem / Scalar);
  double Number = 0;
  bool IsNumber = false;
  if (Fill != "random" && Fill != "iota") {
    char *End = nullptr;
    Number = std::strtod(Fill.c_str(), &End);
    if (Fill.empty() || *End)
      die(std::string("argument '") + Info.name + "': fill '" + Fill +
          "' is not random, zero, iota or a number");
    IsNumber = true;
  }
  if (T == "half")
    die(std::string("argument '") + Info.name + "': half buffers take zero fill only");
  // Decided once, not per element: buffers have hundreds of millions.
  const bool Float = T == "float", Double = T == "double", Iota = Fill == "iota";
  std::uniform_real_distribution<double> Unit(0, 1);
  for (size_t I = 0; I < Lanes; ++I) {
    double V = IsNumber ? Number
               : Iota   ? double(I)
               : Float || Double ? Unit(Rng)
                                 : double(Rng() % 100);
    uint8_t *At = Bytes.data() + I * Scalar;
    if (Float) {
      float F = float(V);
      std::memcpy(At, &F, 4);
    } else if (Double) {
      std::memcpy(At, &V, 8);
    } else {
      int64_t N = int64_t(V);
      std::memcpy(At, &N, Scalar); // Little-endian: the low bytes.
    }
  }
  return Bytes;
}

struct Options {
  std::string Bundle, Kernel, Devices, Plan, Trace;
  bool HaveDevices = false, Check = false;
  std::vector<size_t> Global, Local, Offset;
  std::vector<std::string> Args;
  unsigned Repeat = 1;
  double Tolerance = 1e-5;
};

Options parse(int Argc, char **Argv) {
  Options O;
  std::vector<std::string> Positional;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Name) -> const char * {
      size_t N = std::strlen(Name);
      if (A.compare(0, N, Name) == 0 && A.size() > N && A[N] == '=')
        return Argv[I] + N + 1;
      if (A == Name) {
        if (I + 1 >= Argc)
          die(std::string(Name) + " needs a value");
        return Argv[++I];
      }
      return nullptr;
    };
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
    } else if (const char *V = Value("--trace")) {
      O.Trace = V;
    } else if (const char *V = Value("--repeat")) {
      O.Repeat = unsigned(parseCount(V, "--repeat"));
      if (O.Repeat == 0)
        die("--repeat must be at least 1");
    } else if (const char *V = Value("--tolerance")) {
      O.Tolerance = std::atof(V);
    } else if (A == "--check") {
      O.Check = true;
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
                 const std::vector<skmd_arg_info> &Infos, const char *Plan) {
  Launched L;
  L.Buffers = Initial;
  std::vector<skmd_buffer> Wrapped;
  for (unsigned I = 0; I < Infos.size(); ++I) {
    if (Infos[I].kind != SKMD_ARG_GLOBAL_BUFFER && Infos[I].kind != SKMD_ARG_CONSTANT_BUFFER)
      continue;
    skmd_buffer B;
    check(skmd_wrap_buffer(Ctx, L.Buffers[I].data(), L.Buffers[I].size(), &B),
          "wrapping a buffer");
    check(skmd_set_arg_buffer(K, I, B), std::string("argument '") + Infos[I].name + "'");
    Wrapped.push_back(B);
  }
  L.Status = skmd_launch(K, uint32_t(O.Global.size()),
                         O.Offset.empty() ? nullptr : O.Offset.data(),
                         O.Global.data(), O.Local.data(), Plan, &L.Report);
  L.Error = skmd_last_error();
  for (skmd_buffer B : Wrapped)
    skmd_release_buffer(B);
  return L;
}

void printReport(const skmd_launch_report &R) {
  std::printf("  %-10s %-22s %6s %9s %9s %9s %9s %9s %9s\n", "device", "groups",
              "share", "input ms", "kernel ms", "output ms", "merge ms", "MB in",
              "MB out");
  for (size_t I = 0; I < R.piece_count; ++I) {
    const skmd_piece_report &P = R.pieces[I];
    char Groups[64];
    std::snprintf(Groups, sizeof Groups, "[%llu, %llu)",
                  (unsigned long long)P.first_group,
                  (unsigned long long)(P.first_group + P.group_count));
    std::printf("  %-10s %-22s %5.1f%% %9.3f %9.3f %9.3f %9.3f %9.2f %9.2f%s\n",
                P.device, Groups, 100.0 * double(P.group_count) / double(R.total_groups),
                P.input_ms, P.kernel_ms, P.output_ms, P.merge_ms, P.bytes_in / 1e6,
                P.bytes_out / 1e6, P.failed ? "  FAILED, re-run on the CPU" : "");
  }
}

void writeTrace(const std::string &Path, const skmd_launch_report &R,
                const std::string &Kernel) {
  nlohmann::json Events = nlohmann::json::array();
  std::vector<std::string> Lanes;
  for (size_t I = 0; I < R.piece_count; ++I) {
    const skmd_piece_report &P = R.pieces[I];
    auto Lane = std::find(Lanes.begin(), Lanes.end(), P.device);
    int Tid = int(Lane - Lanes.begin());
    if (Lane == Lanes.end()) {
      Lanes.push_back(P.device);
      Events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", Tid},
                        {"args", {{"name", P.device}}}});
    }
    auto Span = [&](const char *Name, double At, double Ms, nlohmann::json Args) {
      if (Ms <= 0)
        return;
      Events.push_back({{"name", Name}, {"cat", Kernel}, {"ph", "X"}, {"pid", 1},
                        {"tid", Tid}, {"ts", At * 1000}, {"dur", Ms * 1000},
                        {"args", Args}});
    };
    nlohmann::json Groups = {{"first_group", P.first_group}, {"groups", P.group_count}};
    Span("input", P.input_at_ms, P.input_ms, {{"bytes", P.bytes_in}});
    Span("kernel", P.kernel_at_ms, P.kernel_ms, Groups);
    Span("output", P.output_at_ms, P.output_ms, {{"bytes", P.bytes_out}});
    Span(P.failed ? "re-run on cpu" : "merge", P.merge_at_ms, P.merge_ms, Groups);
  }
  nlohmann::json Doc = {{"traceEvents", Events}, {"displayTimeUnit", "ms"}};
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp);
    Out << Doc.dump(1) << "\n";
    if (!Out)
      die("cannot write the trace to " + Path);
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0)
    die("cannot write the trace to " + Path);
}

/// Empty if \p Got matches \p Want, else what differs.
std::string compare(const skmd_arg_info &Info, const std::vector<uint8_t> &Got,
                    const std::vector<uint8_t> &Want, bool Exact, double Tolerance,
                    double &WorstRel) {
  std::string T = baseType(Info.type_name);
  if (Exact || !(T == "float" || T == "double")) {
    for (size_t I = 0; I < Got.size(); ++I)
      if (Got[I] != Want[I])
        return "byte " + std::to_string(I) + " differs";
    return "";
  }
  size_t Size = T == "float" ? 4 : 8, Bad = 0, First = 0;
  for (size_t I = 0; I + Size <= Got.size(); I += Size) {
    double G, W;
    if (Size == 4) {
      float A, B;
      std::memcpy(&A, &Got[I], 4);
      std::memcpy(&B, &Want[I], 4);
      G = A;
      W = B;
    } else {
      std::memcpy(&G, &Got[I], 8);
      std::memcpy(&W, &Want[I], 8);
    }
    if (std::isnan(G) && std::isnan(W))
      continue;
    double Rel = std::fabs(G - W) / std::max(std::fabs(W), 1e-30);
    if (G == W)
      Rel = 0;
    WorstRel = std::max(WorstRel, Rel);
    if (!(Rel <= Tolerance) && Bad++ == 0)
      First = I / Size;
  }
  if (Bad)
    return std::to_string(Bad) + " elements off by more than " +
           std::to_string(Tolerance) + " (first: element " + std::to_string(First) + ")";
  return "";
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  skmd_context Ctx;
  check(skmd_init(O.HaveDevices ? O.Devices.c_str() : nullptr, &Ctx), "opening devices");
  skmd_program Prog;
  check(skmd_load_bundle(Ctx, O.Bundle.c_str(), &Prog), "loading " + O.Bundle);
  skmd_kernel K;
  check(skmd_get_kernel(Prog, O.Kernel.c_str(), &K), "kernel");

  size_t NumArgs = skmd_kernel_arg_count(K);
  if (O.Args.size() != NumArgs) {
    std::string Sig;
    for (unsigned I = 0; I < NumArgs; ++I) {
      skmd_arg_info Info;
      skmd_get_kernel_arg_info(K, I, &Info);
      Sig += std::string(I ? ", " : "") + Info.type_name + " " + Info.name;
    }
    die(O.Kernel + " takes " + std::to_string(NumArgs) + " arguments (" + Sig + "), " +
        std::to_string(O.Args.size()) + " --arg given");
  }
  std::vector<skmd_arg_info> Infos(NumArgs);
  std::vector<std::vector<uint8_t>> Initial(NumArgs);
  for (unsigned I = 0; I < NumArgs; ++I) {
    check(skmd_get_kernel_arg_info(K, I, &Infos[I]), "argument info");
    const skmd_arg_info &Info = Infos[I];
    switch (Info.kind) {
    case SKMD_ARG_GLOBAL_BUFFER:
    case SKMD_ARG_CONSTANT_BUFFER:
      Initial[I] = bufferContents(Info, O.Args[I]);
      break;
    case SKMD_ARG_LOCAL:
      check(skmd_set_arg_local(K, I, parseCount(O.Args[I], std::string("argument '") +
                                                               Info.name + "' bytes")),
            std::string("argument '") + Info.name + "'");
      break;
    case SKMD_ARG_SCALAR: {
      std::vector<uint8_t> V = scalarValue(Info, O.Args[I]);
      check(skmd_set_arg_scalar(K, I, V.data(), V.size()),
            std::string("argument '") + Info.name + "'");
      break;
    }
    case SKMD_ARG_SAMPLER:
      die(std::string("argument '") + Info.name + "': samplers are not supported");
    }
  }

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

  std::vector<double> Totals;
  Launched Last;
  for (unsigned Run = 0; Run < O.Repeat; ++Run) {
    Last = runOnce(Ctx, K, O, Initial, Infos, Plan);
    if (Last.Status != SKMD_SUCCESS && Last.Status != SKMD_ERROR_DEVICE_FAILED)
      die("launch: " + Last.Error);
    if (Last.Status == SKMD_ERROR_DEVICE_FAILED)
      std::fprintf(stderr, "skmd-run: warning: %s\n", Last.Error.c_str());
    Totals.push_back(Last.Report.total_ms);
    if (Run == 0)
      std::printf("  plan %s: %llu groups\n", Plan ? Plan : "proportional",
                  (unsigned long long)Last.Report.total_groups);
    if (O.Repeat > 1)
      std::printf("  run %u: %.3f ms\n", Run + 1, Last.Report.total_ms);
  }
  printReport(Last.Report);
  std::vector<double> Sorted = Totals;
  std::sort(Sorted.begin(), Sorted.end());
  std::printf("  total %.3f ms%s, of which planning %.3f ms\n", Sorted[Sorted.size() / 2],
              O.Repeat > 1 ? (" (median of " + std::to_string(O.Repeat) + ")").c_str() : "",
              Last.Report.plan_ms);
  if (!O.Trace.empty()) {
    writeTrace(O.Trace, Last.Report, O.Kernel);
    std::printf("  trace: %s\n", O.Trace.c_str());
  }

  int Exit = Last.Status == SKMD_SUCCESS ? 0 : 2;
  if (O.Check) {
    Launched Ref = runOnce(Ctx, K, O, Initial, Infos, "cpu");
    if (Ref.Status != SKMD_SUCCESS)
      die("the CPU-only run for --check failed: " + Ref.Error);
    std::string Verdict;
    double WorstRel = 0;
    for (unsigned I = 0; I < NumArgs; ++I)
      if (!Last.Buffers[I].empty() && Infos[I].written) {
        std::string Why = compare(Infos[I], Last.Buffers[I], Ref.Buffers[I], AllX86,
                                  O.Tolerance, WorstRel);
        if (!Why.empty())
          Verdict += std::string(Verdict.empty() ? "" : "; ") + Infos[I].name + ": " + Why;
      }
    if (Verdict.empty()) {
      std::printf("  check: ok, every written buffer %s the CPU-only run\n",
                  AllX86 ? "equals, bit for bit," : "matches");
      if (!AllX86)
        std::printf("         (largest relative difference %.3g)\n", WorstRel);
    } else {
      std::printf("  check: FAILED: %s\n", Verdict.c_str());
      Exit = 3;
    }
  }
  skmd_release_context(Ctx);
  return Exit;
}
