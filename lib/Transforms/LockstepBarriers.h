//===- LockstepBarriers.h - Barriers where programs assume lockstep -*- C++ -*-===//
//
// The work-group function runs each work-item from one barrier to the
// next before the following item starts. GPUs, and PoCL on CPUs, run a
// group closer to lockstep, and programs come to rely on it without a
// barrier of their own, which OpenCL C does not promise: every work-item
// zeroes a whole __local buffer (a loop, or the memset it becomes), then
// writes its own slot, then waits at a barrier. Run item after item, each
// zeroing wipes the slots of the items before; in lockstep every slot is
// kept.
//
// In kernels that use barriers, this pass adds barriers where PoCL has
// them (its loop barriers and implicit loop barriers), which make such
// programs behave as they do there:
//   - a loop that holds a barrier gets one at the end of its preheader and
//     of its latch: the code before the loop, and each iteration, finish
//     in every work-item before any goes on;
//   - a loop without barriers that writes shared memory (__local,
//     __global) at an address the same for every work-item, the loop a
//     collective initialisation, is made such a loop;
//   - a memset, memcpy or memmove into shared memory at such an address
//     (what those loops become) gets a barrier before and after.
// Only where every work-item reaches the place the same number of times
// (uniform branches decide it, uniform exits leave the loops around it),
// so the added barriers are ones all items meet; and only where the code
// on each side, up to the next barriers, touches shared memory, since
// elsewhere a barrier changes nothing but the time (binomial option's
// loop, whose iterations end in arithmetic on registers).
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-lockstep-barriers kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_LOCKSTEPBARRIERS_H
#define SKMD_TRANSFORMS_LOCKSTEPBARRIERS_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class LockstepBarriersPass : public llvm::PassInfoMixin<LockstepBarriersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_LOCKSTEPBARRIERS_H
