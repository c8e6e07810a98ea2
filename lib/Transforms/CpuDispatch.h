//===- CpuDispatch.h - One x86 variant, the best code for each host -*- C++ -*-===//
//
// A bundle is built ahead of time and runs on hosts with and without
// AVX-512. The x86 variant's baseline (x86-64-v3, AVX2) runs everywhere;
// but on AVX-512 hosts, masked AVX-512 loads and stores and twice the lanes
// matter (guarded work-items, the tiled matmul), and a driver that compiles
// on the host (PoCL) has them.
//
// This pass gives each work-group function K__skmd_wg a second body
// compiled for x86-64-v4 and makes K__skmd_wg an ifunc: the dynamic loader
// runs its resolver once, when the runtime loads the variant, and binds the
// symbol to the AVX-512 body if the CPU and the OS support AVX-512 (cpuid
// and xgetbv), else to the baseline. The runtime looks up the same names
// as before.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so -passes=skmd-cpu-dispatch
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_CPUDISPATCH_H
#define SKMD_TRANSFORMS_CPUDISPATCH_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class CpuDispatchPass : public llvm::PassInfoMixin<CpuDispatchPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// The CPU of the second bodies.
inline constexpr const char *DispatchCpu = "x86-64-v4";

} // namespace skmd

#endif // SKMD_TRANSFORMS_CPUDISPATCH_H
