//===- TargetPipeline.cpp - The compile pipeline of each target -----------===//
//
// The one place that says what happens to a kernel on its way to each
// device. Read the three lower* functions top to bottom:
//
//   all:    OpenCL C --clang--> IR -> skmd-lower-async-copies
//           -> skmd-private-out-args -> inline kernel bodies
//           -> internalize non-kernels -> O<n> without unrolling or
//           vectorizing (= kernel IR, what --emit=llvm prints and SKMD's
//           passes see: loops keep one induction variable each)
//   SKMD:   kernel IR -> skmd-partition-ready [ptx: -> skmd-partition-ready<box>]
//           [-> skmd-partition-ready<guard>]
//           -> skmd-merge-kernel -> (skmd-kernel-args, skmd-access,
//           skmd-partition for the metadata) [x86: -> link SKMD's x86
//           builtins -> skmd-lockstep-barriers -> skmd-implicit-loop-barriers
//           -> skmd-work-group-function -> skmd-work-item-loop-versioning
//           -> skmd-work-item-scalarizer
//           [-> skmd-cpu-dispatch below AVX-512]] -> O<n>
//   x86:    SKMD IR -> keep only work-group functions
//           -> skmd-x86-buffer-alignment -> x86-64 object -> ld -shared -> .so
//   ptx:    SKMD IR -> work-item functions libclc lacks -> __local
//           arguments into dynamic shared memory -> link libclc +
//           libdevice -> internalize -> O<n> -> PTX
//   spirv:  SKMD IR -> skmd-spirv-integer-conversions
//           -> skmd-spirv-vector-selects -> skmd-spirv-any-all -> SPIR-V 1.2
//           -> SPIRV-Tools validation
//
//===----------------------------------------------------------------------===//
#include "Pipeline/TargetPipeline.h"

#include "Analysis/AccessFootprint.h"
#include "Analysis/KernelArgAccess.h"
#include "Analysis/Partitionability.h"
#include "CodeGen/BitcodeLibrary.h"
#include "CodeGen/NVPTXDeviceLibraries.h"
#include "CodeGen/NVPTXLocalArguments.h"
#include "CodeGen/NVPTXWorkItemFunctions.h"
#include "CodeGen/PTXCompatibility.h"
#include "CodeGen/SPIRVBackendLimits.h"
#include "CodeGen/SPIRVValidation.h"
#include "CodeGen/SharedObjectLinker.h"
#include "CodeGen/TargetMachineFactory.h"
#include "Plugin/SKMDPlugin.h"
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"
#include "Transforms/AsyncCopyLowering.h"
#include "Transforms/CpuDispatch.h"
#include "Transforms/ImplicitLoopBarriers.h"
#include "Transforms/KernelBodyInlining.h"
#include "Transforms/LockstepBarriers.h"
#include "Transforms/MergeKernel.h"
#include "Transforms/PartitionReadyKernel.h"
#include "Transforms/PrivateOutArguments.h"
#include "Transforms/SPIRVAnyAll.h"
#include "Transforms/SPIRVIntegerConversions.h"
#include "Transforms/SPIRVVectorSelects.h"
#include "Transforms/X86BufferAlignment.h"
#include "Transforms/WorkGroupFunction.h"
#include "Transforms/WorkItemScalarizer.h"
#include "Transforms/WorkItemLoopVersioning.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/SROA.h"

#include <algorithm>
#include <dlfcn.h>
#include <link.h>

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
/// Pipeline tuning for the kernel IR: unrolled or vectorized loops (with
/// remainder loops starting where the main loop stopped) are beyond the
/// footprint analysis, so they wait until SKMD's stage is done.
PipelineTuningOptions analyzableTuning() {
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = false;
  PTO.LoopInterleaving = false;
  PTO.LoopVectorization = false;
  PTO.SLPVectorization = false;
  return PTO;
}

/// A pass builder with every analysis registered, SKMD's included.
struct Passes {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;

  explicit Passes(TargetMachine &TM,
                  PipelineTuningOptions PTO = PipelineTuningOptions())
      : PB(&TM, PTO) {
    registerSKMDPasses(PB);
    // On x86 the vectorizer may call glibc's vector math (libmvec) for the
    // builtins' exp, sin, ... so they stay vectorized.
    if (TM.getTargetTriple().isX86()) {
      TargetLibraryInfoImpl TLII(TM.getTargetTriple(), VectorLibrary::LIBMVEC);
      // A kernel's printf is OpenCL's, which the builtins provide; C's
      // shortcuts for it (printf("...\n") as puts) are not there.
      TLII.setUnavailable(LibFunc_puts);
      TLII.setUnavailable(LibFunc_putchar);
      FAM.registerPass([TLII] { return TargetLibraryAnalysis(TLII); });
    }
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }

  /// The default pipeline; at -O0 still helper inlining and SROA, so SKMD's
  /// analyses see one function of SSA values rather than calls and stack
  /// slots.
  ModulePassManager optimization(unsigned Level) {
    OptimizationLevel O = optimizationLevel(Level);
    if (O != OptimizationLevel::O0)
      return PB.buildPerModuleDefaultPipeline(O);
    ModulePassManager MPM = PB.buildO0DefaultPipeline(O);
    MPM.addPass(KernelBodyInliningPass(/*AllHelpers=*/true));
    MPM.addPass(createModuleToFunctionPassAdaptor(
        SROAPass(SROAOptions::ModifyCFG)));
    return MPM;
  }
};

Error verify(Module &M) {
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the IR is invalid:\n" + Broken);
  return Error::success();
}

/// A __local variable is one per group, shared by its work-items, but on
/// x86 LLVM sees an internal global that one non-recursive function uses,
/// which GlobalOpt turns into that function's local (a register): each
/// work-item then kept its own copy, and what one item stored before a
/// barrier never reached the others (SHOC's top_scan: the seed one item
/// adds for the next digit). Marked externally initialized, the global
/// stays memory; GPU targets keep it in their local address space, which
/// GlobalOpt leaves alone.
void keepLocalVariablesShared(Module &M) {
  for (GlobalVariable &GV : M.globals())
    if (isLocalVariable(GV))
      GV.setExternallyInitialized(true);
}

Error internalizeAndOptimize(Module &M, TargetMachine &TM, unsigned Level,
                             PipelineTuningOptions PTO) {
  if (TM.getTargetTriple().isX86())
    keepLocalVariablesShared(M);
  Passes P(TM, PTO);
  ModulePassManager MPM;
  MPM.addPass(KernelBodyInliningPass());
  MPM.addPass(InternalizePass([](const GlobalValue &GV) {
    const auto *F = dyn_cast<Function>(&GV);
    return F && isOpenCLKernel(*F);
  }));
  MPM.addPass(P.optimization(Level));
  MPM.run(M, P.MAM);
  return verify(M);
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
  lowerNVPTXWorkItemFunctions(M);
  addressLocalArgumentsFromDynamicShared(M);
  if (Error E = linkNVPTXLibraries(M, *Paths))
    return E;
  return internalizeAndOptimize(M, TM, Opts.Frontend.OptLevel,
                                PipelineTuningOptions());
}

/// The folder of the binary this code was linked into: skmd-cc's bin/, or
/// the lib/ of the OpenCL platform's compiler module. dladdr names a shared
/// object by the path it was loaded from, the main program by argv[0] (not
/// a path where it came from $PATH), so that one is /proc/self/exe.
std::string ownBinaryDir() {
  static int Anchor;
  Dl_info Info;
  struct link_map *Map = nullptr;
  std::string Path;
  if (dladdr1(&Anchor, &Info, reinterpret_cast<void **>(&Map),
              RTLD_DL_LINKMAP) &&
      Map && Map->l_name && *Map->l_name)
    Path = Map->l_name;
  else
    Path = sys::fs::getMainExecutable(nullptr, &Anchor);
  SmallString<256> Real;
  if (!Path.empty() && !sys::fs::real_path(Path, Real))
    Path = std::string(Real);
  return sys::path::parent_path(Path).str();
}

/// Where the x86 builtins library may be: an installed one relative to the
/// binary (bin/../lib/skmd for skmd-cc, lib/skmd for the compiler module;
/// lib/CMakeLists.txt gives both from GNUInstallDirs), then the build
/// tree's, so that an installed compiler works with the build tree gone.
std::vector<std::string> x86BuiltinsCandidates() {
  std::vector<std::string> Candidates;
#ifdef SKMD_X86_BUILTINS_NAME
  std::string Dir = ownBinaryDir();
  if (!Dir.empty())
    for (const char *Rel : {SKMD_X86_BUILTINS_FROM_BINDIR, SKMD_X86_BUILTINS_FROM_LIBDIR}) {
      SmallString<256> P(Dir);
      sys::path::append(P, Rel, SKMD_X86_BUILTINS_NAME);
      sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      if (std::find(Candidates.begin(), Candidates.end(), std::string(P)) ==
          Candidates.end())
        Candidates.push_back(std::string(P));
    }
#endif
#ifdef SKMD_X86_BUILTINS
  Candidates.push_back(SKMD_X86_BUILTINS);
#endif
  return Candidates;
}

/// SKMD's OpenCL builtins for x86 (lib/Builtins/x86), only what the kernels
/// call, internal so that the work-group functions inline them.
Error linkX86Builtins(Module &M, const CompilerOptions &Opts) {
  std::vector<std::string> Candidates = x86BuiltinsCandidates();
  auto Path = findBitcodeLibrary("SKMD's x86 builtins library", "--x86-builtins",
                                 Opts.X86BuiltinsPath, Candidates,
                                 "Rebuild SKMD (the target skmd-builtins), or "
                                 "pass --x86-builtins=PATH");
  if (!Path)
    return Path.takeError();
  if (Opts.Verbose)
    errs() << "x86 builtins: " << *Path << '\n';
  if (Error E = linkBitcodeLibrary(M, *Path))
    return E;
  for (Function &F : M)
    if (!F.isDeclaration() && !isOpenCLKernel(F))
      F.setLinkage(GlobalValue::InternalLinkage);
  return Error::success();
}

/// The x86 variant exports only work-group functions; the kernels they were
/// made from (which call work-item functions no CPU library defines) go.
void keepOnlyWorkGroupFunctions(Module &M, TargetMachine &TM) {
  Passes P(TM);
  ModulePassManager MPM;
  MPM.addPass(InternalizePass([](const GlobalValue &GV) {
    return GV.getName().ends_with(WorkGroupFunctionSuffix);
  }));
  MPM.addPass(GlobalDCEPass());
  MPM.run(M, P.MAM);
}

/// Every OpenCL builtin has a mangled (overloadable) name, so a "_Z"
/// function still undefined in the x86 variant is one our library lacks;
/// "_ZGV" names are libmvec's vector math, which the CPU device loads.
/// Caught here, it is a compile error naming the function; missed, it would
/// be a dlopen failure on the user's machine.
Error checkBuiltinsDefined(const Module &M) {
  std::string Missing;
  for (const Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && F.getName().starts_with("_Z") &&
        !F.getName().starts_with("_ZGV") && !F.use_empty())
      Missing += "\n  " + demangle(F.getName());
  if (Missing.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "the kernels call OpenCL builtins that SKMD's x86 "
                           "builtins library does not provide:" +
                               Missing);
}

/// A function of the kernel's own that it calls but the file does not
/// define would be an undefined symbol of the variant, found only when a
/// device loads it: refused here, named. OpenCL's builtins (mangled) come
/// from each target's library; printf from the driver's; samplers from
/// Clang's __translate_sampler_initializer, which each target lowers.
Error checkFunctionsDefined(const Module &M, StringRef File) {
  std::string Missing;
  for (const Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
        !F.getName().starts_with("_Z") && F.getName() != "printf" &&
        F.getName() != "__translate_sampler_initializer")
      Missing += (Missing.empty() ? "'" : ", '") + F.getName().str() + "'";
  if (Missing.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           File.str() + ": the kernels call " + Missing +
                               ", declared but not defined in the file (SKMD "
                               "compiles one file: define it there)");
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
  auto M = compileToIR(Opts.Frontend, chooseTarget(Target).Triple, Ctx);
  if (!M)
    return M.takeError();
  return prepareKernelIR(std::move(*M), Opts, Target);
}

Expected<std::unique_ptr<Module>> prepareKernelIR(std::unique_ptr<Module> M,
                                                  const CompilerOptions &Opts,
                                                  TargetKind Target) {
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  {
    // Work-group copies as the loops their items share, and math builtins'
    // second results through private slots: stores the footprint analysis
    // can describe (Transforms/AsyncCopyLowering.h, PrivateOutArguments.h).
    Passes P(**TM);
    ModulePassManager MPM;
    MPM.addPass(AsyncCopyLoweringPass());
    MPM.addPass(PrivateOutArgumentsPass());
    MPM.run(*M, P.MAM);
  }
  if (Error E = internalizeAndOptimize(*M, **TM, Opts.Frontend.OptLevel,
                                       analyzableTuning()))
    return E;
  // After the helpers no kernel calls are gone.
  if (Error E = checkFunctionsDefined(*M, Opts.Frontend.InputPath))
    return E;
  return std::move(M);
}

Expected<std::map<std::string, KernelReport>>
addPartitionVariants(Module &M, const CompilerOptions &Opts, TargetKind Target) {
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  Passes P(**TM);
  ModulePassManager Transforms;
  Transforms.addPass(PartitionReadyKernelPass(PartitionForm::Exact));
  // The CUDA device launches whole boxes of groups (rows, planes) through
  // the box form, which maps them as cheaply as the kernel as written.
  if (Target == TargetKind::PTX)
    Transforms.addPass(PartitionReadyKernelPass(PartitionForm::Box));
  if (Opts.GuardVariants)
    Transforms.addPass(PartitionReadyKernelPass(PartitionForm::Guard));
  Transforms.addPass(MergeKernelPass());
  Transforms.run(M, P.MAM);
  if (Error E = verify(M))
    return E;

  std::map<std::string, KernelReport> Reports;
  const auto &Args = P.MAM.getResult<KernelArgAccessAnalysis>(M);
  const auto &Access = P.MAM.getResult<AccessFootprintAnalysis>(M);
  const auto &Verdicts = P.MAM.getResult<PartitionabilityAnalysis>(M);
  for (const auto &[F, Info] : Access.Kernels) {
    KernelReport R;
    Function &K = const_cast<Function &>(*F);
    R.Symbols.Kernel = K.getName().str();
    for (auto [Role, Name] : {std::pair{"range", &R.Symbols.Range},
                              std::pair{"box", &R.Symbols.Box},
                              std::pair{"guard", &R.Symbols.Guard},
                              std::pair{"merge", &R.Symbols.Merge}})
      if (Function *V = findVariant(M, K, Role))
        *Name = V->getName().str();
    if (const auto *A = Args.lookup(K))
      for (const ArgAccess &X : *A)
        R.ArgReadWrite.push_back({X.Read, X.Written});
    R.Footprint = Info.toFootprint();
    R.Contiguous = Info.Contiguous;
    const PartitionVerdict &V = Verdicts.Kernels.lookup(F);
    R.Partitionable = V.Partitionable;
    R.Reasons = V.Reasons;
    R.LaunchTested = V.LaunchTested;
    R.Combined = V.Combined;
    Reports[R.Symbols.Kernel] = std::move(R);
  }

  // The CPU runs work-group functions: of the kernel, which runs any group
  // directly, and of its merge kernel.
  if (Target == TargetKind::X86) {
    if (Error E = linkX86Builtins(M, Opts))
      return E;
    ModulePassManager WG;
    // Work-items in step where programs count on it, as on GPUs and PoCL.
    WG.addPass(LockstepBarriersPass());
    WG.addPass(ImplicitLoopBarriersPass());
    WG.addPass(WorkGroupFunctionPass());
    // Full groups away from the range's edges run a copy of each
    // work-item loop without the guards' masks.
    WG.addPass(WorkItemLoopVersioningPass());
    // float4 code split into scalars, so that work-item loops widen across
    // work-items, except where they cannot (float4 accesses under a branch
    // that differs between items): there the float4 code stays.
    WG.addPass(WorkItemScalarizerPass());
    // Below AVX-512, a second body of each work-group function for
    // AVX-512 hosts, chosen when the runtime loads the variant.
    if (Opts.X86Avx512Bodies &&
        !llvm::is_contained(checkableCpuFeatures(**TM), "avx512f"))
      WG.addPass(CpuDispatchPass());
    WG.run(M, P.MAM);
    auto Needs = [](const Function &F) {
      auto Num = [&](const char *A) -> uint64_t {
        return std::stoull(F.getFnAttribute(A).getValueAsString().str());
      };
      return KernelInfo::CpuNeeds{Num(LocalMemBytesAttr), Num(StateBytesAttr)};
    };
    for (auto &[Name, R] : Reports) {
      Function *K = M.getFunction(Name);
      R.Cpu = Needs(*K);
      R.Symbols.Kernel = R.Symbols.Range = workGroupFunctionName(Name);
      R.Symbols.Guard.clear();
      if (Function *Merge = findVariant(M, *K, "merge")) {
        R.CpuMerge = Needs(*Merge);
        R.Symbols.Merge = workGroupFunctionName(Merge->getName());
      }
    }
    if (Error E = verify(M))
      return E;
  }

  // Now the full -O<n>, unrolling and vectorizing included, for every
  // kernel: the variants are fresh clones, the originals not yet unrolled.
  Passes Cleanup(**TM);
  ModulePassManager MPM = Cleanup.optimization(Opts.Frontend.OptLevel);
  MPM.run(M, Cleanup.MAM);
  if (Error E = verify(M))
    return E;
  return Reports;
}

Expected<std::string> lowerToVariant(Module &M, const CompilerOptions &Opts,
                                     TargetKind Target) {
  auto TM = targetMachineFor(Opts, Target);
  if (!TM)
    return TM.takeError();
  switch (Target) {
  case TargetKind::X86: {
    keepOnlyWorkGroupFunctions(M, **TM);
    if (Error E = checkBuiltinsDefined(M))
      return E;
    Passes P(**TM);
    ModulePassManager Fixes;
    Fixes.addPass(X86BufferAlignmentPass());
    Fixes.run(M, P.MAM);
    auto Object = emitWithBackend(M, **TM, CodeGenFileType::ObjectFile);
    if (!Object)
      return Object.takeError();
    return linkSharedObject(*Object, Opts.Verbose);
  }
  case TargetKind::PTX: {
    if (Error E = linkPTXLibraries(M, Opts, **TM))
      return E;
    auto PTX = emitWithBackend(M, **TM, CodeGenFileType::AssemblyFile);
    if (!PTX)
      return PTX.takeError();
    // cuModuleLoadData takes a C string: store the terminator.
    return dropSharedPointerParamAttributes(std::move(*PTX)) + '\0';
  }
  case TargetKind::SPIRV: {
    // Before the backend can end a process that compiles in-process (the
    // OpenCL platform's) with report_fatal_error.
    if (Error E = checkSPIRVBackendLimits(M))
      return E;
    Passes P(**TM);
    ModulePassManager Fixes;
    Fixes.addPass(SPIRVIntegerConversionsPass());
    Fixes.addPass(SPIRVVectorSelectsPass());
    Fixes.addPass(SPIRVAnyAllPass());
    Fixes.run(M, P.MAM);
    auto Binary = emitWithBackend(M, **TM, CodeGenFileType::ObjectFile);
    if (!Binary)
      return Binary.takeError();
    std::string Module = storeHalfAsFloat16Buffer(std::move(*Binary));
    if (Error E = validateSPIRV(Module))
      return E;
    return Module;
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
  if (Target != TargetKind::PTX)
    return emitWithBackend(M, **TM, CodeGenFileType::AssemblyFile);
  if (Error E = linkPTXLibraries(M, Opts, **TM))
    return E;
  auto PTX = emitWithBackend(M, **TM, CodeGenFileType::AssemblyFile);
  if (!PTX)
    return PTX.takeError();
  return dropSharedPointerParamAttributes(std::move(*PTX));
}

} // namespace skmd
