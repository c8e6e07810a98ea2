//===- SPIRVAnyAll.h - any() and all() as comparisons ------------*- C++ -*-===//
//
// OpenCL's any(x) and all(x) take integers and test their sign bits: any
// is 1 when some component's most significant bit is set. LLVM 22's SPIR-V
// backend maps them to OpAny and OpAll with the integer vector as the
// operand, which SPIR-V allows only on vectors of bool: spirv-val refused
// the module ("Expected operand to be vector bool: Any") and with it the
// whole file's default build. This pass, run on the SPIR-V variant only,
// writes each call as what OpenCL defines: a signed comparison with zero
// per component, or-ed (any) or and-ed (all), as an int.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-spirv-any-all kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_SPIRVANYALL_H
#define SKMD_TRANSFORMS_SPIRVANYALL_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class SPIRVAnyAllPass : public llvm::PassInfoMixin<SPIRVAnyAllPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_SPIRVANYALL_H
