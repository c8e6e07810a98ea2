//===- WorkGroupFunction.h - One function per work-group for CPUs -*- C++ -*-===//
//
// For each kernel K (and each merge kernel), builds
// K__skmd_wg(void *const *args, skmd_wg_ctx *ctx)
// (runtime/devices/cpu/WorkGroupABI.h), which runs all work-items of one
// group in loops, innermost over x so the loop vectorizer can use SIMD.
//
// Barriers, also inside loops and uniform conditionals, split the kernel
// into sub-CFGs: the parts between barriers. Each runs as its own
// work-item loop nest, then control moves to the sub-CFG after the barrier
// every work-item reached. Values that live across a barrier, and private
// variables whose contents may, move to per-work-item storage in
// ctx->wi_state (structure of arrays, so consecutive work-items use
// consecutive addresses); other private variables stay on the stack, one
// copy that the work-items use in turn. __local
// variables move to ctx->local_mem, private to the thread running the group.
//
// The kernel gets the attributes "skmd-wg-local-mem-bytes" and
// "skmd-wg-state-bytes" (per work-item) that the runtime needs.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-work-group-function kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_WORKGROUPFUNCTION_H
#define SKMD_TRANSFORMS_WORKGROUPFUNCTION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class AllocaInst;
class Loop;
class Value;
} // namespace llvm

namespace skmd {

class WorkGroupFunctionPass : public llvm::PassInfoMixin<WorkGroupFunctionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

inline constexpr const char *WorkGroupFunctionSuffix = "__skmd_wg";

std::string workGroupFunctionName(llvm::StringRef Kernel);

/// Whether \p L is a work-item x loop of a work-group function: the loops
/// it declares parallel (llvm.loop.parallel_accesses).
bool isWorkItemLoop(const llvm::Loop &L);

/// Whether private array \p AI is accessed only by simple loads and stores
/// of its element type, each at one index that \p IsUniform says is the
/// same for every work-item (through a GEP of the array, or the array's
/// own address for element 0); lifetime markers aside, nothing else uses
/// it. Where such an array lives across a barrier, the work-group function
/// lays its per-item copies out element-major (element e of item w at
/// e * items + w), so that a work-item loop widened across the items loads
/// and stores each element of consecutive items as one vector.
bool isUniformlyIndexedArray(const llvm::AllocaInst &AI,
                             llvm::function_ref<bool(const llvm::Value *)> IsUniform);

inline constexpr const char *LocalMemBytesAttr = "skmd-wg-local-mem-bytes";
inline constexpr const char *StateBytesAttr = "skmd-wg-state-bytes";

} // namespace skmd

#endif // SKMD_TRANSFORMS_WORKGROUPFUNCTION_H
