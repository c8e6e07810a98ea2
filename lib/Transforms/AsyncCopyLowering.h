//===- AsyncCopyLowering.h - Work-group copies as loops -----------*- C++ -*-===//
//
// async_work_group_copy and async_work_group_strided_copy reach the kernel
// IR as calls to builtins no device library has linked yet, so the
// footprint analysis saw a global buffer handed to an unknown function and
// refused to split the kernel ("'in' may be written at addresses the
// analysis cannot describe"), though each group only reads or writes n
// elements from a base of its own. OpenCL requires every work-item of the
// group to make the call with the same arguments and the copy to be
// complete at wait_group_events, so this pass writes each copy as the loop
// that the work-items share (item k copies elements k, k + items, ...) and
// each wait_group_events as a barrier on local and global memory; prefetch,
// a hint, goes. The loads and stores are then the analysis's to describe,
// and every target runs the same code (the x86 builtins did the same).
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-lower-async-copies kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_ASYNCCOPYLOWERING_H
#define SKMD_TRANSFORMS_ASYNCCOPYLOWERING_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class AsyncCopyLoweringPass : public llvm::PassInfoMixin<AsyncCopyLoweringPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_ASYNCCOPYLOWERING_H
