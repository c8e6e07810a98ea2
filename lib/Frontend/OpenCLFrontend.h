//===- OpenCLFrontend.h - OpenCL C to LLVM IR through Clang ------*- C++ -*-===//
//
// Runs Clang in-process (no dependence on a clang binary being installed next
// to skmd-cc) and reports diagnostics exactly as clang does: file:line:col.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_FRONTEND_OPENCLFRONTEND_H
#define SKMD_FRONTEND_OPENCLFRONTEND_H

#include "bundle/Bundle.h"
#include "bundle/Metadata.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace skmd {

struct FrontendOptions {
  std::string InputPath;
  std::vector<std::string> Defines;     ///< NAME or NAME=VALUE.
  std::vector<std::string> IncludeDirs;
  std::string CLStd = "CL3.0";          ///< CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0.
  unsigned OptLevel = 3;
  bool WarningsAsErrors = false; ///< -Werror
  bool NoWarnings = false;       ///< -w
  /// The variants the program is compiled for: its extension macros are
  /// those every one implements (support/DeviceFeatures.h). Empty: all.
  std::vector<TargetKind> Variants;
  /// Clang's resource directory (for opencl-c.h); empty means the one Clang
  /// was installed with.
  std::string ResourceDir;
  /// Where diagnostics go (an OpenCL program's build log); null: stderr.
  llvm::raw_ostream *Diagnostics = nullptr;
};

/// The options in the order they shape the code, for the bundle's metadata.
std::vector<std::string> describeOptions(const FrontendOptions &Opts);

/// Parses the source once and returns what the host needs to know about each
/// kernel (argument kinds, sizes, qualifiers, work-group attributes). Also
/// rejects what SKMD cannot run (images, pipes, device-side enqueue) with a
/// diagnostic at the offending line. Errors have already been printed when
/// this returns an llvm::Error.
/// With \p Source, also the source as compiled: the file, the headers it
/// included (Clang's own apart) and the options, for the bundle.
llvm::Expected<std::vector<KernelInfo>>
analyzeKernels(const FrontendOptions &Opts, BundleSource *Source = nullptr);

/// Compiles the source to LLVM IR for \p Triple, unoptimized but ready for
/// the optimizer (no optnone), so each target's pipeline decides the passes.
/// Prints errors only: analyzeKernels, which comes first, shows warnings.
llvm::Expected<std::unique_ptr<llvm::Module>>
compileToIR(const FrontendOptions &Opts, llvm::StringRef Triple,
            llvm::LLVMContext &Ctx);

} // namespace skmd

#endif // SKMD_FRONTEND_OPENCLFRONTEND_H
