//===- SPIRVVectorSelects.h - Vector selects on a vector condition -*- C++ -*-===//
//
// LLVM IR allows `select i1 %c, <4 x float> %x, <4 x float> %y`: one
// condition for the whole vector. SPIR-V before 1.4, which OpenCL 2.2's
// rules and OpenCL drivers take, requires OpSelect's condition to have as
// many components as its result, and LLVM 22's SPIR-V backend emits the
// scalar condition as it is: `a[i] = (i < n) ? x : y;` with float4 x and y
// failed spirv-val ("Expected vector sizes of Result Type and the condition
// to be equal"), and with it the whole file's default build. This pass, run
// on the SPIR-V variant only, splats such a condition to a vector of i1.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-spirv-vector-selects kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_SPIRVVECTORSELECTS_H
#define SKMD_TRANSFORMS_SPIRVVECTORSELECTS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class SPIRVVectorSelectsPass : public llvm::PassInfoMixin<SPIRVVectorSelectsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_SPIRVVECTORSELECTS_H
