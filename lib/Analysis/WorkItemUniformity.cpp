//===- WorkItemUniformity.cpp - Values the same for a whole group ---------===//
#include "Analysis/WorkItemUniformity.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

WorkItemUniformity::WorkItemUniformity(
    const Function &F, const LoopInfo &LI,
    std::function<bool(const Instruction &)> KnownUniform)
    : LI(LI), KnownUniform(std::move(KnownUniform)) {
  SmallVector<const Instruction *, 64> Work;
  auto MarkVarying = [&](const Instruction *I) {
    if ((!this->KnownUniform || !this->KnownUniform(*I)) &&
        Varying.insert(I).second)
      Work.push_back(I);
  };
  for (const Instruction &I : instructions(F))
    if (variesByItself(I))
      MarkVarying(&I);
  for (;;) {
    while (!Work.empty()) {
      const Instruction *I = Work.pop_back_val();
      for (const User *U : I->users())
        if (const auto *UI = dyn_cast<Instruction>(U))
          MarkVarying(UI);
    }
    // A loop left at different iterations gives each work-item its own
    // last values of the header's PHIs.
    for (const Loop *L : LI.getLoopsInPreorder())
      if (!hasUniformExits(*L))
        for (const PHINode &Phi : L->getHeader()->phis())
          MarkVarying(&Phi);
    if (Work.empty())
      return;
  }
}

bool WorkItemUniformity::isUniform(const Value *V) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  return I && !Varying.count(I);
}

bool WorkItemUniformity::hasUniformExits(const Loop &L) const {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  return llvm::all_of(Exiting, [&](BasicBlock *BB) {
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    return Br && (Br->isUnconditional() || isUniform(Br->getCondition()));
  });
}

bool WorkItemUniformity::variesByItself(const Instruction &I) const {
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    std::optional<WorkItemFn> Fn = workItemFnOf(*Call);
    if (!Fn)
      return true;
    switch (*Fn) {
    case WorkItemFn::GroupId:
    case WorkItemFn::GlobalSize:
    case WorkItemFn::LocalSize:
    case WorkItemFn::EnqueuedLocalSize:
    case WorkItemFn::NumGroups:
    case WorkItemFn::GlobalOffset:
    case WorkItemFn::WorkDim:
      return false;
    default:
      return true;
    }
  }
  if (const auto *Phi = dyn_cast<PHINode>(&I)) {
    // Only a loop header joins paths that all work-items take alike.
    const Loop *L = LI.getLoopFor(Phi->getParent());
    return !L || L->getHeader() != Phi->getParent();
  }
  return !(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) ||
           isa<GetElementPtrInst>(I) || isa<SelectInst>(I));
}

PreservedAnalyses WorkItemUniformityPrinterPass::run(Module &M,
                                                     ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    if (F.isDeclaration() || !isOpenCLKernel(F))
      continue;
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    WorkItemUniformity U(F, LI);
    OS << "kernel " << F.getName() << "\n";
    for (const Loop *L : LI.getLoopsInPreorder())
      OS << "  loop " << L->getHeader()->getName() << ": "
         << (U.hasUniformExits(*L) ? "uniform exits" : "varying exits") << "\n";
    for (const Instruction &I : instructions(F))
      if (I.hasName())
        OS << "  %" << I.getName() << ": "
           << (U.isUniform(&I) ? "uniform" : "varying") << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace skmd
