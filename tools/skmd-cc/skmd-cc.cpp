//===- skmd-cc.cpp - The SKMD offline compiler ----------------------------===//
//
// Compiles every kernel of an OpenCL C file into a .skmd bundle holding the
// metadata and three device variants (x86-64 shared object, PTX, SPIR-V):
//
//   skmd-cc kernel.cl -o kernel.skmd
//   skmd-cc --emit=llvm kernel.cl     # one artifact, for inspection
//
//===----------------------------------------------------------------------===//
#include "CodeGen/NVPTXDeviceLibraries.h"
#include "Frontend/OpenCLFrontend.h"
#include "Pipeline/TargetPipeline.h"
#include "bundle/Bundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <unistd.h>

using namespace llvm;
using namespace skmd;

namespace {

cl::OptionCategory Category("skmd-cc options");

cl::opt<std::string> InputPath(cl::Positional, cl::desc("<kernel.cl>"),
                               cl::Required, cl::cat(Category));
cl::opt<std::string> OutputPath("o", cl::desc("Output file (default: "
                                              "<input>.skmd; '-' is stdout)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::list<std::string> Defines("D", cl::Prefix, cl::desc("Define a macro"),
                              cl::value_desc("name[=value]"), cl::cat(Category));
cl::list<std::string> IncludeDirs("I", cl::Prefix,
                                  cl::desc("Add an include directory"),
                                  cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CLStd("cl-std", cl::desc("OpenCL C version: CL1.2, "
                                              "CL2.0 or CL3.0 (default)"),
                           cl::init("CL3.0"), cl::cat(Category));
cl::opt<unsigned> OptLevel("O", cl::Prefix,
                           cl::desc("Optimization level 0-3 (default 3)"),
                           cl::init(3), cl::cat(Category));
cl::list<std::string> Targets("targets", cl::CommaSeparated,
                              cl::desc("Variants to build: x86,ptx,spirv "
                                       "(default: all three)"),
                              cl::cat(Category));
cl::opt<std::string> CudaArch("cuda-arch",
                              cl::desc("GPU architecture for PTX (default "
                                       "sm_90: H100 and H200)"),
                              cl::value_desc("sm_NN"), cl::cat(Category));
cl::opt<std::string> X86Cpu("x86-cpu",
                            cl::desc("CPU for the x86 variant (default "
                                     "x86-64-v3)"),
                            cl::cat(Category));
cl::opt<bool> X86Avx512Bodies(
    "x86-avx512-bodies",
    cl::desc("Below AVX-512, also compile each work-group function for "
             "x86-64-v4 and pick that body on AVX-512 hosts when loaded "
             "(default on; =false for the --x86-cpu code alone)"),
    cl::init(true), cl::cat(Category));
cl::opt<std::string> LibdevicePath("libdevice",
                                   cl::desc("CUDA libdevice.10.bc (default: "
                                            "found in the CUDA toolkit)"),
                                   cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> LibclcPath("libclc",
                                cl::desc("libclc's nvptx64--nvidiacl.bc"),
                                cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> X86BuiltinsPath(
    "x86-builtins", cl::desc("SKMD's x86 builtins library (default: the one "
                             "built with skmd-cc)"),
    cl::value_desc("path"), cl::cat(Category), cl::Hidden);
cl::opt<std::string> Emit("emit",
                          cl::desc("Print one artifact instead of a bundle: "
                                   "llvm, ptx, spirv, asm or meta"),
                          cl::value_desc("kind"), cl::cat(Category));
cl::opt<bool> Verbose("v", cl::desc("Print each step and its time"),
                      cl::cat(Category));
cl::opt<bool> GuardVariants(
    "guard-variants",
    cl::desc("Also build the SKMD paper's guard-form variants "
             "(<kernel>__skmd_guard), to measure against"),
    cl::cat(Category));

[[noreturn]] void fail(const Twine &Message) {
  WithColor::error(errs(), "skmd-cc") << Message << '\n';
  exit(1);
}

template <typename T> T unwrap(Expected<T> V) {
  if (!V)
    fail(toString(V.takeError()));
  return std::move(*V);
}

/// Times one step when -v is given.
class Step {
public:
  explicit Step(std::string Name) : Name(std::move(Name)) {
    Start = std::chrono::steady_clock::now();
  }
  ~Step() {
    if (!Verbose)
      return;
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    errs() << "skmd-cc: " << Name << ": " << format("%.1f", Ms) << " ms\n";
  }

private:
  std::string Name;
  std::chrono::steady_clock::time_point Start;
};

std::vector<TargetKind> selectedTargets() {
  if (Targets.empty())
    return {TargetKind::X86, TargetKind::PTX, TargetKind::SPIRV};
  std::vector<TargetKind> Out;
  for (const std::string &Name : Targets) {
    auto Kind = targetKindFromName(Name);
    if (!Kind)
      fail("unknown target '" + Name + "' in --targets (use x86, ptx, spirv)");
    if (llvm::is_contained(Out, *Kind))
      fail("target '" + Name + "' is listed twice in --targets");
    Out.push_back(*Kind);
  }
  return Out;
}

CompilerOptions compilerOptions() {
  if (CLStd != "CL1.2" && CLStd != "CL2.0" && CLStd != "CL3.0")
    fail("unsupported -cl-std=" + CLStd + " (use CL1.2, CL2.0 or CL3.0)");
  if (OptLevel > 3)
    fail("unsupported -O" + Twine(OptLevel) + " (use -O0 to -O3)");
  if (!CudaArch.empty() && !StringRef(CudaArch).starts_with("sm_"))
    fail("--cuda-arch must look like sm_NN, not '" + CudaArch + "'");
  CompilerOptions Opts;
  Opts.Frontend.InputPath = InputPath;
  Opts.Frontend.Defines = Defines;
  Opts.Frontend.IncludeDirs = IncludeDirs;
  Opts.Frontend.CLStd = CLStd;
  Opts.Frontend.OptLevel = OptLevel;
  Opts.X86Cpu = X86Cpu;
  Opts.CudaArch = CudaArch;
  Opts.LibdevicePath = LibdevicePath;
  Opts.LibclcPath = LibclcPath;
  Opts.X86BuiltinsPath = X86BuiltinsPath;
  Opts.Verbose = Verbose;
  Opts.GuardVariants = GuardVariants;
  Opts.X86Avx512Bodies = X86Avx512Bodies;
  return Opts;
}

/// Records each target's entry points, and, from the first target, what
/// SKMD's analyses found; every target compiles the same source.
void recordReports(const std::map<std::string, KernelReport> &Reports,
                   TargetKind Target, bool First,
                   std::vector<KernelInfo> &Kernels) {
  for (KernelInfo &K : Kernels) {
    auto It = Reports.find(K.Name);
    if (It == Reports.end())
      fail("internal error: kernel '" + K.Name + "' is missing from the " +
           std::string(targetKindName(Target)) + " IR");
    const KernelReport &R = It->second;
    K.Symbols[Target] = R.Symbols;
    if (Target == TargetKind::X86) {
      K.Cpu = R.Cpu;
      K.CpuMerge = R.CpuMerge;
    }
    if (!First)
      continue;
    if (R.ArgReadWrite.size() != K.Args.size())
      fail("internal error: kernel '" + K.Name + "' changed shape in the IR");
    for (size_t I = 0; I < K.Args.size(); ++I) {
      KernelArg &A = K.Args[I];
      if (A.Kind == ArgKind::GlobalBuffer || A.Kind == ArgKind::ConstantBuffer ||
          A.Kind == ArgKind::LocalBuffer)
        std::tie(A.Read, A.Written) = R.ArgReadWrite[I];
    }
    K.Footprint = R.Footprint;
    K.Contiguous = R.Contiguous;
    K.Partitionable = R.Partitionable;
    K.NotPartitionableReasons = R.Reasons;
    K.LaunchTested = R.LaunchTested;
    K.Combined = R.Combined;
  }
}

std::string sourceHash(const std::string &Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    fail("cannot read '" + Path + "': " + Buffer.getError().message());
  return toHex(SHA256::hash(arrayRefFromStringRef((*Buffer)->getBuffer())),
               /*LowerCase=*/true);
}

void writeOutput(StringRef Path, StringRef Data) {
  if (Path == "-") {
    outs() << Data;
    outs().flush();
    return;
  }
  Status S = writeFileAtomically(Path.str(), std::string_view(Data.data(), Data.size()));
  if (!S)
    fail(S.error().message());
}

std::string defaultBundlePath() {
  SmallString<128> Name = sys::path::stem(InputPath);
  Name += ".skmd";
  return std::string(Name);
}

/// Everything in the metadata but the kernels.
BundleMetadata describeBundle(const CompilerOptions &Opts,
                              const std::vector<TargetKind> &Selected,
                              std::string SourceHash) {
  BundleMetadata Meta;
  Meta.Producer = "skmd-cc " SKMD_VERSION " (LLVM " LLVM_VERSION_STRING ")";
  Meta.SourceFile = std::string(sys::path::filename(InputPath));
  Meta.SourceHash = std::move(SourceHash);
  Meta.CompileOptions = describeOptions(Opts.Frontend);
  for (TargetKind T : Selected) {
    TargetChoice C = chosenTarget(Opts, T);
    auto TM = unwrap(createTargetMachine(C, Opts.Frontend.OptLevel));
    Meta.Targets.push_back({T, C.Triple, C.Cpu, checkableCpuFeatures(*TM)});
  }
  return Meta;
}

/// --emit=<kind>: which target the artifact belongs to.
TargetKind emitTarget(const std::vector<TargetKind> &Selected) {
  if (Emit == "ptx" || Emit == "spirv") {
    TargetKind Kind = *targetKindFromName(Emit);
    if (!Targets.empty() && !llvm::is_contained(Selected, Kind))
      fail("--emit=" + Emit + " conflicts with --targets");
    return Kind;
  }
  if (Targets.empty())
    return TargetKind::X86;
  if (Selected.size() != 1)
    fail("--emit=" + Emit + " prints one target's code; choose it with "
         "--targets=x86, --targets=ptx or --targets=spirv");
  return Selected.front();
}

/// Compiles every selected target through SKMD's stage and records what
/// it found; lowers each to its variant into \p Variants unless that is
/// null (--emit=meta).
BundleMetadata compileAll(const CompilerOptions &Opts,
                          const std::vector<TargetKind> &Selected,
                          const std::string &SourceHash,
                          std::vector<KernelInfo> Kernels,
                          std::vector<std::pair<TargetKind, std::string>> *Variants) {
  BundleMetadata Meta = describeBundle(Opts, Selected, SourceHash);
  for (TargetKind Target : Selected) {
    std::string Name(targetKindName(Target));
    LLVMContext Ctx;
    std::unique_ptr<Module> M;
    {
      Step S(Name + ": compile to IR");
      M = unwrap(buildKernelIR(Opts, Target, Ctx));
    }
    {
      Step S(Name + ": add partition variants");
      recordReports(unwrap(addPartitionVariants(*M, Opts, Target)), Target,
                    Target == Selected.front(), Kernels);
    }
    if (!Variants)
      continue;
    Step S(Name + ": lower to variant");
    Variants->emplace_back(Target, unwrap(lowerToVariant(*M, Opts, Target)));
  }
  Meta.Kernels = std::move(Kernels);
  return Meta;
}

int emitOne(const CompilerOptions &Opts, const std::vector<TargetKind> &Selected,
            const std::string &SourceHash, std::vector<KernelInfo> Kernels) {
  std::string Out = OutputPath.empty() ? "-" : std::string(OutputPath);
  LLVMContext Ctx;
  TargetKind Target = emitTarget(Selected);

  std::unique_ptr<Module> M;
  {
    Step S("compile to " + std::string(targetKindName(Target)) + " IR");
    M = unwrap(buildKernelIR(Opts, Target, Ctx));
  }

  if (Emit == "llvm") {
    std::string Text;
    raw_string_ostream OS(Text);
    M->print(OS, nullptr);
    writeOutput(Out, Text);
    return 0;
  }

  std::map<std::string, KernelReport> Reports;
  {
    Step S("add partition variants");
    Reports = unwrap(addPartitionVariants(*M, Opts, Target));
  }
  if (Emit == "spirv" && Out != "-") {
    Step S("lower to spirv");
    writeOutput(Out, unwrap(lowerToVariant(*M, Opts, Target)));
  } else {
    Step S("lower to " + std::string(targetKindName(Target)) + " assembly");
    writeOutput(Out, unwrap(lowerToAssembly(*M, Opts, Target)));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "skmd-cc " SKMD_VERSION " (LLVM " LLVM_VERSION_STRING ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "SKMD offline compiler: OpenCL C to a bundle of x86, PTX and SPIR-V "
      "variants\n\n  skmd-cc kernel.cl -o kernel.skmd\n");

  if (!Emit.empty() && Emit != "llvm" && Emit != "ptx" && Emit != "spirv" &&
      Emit != "asm" && Emit != "meta")
    fail("unknown --emit=" + Emit + " (use llvm, ptx, spirv, asm or meta)");

  std::vector<TargetKind> Selected = selectedTargets();
  CompilerOptions Opts = compilerOptions();

  // Missing GPU libraries are found out before any work is done.
  bool LowersPTX = Emit.empty() ? llvm::is_contained(Selected, TargetKind::PTX)
                                : Emit == "ptx" || (Emit == "asm" &&
                                                    emitTarget(Selected) ==
                                                        TargetKind::PTX);
  if (LowersPTX)
    unwrap(findNVPTXLibraries(LibclcPath, LibdevicePath));

  std::string SourceHash = sourceHash(InputPath);
  std::vector<KernelInfo> Kernels;
  BundleSource Source;
  {
    Step S("parse and check " + InputPath);
    Kernels = unwrap(analyzeKernels(Opts.Frontend, &Source));
  }
  if (Kernels.empty())
    fail("'" + InputPath + "' defines no __kernel function");

  if (Emit == "meta") {
    BundleMetadata Meta =
        compileAll(Opts, Selected, SourceHash, std::move(Kernels), nullptr);
    writeOutput(OutputPath.empty() ? "-" : std::string(OutputPath), toJson(Meta));
    return 0;
  }
  if (!Emit.empty())
    return emitOne(Opts, Selected, SourceHash, std::move(Kernels));

  std::string Out =
      OutputPath.empty() ? defaultBundlePath() : std::string(OutputPath);
  if (Out == "-")
    fail("a bundle is binary; give -o <file>");

  std::vector<std::pair<TargetKind, std::string>> Variants;
  BundleMetadata Meta = compileAll(Opts, Selected, SourceHash,
                                   std::move(Kernels), &Variants);
  BundleWriter Writer(std::move(Meta));
  for (auto &[Target, Bytes] : Variants)
    Writer.addVariant(Target, std::move(Bytes));
  Writer.setSource(std::move(Source));
  Status S = Writer.writeFile(Out);
  if (!S)
    fail(S.error().message());
  if (Verbose)
    errs() << "skmd-cc: wrote " << Out << '\n';
  return 0;
}
