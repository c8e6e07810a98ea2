//===- KernelArgAccess.h - Which buffers a kernel reads and writes -*- C++ -*-===//
//
// For every pointer argument of every kernel: is the memory behind it read,
// written, or both? Copies of the pointer are followed through allocas,
// phis, selects, GEPs, casts and calls into defined helpers, so a kernel
// that stashes its argument in a local variable is still understood. Where
// the pointer escapes (stored to memory we cannot follow, converted to an
// integer, passed to an unknown function) the answer is the safe one: both.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='print<skmd-kernel-args>' -disable-output kernel.ll
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_KERNELARGACCESS_H
#define SKMD_ANALYSIS_KERNELARGACCESS_H

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace skmd {

struct ArgAccess {
  unsigned ArgNo = 0;
  std::string Name;
  unsigned AddressSpace = 0;
  bool IsPointer = false;
  bool Read = false;
  bool Written = false;
  /// The pointer left what the analysis can follow; Read and Written are
  /// then both set, conservatively.
  bool Escapes = false;
};

struct KernelArgAccessResult {
  llvm::MapVector<const llvm::Function *, std::vector<ArgAccess>> Kernels;

  const std::vector<ArgAccess> *lookup(const llvm::Function &Kernel) const;
  void print(llvm::raw_ostream &OS) const;
};

class KernelArgAccessAnalysis
    : public llvm::AnalysisInfoMixin<KernelArgAccessAnalysis> {
public:
  using Result = KernelArgAccessResult;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<KernelArgAccessAnalysis>;
  static llvm::AnalysisKey Key;
};

class KernelArgAccessPrinterPass
    : public llvm::PassInfoMixin<KernelArgAccessPrinterPass> {
public:
  explicit KernelArgAccessPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace skmd

#endif // SKMD_ANALYSIS_KERNELARGACCESS_H
