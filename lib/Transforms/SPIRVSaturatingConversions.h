//===- SPIRVSaturatingConversions.h - convert_<int>_sat as plain IR -*- C++ -*-===//
//
// LLVM 22's SPIR-V backend lowers an integer-to-integer convert_<T>_sat by
// the destination's signedness alone: to a signed type it emits
// OpSatConvertUToS (the source read as unsigned), to an unsigned one
// OpSatConvertSToU (the source read as signed). convert_char_sat(-129L)
// then gives 127 instead of -128, and convert_uchar_sat of a ulong above
// 2^63 gives 0 instead of 255 (found by SKMD's OpenCL device against the
// CPU, on Intel's OpenCL runtime). This pass, run on the SPIR-V variant
// only, replaces those calls with clamps in the source's own signedness
// (llvm.smax/smin/umin) and a truncation or extension, which every backend
// lowers exactly. Conversions from floating point are left to the backend.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-spirv-saturating-conversions kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_SPIRVSATURATINGCONVERSIONS_H
#define SKMD_TRANSFORMS_SPIRVSATURATINGCONVERSIONS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class SPIRVSaturatingConversionsPass
    : public llvm::PassInfoMixin<SPIRVSaturatingConversionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_SPIRVSATURATINGCONVERSIONS_H
