//===- SPIRVIntegerConversions.h - convert_<int> as plain IR ----*- C++ -*-===//
//
// LLVM 22's SPIR-V backend gets integer-to-integer convert_<T> calls wrong
// in two ways. Between types of one width (convert_int4 of a uint4) it
// emits OpUConvert or OpSConvert, which must change the width: spirv-val
// refuses the module ("Expected input to have different bit width"), and
// with it the whole file's default build. And it lowers convert_<T>_sat by
// the destination's signedness alone: to a signed type it emits
// OpSatConvertUToS (the source read as unsigned), to an unsigned one
// OpSatConvertSToU (the source read as signed). convert_char_sat(-129L)
// then gives 127 instead of -128, and convert_uchar_sat of a ulong above
// 2^63 gives 0 instead of 255 (found by SKMD's OpenCL device against the
// CPU, on Intel's OpenCL runtime). This pass, run on the SPIR-V variant
// only, replaces every integer-to-integer conversion with plain IR: for
// _sat, clamps in the source's own signedness (llvm.smax/smin/umin); then a
// truncation, an extension by the source's signedness, or nothing between
// equal widths, which every backend lowers exactly. Conversions from
// floating point are left to the backend.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-spirv-integer-conversions kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_SPIRVINTEGERCONVERSIONS_H
#define SKMD_TRANSFORMS_SPIRVINTEGERCONVERSIONS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class SPIRVIntegerConversionsPass
    : public llvm::PassInfoMixin<SPIRVIntegerConversionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_SPIRVINTEGERCONVERSIONS_H
