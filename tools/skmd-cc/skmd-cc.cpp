//===- skmd-cc.cpp - The SKMD offline compiler ----------------------------===//
//
// Compiles every kernel of an OpenCL C file into a .skmd bundle holding the
// metadata and three device variants (x86-64 shared object, PTX, SPIR-V):
//
//   skmd-cc kernel.cl -o kernel.skmd
//   skmd-cc --emit=llvm kernel.cl     # one artifact, for inspection
//   skmd-cc --cache=DIR kernel.cl -DN=4   # for the OpenCL platform's
//                                         # build cache (SKMD_CACHE=DIR)
//
//===----------------------------------------------------------------------===//
#include "CodeGen/NVPTXDeviceLibraries.h"
#include "CodeGen/SPIRVBackendLimits.h"
#include "Driver/BundleCompiler.h"
#include "bundle/Bundle.h"
#include "cache/BuildCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

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
cl::opt<std::string> CLStd("cl-std", cl::desc("OpenCL C version: CL1.0, CL1.1, "
                                              "CL1.2, CL2.0 or CL3.0 (default)"),
                           cl::init("CL3.0"), cl::cat(Category));
cl::opt<bool> WarningsAsErrors("Werror", cl::desc("Treat warnings as errors"),
                               cl::cat(Category));
cl::opt<bool> NoWarnings("w", cl::desc("Suppress all warnings"), cl::cat(Category));
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
cl::opt<std::string> CacheDir(
    "cache",
    cl::desc("Store the bundle in the OpenCL platform's build cache DIR, keyed by the "
             "source and the build options as clBuildProgram would get them (-D, -I, "
             "-cl-std, -O0 as -cl-opt-disable; -cl-std defaults to CL1.2 here, as in "
             "clBuildProgram); hosts without LLVM read it with SKMD_CACHE=DIR"),
    cl::value_desc("dir"), cl::cat(Category));
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
  if (CLStd != "CL1.0" && CLStd != "CL1.1" && CLStd != "CL1.2" && CLStd != "CL2.0" &&
      CLStd != "CL3.0")
    fail("unsupported -cl-std=" + CLStd + " (use CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)");
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
  Opts.Frontend.WarningsAsErrors = WarningsAsErrors;
  Opts.Frontend.NoWarnings = NoWarnings;
  Opts.Frontend.Variants = selectedTargets();
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

int emitOne(const CompilerOptions &Opts, const std::vector<TargetKind> &Selected) {
  std::string Out = OutputPath.empty() ? "-" : std::string(OutputPath);
  LLVMContext Ctx;
  TargetKind Target = emitTarget(Selected);

  std::unique_ptr<Module> M;
  {
    StepTimer S("compile to " + std::string(targetKindName(Target)) + " IR",
                Verbose);
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
    StepTimer S("add partition variants", Verbose);
    Reports = unwrap(addPartitionVariants(*M, Opts, Target));
  }
  if (Emit == "spirv" && Out != "-") {
    StepTimer S("lower to spirv", Verbose);
    writeOutput(Out, unwrap(lowerToVariant(*M, Opts, Target)));
  } else {
    StepTimer S("lower to " + std::string(targetKindName(Target)) + " assembly",
                Verbose);
    writeOutput(Out, unwrap(lowerToAssembly(*M, Opts, Target)));
  }
  return 0;
}

/// A source without kernels makes a valid bundle (a program OpenCL lets a
/// host build and query), but seldom what a command line meant.
BundleWriter warnIfNoKernels(BundleWriter W) {
  if (W.metadata().Kernels.empty())
    WithColor::warning(errs(), "skmd-cc")
        << "'" << InputPath << "' defines no __kernel function; the bundle has no kernels\n";
  return W;
}

/// The bundle for \p Selected. With the default targets, a kernel the
/// SPIR-V variant cannot carry (printf, zero-length arrays) gets the other
/// two, with a warning.
BundleWriter compileSelected(const CompilerOptions &Opts, std::vector<TargetKind> &Selected) {
  auto Writer = compileBundle(Opts, Selected);
  if (Writer || !Targets.empty())
    return warnIfNoKernels(unwrap(std::move(Writer)));
  std::string Why = toString(Writer.takeError());
  if (Why.find(SPIRVVariantUnsupported) == std::string::npos)
    fail(Why);
  WithColor::warning(errs(), "skmd-cc") << Why << "; the bundle has no SPIR-V variant\n";
  Selected = {TargetKind::X86, TargetKind::PTX};
  return warnIfNoKernels(unwrap(compileBundle(Opts, Selected)));
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
  // The cache's entries are what clBuildProgram would build: its -cl-std
  // default, -O3 or -cl-opt-disable.
  if (!CacheDir.empty()) {
    if (!Emit.empty() || !OutputPath.empty())
      fail("--cache writes into the build cache; it takes neither --emit nor -o");
    if (OptLevel != 0 && OptLevel != 3)
      fail("--cache builds as clBuildProgram does: -O3 (the default) or -O0 "
           "(-cl-opt-disable), not -O" + Twine(OptLevel));
    if (CLStd.getNumOccurrences() == 0)
      CLStd = "CL1.2";
    if (CLStd == "CL2.0" || CLStd == "CL3.0")
      fail("--cache builds as clBuildProgram does, which refuses -cl-std=" + CLStd +
           " (the devices' OpenCL C is 1.2)");
  }
  CompilerOptions Opts = compilerOptions();

  // Missing GPU libraries are found out before any work is done.
  bool LowersPTX = Emit.empty() ? llvm::is_contained(Selected, TargetKind::PTX)
                                : Emit == "ptx" || (Emit == "asm" &&
                                                    emitTarget(Selected) ==
                                                        TargetKind::PTX);
  if (LowersPTX)
    unwrap(findNVPTXLibraries(LibclcPath, LibdevicePath));

  if (!Emit.empty()) {
    std::string SourceHash = unwrap(sourceFileHash(InputPath));
    std::vector<KernelInfo> Kernels = unwrap(parseKernels(Opts, nullptr));
    if (Emit != "meta")
      return emitOne(Opts, Selected);
    BundleMetadata Meta = unwrap(compileKernels(
        Opts, Selected, std::move(SourceHash), std::move(Kernels), nullptr));
    writeOutput(OutputPath.empty() ? "-" : std::string(OutputPath), toJson(Meta));
    return 0;
  }

  if (!CacheDir.empty()) {
    auto Source = MemoryBuffer::getFile(InputPath);
    if (!Source)
      fail("cannot read '" + InputPath + "': " + Source.getError().message());
    BuildOptions Key;
    Key.Defines = Defines;
    Key.IncludeDirs = IncludeDirs;
    Key.CLStd = CLStd;
    Key.OptDisable = OptLevel == 0;
    Key.WarningsAsErrors = WarningsAsErrors;
    Key.NoWarnings = NoWarnings;
    BundleWriter Writer = compileSelected(Opts, Selected);
    auto Bytes = Writer.serialize();
    if (!Bytes)
      fail(Bytes.error().message());
    BuildCache Cache(CacheDir);
    std::string Text = (*Source)->getBuffer().str();
    if (Status S = Cache.store(Text, Key, *Bytes); !S)
      fail(S.error().message());
    outs() << "skmd-cc: cached " << Cache.entryPath(Text, Key) << ".skmd for clBuildProgram "
           << "options '" << Key.canonical() << "'\n";
    return 0;
  }

  std::string Out =
      OutputPath.empty() ? defaultBundlePath() : std::string(OutputPath);
  if (Out == "-")
    fail("a bundle is binary; give -o <file>");
  BundleWriter Writer = compileSelected(Opts, Selected);
  Status S = Writer.writeFile(Out);
  if (!S)
    fail(S.error().message());
  if (Verbose)
    errs() << "skmd-cc: wrote " << Out << '\n';
  return 0;
}
