//===- BundleCompiler.cpp - OpenCL C source to a whole bundle -------------===//
#include "Driver/BundleCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace skmd {

StepTimer::StepTimer(std::string Name, bool Enabled)
    : Name(std::move(Name)), Enabled(Enabled),
      Start(std::chrono::steady_clock::now()) {}

StepTimer::~StepTimer() {
  if (!Enabled)
    return;
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
  errs() << "skmd-cc: " << Name << ": " << format("%.1f", Ms) << " ms\n";
}

Expected<std::string> sourceFileHash(const std::string &Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '" + Path +
                                                    "': " +
                                                    Buffer.getError().message());
  return toHex(SHA256::hash(arrayRefFromStringRef((*Buffer)->getBuffer())),
               /*LowerCase=*/true);
}

Expected<std::vector<KernelInfo>> parseKernels(const CompilerOptions &Opts,
                                               BundleSource *Source) {
  StepTimer S("parse and check " + Opts.Frontend.InputPath, Opts.Verbose);
  auto Kernels = analyzeKernels(Opts.Frontend, Source);
  if (!Kernels)
    return Kernels.takeError();
  return Kernels;
}

namespace {

/// Records each target's entry points, and, from the first target, what
/// SKMD's analyses found; every target compiles the same source.
Error recordReports(const std::map<std::string, KernelReport> &Reports,
                    TargetKind Target, bool First,
                    std::vector<KernelInfo> &Kernels) {
  for (KernelInfo &K : Kernels) {
    auto It = Reports.find(K.Name);
    if (It == Reports.end())
      return createStringError("internal error: kernel '" + K.Name +
                               "' is missing from the " +
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
      return createStringError("internal error: kernel '" + K.Name +
                               "' changed shape in the IR");
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
  return Error::success();
}

/// Everything in the metadata but the kernels.
Expected<BundleMetadata> describeBundle(const CompilerOptions &Opts,
                                        ArrayRef<TargetKind> Targets,
                                        std::string SourceHash) {
  BundleMetadata Meta;
  Meta.Producer = "skmd-cc " SKMD_VERSION " (LLVM " LLVM_VERSION_STRING ")";
  Meta.SourceFile = std::string(sys::path::filename(Opts.Frontend.InputPath));
  Meta.SourceHash = std::move(SourceHash);
  Meta.CompileOptions = describeOptions(Opts.Frontend);
  for (TargetKind T : Targets) {
    TargetChoice C = chosenTarget(Opts, T);
    auto TM = createTargetMachine(C, Opts.Frontend.OptLevel);
    if (!TM)
      return TM.takeError();
    Meta.Targets.push_back({T, C.Triple, C.Cpu, checkableCpuFeatures(**TM)});
  }
  return Meta;
}

} // namespace

Expected<BundleMetadata>
compileKernels(const CompilerOptions &Opts, ArrayRef<TargetKind> Targets,
               std::string SourceHash, std::vector<KernelInfo> Kernels,
               std::vector<std::pair<TargetKind, std::string>> *Variants,
               const FrontendIR &Front) {
  auto Meta = describeBundle(Opts, Targets, std::move(SourceHash));
  if (!Meta)
    return Meta.takeError();
  for (TargetKind Target : Targets) {
    std::string Name(targetKindName(Target));
    LLVMContext Ctx;
    std::unique_ptr<Module> M;
    {
      StepTimer S(Name + ": compile to IR", Opts.Verbose);
      auto IR = Front ? Front(Target, Ctx) : buildKernelIR(Opts, Target, Ctx);
      if (IR && Front)
        IR = prepareKernelIR(std::move(*IR), Opts, Target);
      if (!IR)
        return IR.takeError();
      M = std::move(*IR);
    }
    {
      StepTimer S(Name + ": add partition variants", Opts.Verbose);
      auto Reports = addPartitionVariants(*M, Opts, Target);
      if (!Reports)
        return Reports.takeError();
      if (Error E = recordReports(*Reports, Target, Target == Targets.front(),
                                  Kernels))
        return E;
    }
    if (!Variants)
      continue;
    StepTimer S(Name + ": lower to variant", Opts.Verbose);
    auto Bytes = lowerToVariant(*M, Opts, Target);
    if (!Bytes)
      return Bytes.takeError();
    Variants->emplace_back(Target, std::move(*Bytes));
  }
  Meta->Kernels = std::move(Kernels);
  return Meta;
}

Expected<BundleWriter> compileBundle(const CompilerOptions &Opts,
                                     ArrayRef<TargetKind> Targets) {
  auto Hash = sourceFileHash(Opts.Frontend.InputPath);
  if (!Hash)
    return Hash.takeError();
  BundleSource Source;
  auto Kernels = parseKernels(Opts, &Source);
  if (!Kernels)
    return Kernels.takeError();
  std::vector<std::pair<TargetKind, std::string>> Variants;
  auto Meta = compileKernels(Opts, Targets, std::move(*Hash),
                             std::move(*Kernels), &Variants);
  if (!Meta)
    return Meta.takeError();
  BundleWriter Writer(std::move(*Meta));
  for (auto &[Target, Bytes] : Variants)
    Writer.addVariant(Target, std::move(Bytes));
  Writer.setSource(std::move(Source));
  return Writer;
}

} // namespace skmd
