//===- TargetPipeline.cpp - The compile pipeline of each target -----------===//
//
// The one place that says what happens to a kernel on its way to each
// device. Read the three lower* functions top to bottom:
//
//   all:    OpenCL C --clang--> IR -> inline kernel bodies
//           -> internalize non-kernels -> O<n>
//           (= kernel IR, what --emit=llvm prints and SKMD's passes see)
//   x86:    kernel IR -> x86-64 object -> ld -shared -> .so
//   ptx:    kernel IR -> link libclc + libdevice -> internalize -> O<n> -> PTX
//   spirv:  kernel IR -> SPIR-V 1.2 -> SPIRV-Tools validation
//
//===----------------------------------------------------------------------===//
#include "Pipeline/TargetPipeline.h"

#include "CodeGen/NVPTXDeviceLibraries.h"
#include "CodeGen/SPIRVValidation.h"
#include "CodeGen/SharedObjectLinker.h"
#include "CodeGen/TargetMachineFactory.h"
#include "Support/OpenCLKernel.h"
#include "Transforms/KernelBodyInlining.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

namespace skmd {

namespace {

OptimizationLevel optimizationLevel(unsigned Level) {
  switch (Level) {
  case 0:
    return OptimizationLevel::O0;
  case 1:
    return OptimizationLevel::O1;
  case 2:
    return OptimizationLevel::O2;
  default:
    return OptimizationLevel::O3;
  }
}

/// Puts each kernel's body into its entry point, keeps the kernels,
/// internalizes everything else (helpers, and what the device libraries
/// brought in) and runs the default -O<n> pipeline, which inlines the helpers
/// and deletes what no kernel uses.
Error internalizeAndOptimize(Module &M, TargetMachine &TM, unsigned Level) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  MPM.addPass(KernelBodyInliningPass());
  MPM.addPass(InternalizePass(
      [](const GlobalValue &GV) {
        const auto *F = dyn_cast<Function>(&GV);
        return F && isOpenCLKernel(*F);
      }));
  OptimizationLevel O = optimizationLevel(Level);
  MPM.addPass(O == OptimizationLevel::O0 ? PB.buildO0DefaultPipeline(O)
                                         : PB.buildPerModuleDefaultPipeline(O));
  MPM.run(M, MAM);

  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: optimized IR is invalid:\n" +
                                 Broken);
  return Error::success();
}

Expected<std::unique_ptr<TargetMachine>>
targetMachineFor(const CompilerOptions &Opts, TargetKind Target) {
  return createTargetMachine(chosenTarget(Opts, Target), Opts.Frontend.OptLevel);
}

/// PTX needs the device libraries linked and optimized in before codegen.
Error linkPTXLibraries(Module &M, const CompilerOptions &Opts,
                       TargetMachine &TM) {
  auto Paths = findNVPTXLibraries(Opts.LibclcPath, Opts.LibdevicePath);
  if (!Paths)
    return Paths.takeError();
  if (Error E = linkNVPTXLibraries(M, *Paths))
    return E;
  return internalizeAndOptimize(M, TM, Opts.Frontend.OptLevel);
}

} // namespace

TargetChoice chosenTarget(const CompilerOptions &Opts, TargetKind Target) {
  switch (Target) {
  case TargetKind::X86:
    return chooseTarget(Target, Opts.X86Cpu);
  case TargetKind::PTX:
    return chooseTarget(Target, Opts.CudaArch);
  case TargetKind::SPIRV:
    return chooseTarget(Target);
  }
  llvm_unreachable("unknown target kind");
}

Expected<std::unique_ptr<Module>> buildKernelIR(const CompilerOptions &Opts,
                                                TargetKind Target,
                                                LLVMContext &Ctx) {
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  auto M = compileToIR(Opts.Frontend, chooseTarget(Target).Triple, Ctx);
  if (!M)
    return M.takeError();
  if (Error E = internalizeAndOptimize(**M, **TM, Opts.Frontend.OptLevel))
    return std::move(E);
  return M;
}

Expected<std::string> lowerToVariant(Module &M, const CompilerOptions &Opts,
                                     TargetKind Target) {
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  switch (Target) {
  case TargetKind::X86: {
    auto Object = emitWithBackend(M, **TM, CodeGenFileType::ObjectFile);
    if (!Object)
      return Object.takeError();
    return linkSharedObject(*Object, Opts.Verbose);
  }
  case TargetKind::PTX: {
    if (Error E = linkPTXLibraries(M, Opts, **TM))
      return std::move(E);
    auto PTX = emitWithBackend(M, **TM, CodeGenFileType::AssemblyFile);
    if (!PTX)
      return PTX.takeError();
    // cuModuleLoadData takes a C string: store the terminator.
    return *PTX + '\0';
  }
  case TargetKind::SPIRV: {
    auto Binary = emitWithBackend(M, **TM, CodeGenFileType::ObjectFile);
    if (!Binary)
      return Binary.takeError();
    if (Error E = validateSPIRV(*Binary))
      return std::move(E);
    return Binary;
  }
  }
  llvm_unreachable("unknown target kind");
}

Expected<std::string> lowerToAssembly(Module &M, const CompilerOptions &Opts,
                                      TargetKind Target) {
  if (Target == TargetKind::SPIRV) {
    auto Binary = lowerToVariant(M, Opts, Target);
    if (!Binary)
      return Binary.takeError();
    return disassembleSPIRV(*Binary);
  }
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  if (Target == TargetKind::PTX)
    if (Error E = linkPTXLibraries(M, Opts, **TM))
      return std::move(E);
  return emitWithBackend(M, **TM, CodeGenFileType::AssemblyFile);
}

} // namespace skmd
