//===- BundleCompiler.h - OpenCL C source to a whole bundle ------*- C++ -*-===//
//
// What skmd-cc does with a file, as a library: parse and check the source,
// compile each selected target through SKMD's stage, and assemble the
// metadata, the variants and the source into a bundle. Every failure is an
// llvm::Error (frontend diagnostics have already been printed), so the
// libFuzzer target can drive the same path as the tool.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DRIVER_BUNDLECOMPILER_H
#define SKMD_DRIVER_BUNDLECOMPILER_H

#include "Pipeline/TargetPipeline.h"
#include "bundle/Bundle.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace skmd {

/// Prints "skmd-cc: <step>: <ms> ms" when it goes out of scope, if enabled
/// (skmd-cc -v).
class StepTimer {
public:
  StepTimer(std::string Name, bool Enabled);
  ~StepTimer();
  StepTimer(const StepTimer &) = delete;
  StepTimer &operator=(const StepTimer &) = delete;

private:
  std::string Name;
  bool Enabled;
  std::chrono::steady_clock::time_point Start;
};

/// The SHA-256 of the file at \p Path, in hex, for the bundle's metadata.
llvm::Expected<std::string> sourceFileHash(const std::string &Path);

/// Parses and checks Opts.Frontend.InputPath: every kernel's host-side
/// description, and with \p Source the source as compiled. Fails if the file
/// defines no kernel.
llvm::Expected<std::vector<KernelInfo>>
parseKernels(const CompilerOptions &Opts, BundleSource *Source);

/// A target's frontend output from elsewhere than the source file
/// (clLinkProgram's units, linked).
using FrontendIR = std::function<llvm::Expected<std::unique_ptr<llvm::Module>>(
    TargetKind, llvm::LLVMContext &)>;

/// Compiles \p Kernels (from parseKernels) for every target in \p Targets
/// and fills in what SKMD's analyses found; \p SourceHash is
/// sourceFileHash of the input. With \p Variants, also lowers
/// each target to its variant; without, only the metadata is built
/// (skmd-cc --emit=meta). With \p Front, each target starts from its IR
/// instead of Opts.Frontend.InputPath's.
llvm::Expected<BundleMetadata>
compileKernels(const CompilerOptions &Opts, llvm::ArrayRef<TargetKind> Targets,
               std::string SourceHash, std::vector<KernelInfo> Kernels,
               std::vector<std::pair<TargetKind, std::string>> *Variants,
               const FrontendIR &Front = nullptr);

/// The whole bundle for Opts.Frontend.InputPath: its hash, parseKernels, then
/// compileKernels with variants, then the source.
llvm::Expected<BundleWriter> compileBundle(const CompilerOptions &Opts,
                                           llvm::ArrayRef<TargetKind> Targets);

} // namespace skmd

#endif // SKMD_DRIVER_BUNDLECOMPILER_H
