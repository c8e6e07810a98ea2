//===- SPIRVBackendLimits.h - What LLVM 22's SPIR-V backend cannot take -*- C++ -*-===//
#ifndef SKMD_CODEGEN_SPIRVBACKENDLIMITS_H
#define SKMD_CODEGEN_SPIRVBACKENDLIMITS_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace skmd {

/// How every refusal of checkSPIRVBackendLimits begins; callers that chose
/// no targets themselves take it as "build the others" (skmd-cc, the OpenCL
/// platform filling its build cache).
inline constexpr const char *SPIRVVariantUnsupported = "the SPIR-V variant cannot carry ";

/// Refuses, with a message, what LLVM 22's SPIR-V backend would answer with
/// report_fatal_error, which ends the process: fatal in skmd-cc, and in a
/// program that compiles in-process (the OpenCL platform's clBuildProgram).
///  - printf beside its partition-ready form ("SPV_EXT_relaxed_printf_string_
///    address_space is required"; with the extension, a format spirv-val
///    refuses);
///  - a zero-length array anywhere in a type the module uses (a GNU
///    extension clang accepts: "Runtime arrays are not allowed in non-shader
///    SPIR-V modules").
llvm::Error checkSPIRVBackendLimits(const llvm::Module &M);

} // namespace skmd

#endif // SKMD_CODEGEN_SPIRVBACKENDLIMITS_H
