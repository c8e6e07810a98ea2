//===- WorkItemUniformity.cpp - Values the same for a whole group ---------===//
#include "Analysis/WorkItemUniformity.h"
#include "Support/OpenCLKernel.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

WorkItemUniformity::WorkItemUniformity(
    const Function &F, const LoopInfo &LI,
    std::function<bool(const Instruction &)> KnownUniform,
    std::function<bool(const Value &)> SharedMemory)
    : F(F), LI(LI), KnownUniform(std::move(KnownUniform)),
      SharedMemory(std::move(SharedMemory)) {
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

namespace {

/// Whether \p F computes its result from its operands alone: no memory,
/// and nothing it calls (within \p Depth) but such functions, intrinsics
/// that are not convergent, and C math functions (libm's, which the
/// builtins library calls). Clang marks every OpenCL function convergent,
/// so the builtins' own mark says nothing; what they call does: a barrier
/// or a work-item function is a declaration with an OpenCL (mangled) name,
/// which is none of these, so a function that asks for its work-item's id
/// or synchronizes is not pure.
/// \p Known remembers the answer per function (a body is looked into
/// once however often it is called).
bool isPureFunction(const Function &F, unsigned Depth,
                    DenseMap<const Function *, bool> &Known) {
  if (F.isIntrinsic())
    return F.doesNotAccessMemory() && !F.isConvergent();
  if (!F.doesNotAccessMemory())
    return false;
  if (F.isDeclaration())
    return !F.getName().starts_with("_Z") && !F.getName().starts_with("__");
  if (auto It = Known.find(&F); It != Known.end())
    return It->second;
  bool Pure = Depth > 0;
  for (const Instruction &I : instructions(F)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Pure || !Call)
      continue;
    const Function *Callee = Call->getCalledFunction();
    Pure = Callee && isPureFunction(*Callee, Depth - 1, Known);
  }
  Known[&F] = Pure;
  return Pure;
}

} // namespace

bool WorkItemUniformity::variesByItself(const Instruction &I) const {
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    std::optional<WorkItemFn> Fn = workItemFnOf(*Call);
    // A math builtin gives every work-item the same result from the same
    // operands. (Clang marks every OpenCL call convergent; the callee says
    // whether it is.)
    if (!Fn) {
      const Function *Callee = Call->getCalledFunction();
      return !Callee || !isPureFunction(*Callee, 4, PureFunctions);
    }
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
  if (const auto *Load = dyn_cast<LoadInst>(&I)) {
    // Its address's uniformity reaches it as an operand's.
    if (!Load->isSimple())
      return true;
    const Value *Object = getUnderlyingObject(Load->getPointerOperand(), 0);
    return !isSharedMemory(*Object);
  }
  if (const auto *Phi = dyn_cast<PHINode>(&I)) {
    // Only a loop header joins paths that all work-items take alike.
    const Loop *L = LI.getLoopFor(Phi->getParent());
    return !L || L->getHeader() != Phi->getParent();
  }
  return !(isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CastInst>(I) ||
           isa<CmpInst>(I) || isa<GetElementPtrInst>(I) || isa<SelectInst>(I) ||
           isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
           isa<ShuffleVectorInst>(I) || isa<ExtractValueInst>(I) ||
           isa<InsertValueInst>(I) || isa<FreezeInst>(I));
}

bool WorkItemUniformity::isSharedMemory(const Value &Object) const {
  if (SharedMemory && SharedMemory(Object))
    return true;
  if (const auto *A = dyn_cast<Argument>(&Object))
    return A->getParent() == &F && isSharedBufferArg(F, A->getArgNo());
  if (const auto *GV = dyn_cast<GlobalVariable>(&Object))
    return GV->isConstant() || isLocalVariable(*GV);
  return false;
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
      if (!I.getType()->isVoidTy()) {
        OS << "  ";
        I.printAsOperand(OS, /*PrintType=*/false);
        OS << ": " << (U.isUniform(&I) ? "uniform" : "varying") << "\n";
      }
  }
  return PreservedAnalyses::all();
}

} // namespace skmd
