//===- X86BufferAlignment.h - No vector alignment assumed of buffers -*- C++ -*-===//
//
// Clang gives an access through a `double4 *` the alignment of a double4
// (32 bytes), and x86 code generation turns that into aligned moves
// (vmovaps) that fault on a smaller one. OpenCL drivers promise 128-byte
// buffer bases; SKMD's CPU runs kernels on the user's own memory, which
// malloc aligns to 16 bytes, and merge kernels read device copies at the
// same offsets. On the x86 variant only, this pass caps the alignment of
// every load and store at its scalar's size and of every memory intrinsic
// at 1: x86 has no alignment faults below that, and an unaligned move
// costs nothing on aligned data. Atomics keep theirs (a split lock is
// slow, and an atomic on a misaligned scalar is no valid program).
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes=skmd-x86-buffer-alignment kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_X86BUFFERALIGNMENT_H
#define SKMD_TRANSFORMS_X86BUFFERALIGNMENT_H

#include "llvm/IR/PassManager.h"

namespace skmd {

class X86BufferAlignmentPass : public llvm::PassInfoMixin<X86BufferAlignmentPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace skmd

#endif // SKMD_TRANSFORMS_X86BUFFERALIGNMENT_H
