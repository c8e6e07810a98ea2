//===- SeparateCompilation.cpp - clCompileProgram and clLinkProgram --------===//
#include "Driver/SeparateCompilation.h"

#include "Driver/BundleCompiler.h"
#include "Frontend/OpenCLFrontend.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace skmd {

namespace {

constexpr TargetKind AllTargets[] = {TargetKind::X86, TargetKind::PTX, TargetKind::SPIRV};

/// Under -fgnu89-inline a plain `inline` function is an external definition
/// in every unit whose header has it; OpenCL means one function of the
/// program, so any unit's copy may stand for all.
void shareInlineDefinitions(Module &M) {
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasExternalLinkage() &&
        F.hasFnAttribute(Attribute::InlineHint))
      F.setLinkage(GlobalValue::LinkOnceODRLinkage);
}

/// The lowest -O level of \p Objects: one compiled with -cl-opt-disable
/// keeps the pipeline from optimizing.
unsigned optLevelOf(ArrayRef<CompiledObject> Objects) {
  unsigned Level = 3;
  for (const CompiledObject &O : Objects)
    Level = std::min(Level, O.OptLevel);
  return Level;
}

Expected<std::vector<KernelInfo>> kernelsOf(ArrayRef<CompiledObject> Objects) {
  std::vector<KernelInfo> All;
  std::set<std::string> Names;
  for (const CompiledObject &O : Objects)
    for (const KernelInfo &K : O.Kernels) {
      if (!Names.insert(K.Name).second)
        return createStringError("kernel '" + K.Name +
                                 "' is defined in more than one linked program");
      All.push_back(K);
    }
  return All;
}

std::vector<std::string> optionsOf(ArrayRef<CompiledObject> Objects) {
  std::vector<std::string> All;
  for (const CompiledObject &O : Objects)
    All.insert(All.end(), O.Options.begin(), O.Options.end());
  return All;
}

/// The linker's diagnostics, for the build log.
struct CollectDiagnostics : DiagnosticHandler {
  explicit CollectDiagnostics(std::string &Text) : Text(Text) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    raw_string_ostream Out(Text);
    DiagnosticPrinterRawOStream Printer(Out);
    DI.print(Printer);
    Out << "\n";
    return true;
  }
  std::string &Text;
};

/// \p Objects' bitcode for \p Target, linked: each unit's internal
/// functions stay its own, an external one defined twice is an error.
Expected<std::unique_ptr<Module>> linkBitcode(ArrayRef<CompiledObject> Objects,
                                              TargetKind Target, LLVMContext &Ctx) {
  std::string Diagnostics;
  std::unique_ptr<DiagnosticHandler> Previous = Ctx.getDiagnosticHandler();
  Ctx.setDiagnosticHandler(std::make_unique<CollectDiagnostics>(Diagnostics));
  llvm::scope_exit Restore([&] { Ctx.setDiagnosticHandler(std::move(Previous)); });
  std::unique_ptr<Module> Linked;
  std::unique_ptr<Linker> L;
  std::string Name(targetKindName(Target));
  for (size_t I = 0; I < Objects.size(); ++I) {
    auto It = Objects[I].Bitcode.find(Target);
    if (It == Objects[I].Bitcode.end())
      return createStringError("linked program " + std::to_string(I) + " has no " + Name +
                               " bitcode");
    auto M = parseBitcodeFile(MemoryBufferRef(It->second, "unit" + std::to_string(I)), Ctx);
    if (!M)
      return createStringError("linked program " + std::to_string(I) + "'s " + Name +
                               " bitcode does not read: " + toString(M.takeError()));
    if (!Linked) {
      Linked = std::move(*M);
      L = std::make_unique<Linker>(*Linked);
    } else if (L->linkInModule(std::move(*M))) {
      return createStringError("linking program " + std::to_string(I) + " failed: " +
                               Diagnostics);
    }
  }
  if (!Linked)
    return createStringError("no programs to link");
  return Linked;
}

std::string bitcodeOf(const Module &M) {
  std::string Code;
  raw_string_ostream Out(Code);
  WriteBitcodeToFile(M, Out);
  Out.flush();
  return Code;
}

} // namespace

Expected<CompiledObject> compileObject(const CompilerOptions &Opts) {
  auto Kernels = analyzeKernels(Opts.Frontend);
  if (!Kernels)
    return Kernels.takeError();
  CompiledObject Object;
  Object.OptLevel = Opts.Frontend.OptLevel;
  Object.Options = describeOptions(Opts.Frontend);
  Object.Kernels = std::move(*Kernels);
  std::vector<TargetKind> Targets = Opts.Frontend.Variants;
  if (Targets.empty())
    Targets.assign(std::begin(AllTargets), std::end(AllTargets));
  for (TargetKind Target : Targets) {
    LLVMContext Ctx;
    auto M = compileToIR(Opts.Frontend, chosenTarget(Opts, Target).Triple, Ctx);
    if (!M)
      return M.takeError();
    // The temporary file's name is no part of the object: one unit gives
    // the same bytes each time (the build cache's key).
    (*M)->setModuleIdentifier("unit.cl");
    (*M)->setSourceFileName("unit.cl");
    shareInlineDefinitions(**M);
    Object.Bitcode[Target] = bitcodeOf(**M);
  }
  return Object;
}

Expected<CompiledObject> linkLibrary(ArrayRef<CompiledObject> Objects) {
  auto Kernels = kernelsOf(Objects);
  if (!Kernels)
    return Kernels.takeError();
  CompiledObject Library;
  Library.Library = true;
  Library.OptLevel = optLevelOf(Objects);
  Library.Options = optionsOf(Objects);
  Library.Kernels = std::move(*Kernels);
  if (Objects.empty())
    return createStringError("no programs to link");
  for (const auto &Each : Objects.front().Bitcode) {
    TargetKind Target = Each.first;
    LLVMContext Ctx;
    auto M = linkBitcode(Objects, Target, Ctx);
    if (!M)
      return M.takeError();
    Library.Bitcode[Target] = bitcodeOf(**M);
  }
  return Library;
}

Expected<BundleWriter> linkExecutable(ArrayRef<CompiledObject> Objects, CompilerOptions Opts,
                                      ArrayRef<TargetKind> Targets) {
  auto Kernels = kernelsOf(Objects);
  if (!Kernels)
    return Kernels.takeError();
  Opts.Frontend.OptLevel = optLevelOf(Objects);
  if (Opts.Frontend.InputPath.empty())
    Opts.Frontend.InputPath = "linked program";
  SHA256 Hash;
  for (const CompiledObject &O : Objects)
    for (const auto &[Target, Code] : O.Bitcode)
      Hash.update(Code);
  std::vector<std::pair<TargetKind, std::string>> Variants;
  auto Meta = compileKernels(
      Opts, Targets, toHex(Hash.final(), /*LowerCase=*/true), std::move(*Kernels), &Variants,
      [&](TargetKind Target, LLVMContext &Ctx) { return linkBitcode(Objects, Target, Ctx); });
  if (!Meta)
    return Meta.takeError();
  Meta->CompileOptions = optionsOf(Objects);
  BundleWriter Writer(std::move(*Meta));
  for (auto &[Target, Bytes] : Variants)
    Writer.addVariant(Target, std::move(Bytes));
  return Writer;
}

} // namespace skmd
