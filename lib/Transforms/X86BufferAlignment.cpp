//===- X86BufferAlignment.cpp - No vector alignment assumed of buffers ----===//
#include "Transforms/X86BufferAlignment.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

namespace {

/// At most \p Cap: whether \p A changed.
bool cap(Align &A, Align Cap) {
  if (A <= Cap)
    return false;
  A = Cap;
  return true;
}

/// The alignment an access of \p T needs on x86: its scalar's size.
Align scalarAlign(const DataLayout &DL, Type *T) {
  return Align(std::max<uint64_t>(1, DL.getTypeStoreSize(T->getScalarType())));
}

} // namespace

PreservedAnalyses X86BufferAlignmentPass::run(Module &M, ModuleAnalysisManager &) {
  const DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (auto *L = dyn_cast<LoadInst>(&I); L && !L->isAtomic()) {
        Align A = L->getAlign();
        if (cap(A, scalarAlign(DL, L->getType())))
          L->setAlignment(A), Changed = true;
      } else if (auto *S = dyn_cast<StoreInst>(&I); S && !S->isAtomic()) {
        Align A = S->getAlign();
        if (cap(A, scalarAlign(DL, S->getValueOperand()->getType())))
          S->setAlignment(A), Changed = true;
      } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
        if (MT->getDestAlign() && *MT->getDestAlign() > 1)
          MT->setDestAlignment(Align(1)), Changed = true;
        if (MT->getSourceAlign() && *MT->getSourceAlign() > 1)
          MT->setSourceAlignment(Align(1)), Changed = true;
      } else if (auto *MS = dyn_cast<MemSetInst>(&I)) {
        if (MS->getDestAlign() && *MS->getDestAlign() > 1)
          MS->setDestAlignment(Align(1)), Changed = true;
      }
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
