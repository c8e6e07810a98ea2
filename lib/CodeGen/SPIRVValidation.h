//===- SPIRVValidation.h - In-process SPIR-V checks --------------*- C++ -*-===//
#ifndef SKMD_CODEGEN_SPIRVVALIDATION_H
#define SKMD_CODEGEN_SPIRVVALIDATION_H

#include "llvm/Support/Error.h"

#include <string>
#include <string_view>

namespace skmd {

/// Validates a SPIR-V module with SPIRV-Tools under OpenCL 2.2 rules (the
/// environment of the SPIR-V 1.2 that SKMD emits). The error carries every
/// message the validator printed.
llvm::Error validateSPIRV(std::string_view Binary);

/// LLVM's SPIR-V backend declares the Float16 capability (half arithmetic,
/// which OpenCL 2.2 devices need not have) whenever a kernel names the half
/// type, even when it only stores halfs (vload_half/vstore_half), which
/// Float16Buffer covers. This swaps the one for the other; the validator
/// still rejects modules that really compute in half.
std::string storeHalfAsFloat16Buffer(std::string Binary);

/// SPIR-V assembly text, for --emit=spirv to a terminal or pipe.
llvm::Expected<std::string> disassembleSPIRV(std::string_view Binary);

} // namespace skmd

#endif // SKMD_CODEGEN_SPIRVVALIDATION_H
