//===- TargetPipeline.h - The compile pipeline of each target ----*- C++ -*-===//
#ifndef SKMD_PIPELINE_TARGETPIPELINE_H
#define SKMD_PIPELINE_TARGETPIPELINE_H

#include "CodeGen/TargetMachineFactory.h"
#include "Frontend/OpenCLFrontend.h"
#include "bundle/Metadata.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>

namespace skmd {

struct CompilerOptions {
  FrontendOptions Frontend;
  std::string X86Cpu;    ///< Empty: the default (x86-64-v3).
  std::string CudaArch;  ///< Empty: the default (sm_90).
  std::string LibclcPath;
  std::string LibdevicePath;
  std::string X86BuiltinsPath; ///< Empty: the library built with skmd-cc.
  bool Verbose = false;
  /// Also build the SKMD paper's guard-form variants, for comparison.
  bool GuardVariants = false;
  /// Below AVX-512, also give each work-group function an AVX-512 body
  /// chosen at load (skmd-cpu-dispatch).
  bool X86Avx512Bodies = true;
};

/// What SKMD's analyses found out about one kernel, for the metadata.
struct KernelReport {
  KernelSymbols Symbols;
  /// Per argument: read / written (skmd-kernel-args).
  std::vector<std::pair<bool, bool>> ArgReadWrite;
  KernelFootprint Footprint;
  Contiguity Contiguous = Contiguity::No;
  bool Partitionable = true;
  std::vector<std::string> Reasons;
  std::vector<unsigned> LaunchTested;
  std::vector<CombinedArg> Combined;
  KernelInfo::CpuNeeds Cpu, CpuMerge; ///< x86 only.
};

/// The triple and CPU that \p Target is compiled for under \p Opts.
TargetChoice chosenTarget(const CompilerOptions &Opts, TargetKind Target);

/// The IR the SKMD passes work on for \p Target: the frontend's output with
/// everything but the kernels internalized and optimized at -O<n>. This is
/// what `skmd-cc --emit=llvm` prints and what `opt -load-pass-plugin` takes.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildKernelIR(const CompilerOptions &Opts, TargetKind Target,
              llvm::LLVMContext &Ctx);

/// buildKernelIR's steps after the frontend, on \p Front: the frontend's
/// output for \p Target from elsewhere (clLinkProgram's units, linked).
llvm::Expected<std::unique_ptr<llvm::Module>>
prepareKernelIR(std::unique_ptr<llvm::Module> Front, const CompilerOptions &Opts,
                TargetKind Target);

/// SKMD's stage: adds each kernel's partition-ready (and, if asked, guard)
/// and merge variants, reports what the analyses found per kernel name,
/// and optimizes the new variants at -O<n>.
llvm::Expected<std::map<std::string, KernelReport>>
addPartitionVariants(llvm::Module &M, const CompilerOptions &Opts,
                     TargetKind Target);

/// Lowers kernel IR, with its variants, to the variant stored in the bundle: an x86-64 shared
/// object, PTX text (NUL-terminated), or a validated SPIR-V binary.
llvm::Expected<std::string> lowerToVariant(llvm::Module &M,
                                           const CompilerOptions &Opts,
                                           TargetKind Target);

/// Lowers kernel IR to text for people: x86 assembly, PTX, or SPIR-V
/// assembly.
llvm::Expected<std::string> lowerToAssembly(llvm::Module &M,
                                            const CompilerOptions &Opts,
                                            TargetKind Target);

} // namespace skmd

#endif // SKMD_PIPELINE_TARGETPIPELINE_H
