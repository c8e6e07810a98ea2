//===- Partitionability.cpp - May a kernel's groups be split? -------------===//
#include "Analysis/Partitionability.h"
#include "Analysis/AccessFootprint.h"
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

AnalysisKey PartitionabilityAnalysis::Key;

namespace {

/// Operations whose results do not depend on the order they happen in, so
/// per-device partial results could be combined.
bool isCommutative(AtomicRMWInst::BinOp Op) {
  return Op != AtomicRMWInst::Xchg;
}

bool isCommutativeBuiltin(StringRef Name) {
  for (StringRef Op : {"add", "sub", "inc", "dec", "min", "max", "and", "or", "xor"})
    if (Name.contains(Op))
      return !Name.contains("xchg");
  return false;
}

/// Atomic operations on buffers, as "'name' (how)".
void findGlobalAtomics(const Function &F, const BufferAccessInfo &B,
                       std::vector<std::string> &Reasons) {
  for (const Instruction &I : instructions(F)) {
    const Value *Ptr = nullptr;
    bool Commutative = false;
    std::string What;
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Ptr = RMW->getPointerOperand();
      Commutative = isCommutative(RMW->getOperation());
      What = ("atomicrmw " + AtomicRMWInst::getOperationName(RMW->getOperation())).str();
    } else if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Ptr = X->getPointerOperand();
      What = "cmpxchg";
    } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || !Callee->getName().contains("atom") || CB->arg_size() == 0)
        continue;
      Ptr = CB->getArgOperand(0);
      Commutative = isCommutativeBuiltin(Callee->getName());
      What = demangle(Callee->getName());
    } else {
      continue;
    }
    if (getUnderlyingObject(Ptr) != F.getArg(B.ArgNo))
      continue;
    Reasons.push_back("global atomics on '" + B.Name + "' (" + What + ", " +
                      (Commutative ? "commutative: could be aggregated"
                                   : "not commutative") +
                      ")");
    return;
  }
}

/// A buffer that is both read and written, where a group may read what
/// another group writes: with an affine footprint the runtime tests it at
/// launch, with the arguments' values (row i written, row i - 1 read, i a
/// scalar argument).
void findInterGroupCommunication(const BufferAccessInfo &B, PartitionVerdict &V) {
  bool Reads = false, Writes = false;
  for (const AnalyzedAccess &A : B.Accesses) {
    Reads |= A.Reads;
    Writes |= A.Writes;
  }
  if (B.Whole)
    return; // Decided from skmd-kernel-args below; the footprint is unknown.
  if (!Reads || !Writes)
    return;
  // Safe when every read is at an address the same work-item writes.
  for (const AnalyzedAccess &R : B.Accesses) {
    if (!R.Reads || R.Writes)
      continue;
    bool Own = false;
    for (const AnalyzedAccess &W : B.Accesses)
      Own |= W.Writes && W.Offset == R.Offset && W.Bytes >= R.Bytes;
    if (!Own) {
      V.LaunchTested.push_back(B.ArgNo);
      return;
    }
  }
}

} // namespace

PartitionabilityResult PartitionabilityAnalysis::run(Module &M,
                                                     ModuleAnalysisManager &MAM) {
  const AccessFootprintResult &Footprints = MAM.getResult<AccessFootprintAnalysis>(M);
  PartitionabilityResult Result;
  for (const auto &[F, Info] : Footprints.Kernels) {
    PartitionVerdict V;
    Function &K = const_cast<Function &>(*F);
    bool HasMerge = findVariant(*K.getParent(), K, "merge") != nullptr;
    for (const BufferAccessInfo &B : Info.Buffers) {
      findGlobalAtomics(*F, B, V.Reasons);
      findInterGroupCommunication(B, V);
      bool Written = false;
      for (const AnalyzedAccess &A : B.Accesses)
        Written |= A.Writes;
      if (B.Whole && !HasMerge) {
        // Without a footprint or a merge kernel nothing can put the
        // pieces of a written buffer back together.
        bool MaybeWritten = Written || B.Accesses.empty();
        if (MaybeWritten && !F->getFnAttribute(UnpartitionableAttr).isValid())
          V.Reasons.push_back("'" + B.Name + "' may be written at addresses "
                              "the analysis cannot describe (" +
                              B.WholeReason + ") and has no merge kernel");
      }
    }
    if (Attribute A = F->getFnAttribute(UnpartitionableAttr); A.isValid())
      V.Reasons.push_back(A.getValueAsString().str());
    V.Partitionable = V.Reasons.empty();
    Result.Kernels.insert({F, std::move(V)});
  }
  return Result;
}

void PartitionabilityResult::print(raw_ostream &OS) const {
  for (const auto &[F, V] : Kernels) {
    OS << "kernel '" << F->getName() << "': "
       << (V.Partitionable ? "partitionable" : "not partitionable") << '\n';
    for (const std::string &R : V.Reasons)
      OS << "  because " << R << '\n';
    for (unsigned Arg : V.LaunchTested)
      OS << "  groups may read what others write in '"
         << kernelArgName(*F, Arg) << "': tested at launch\n";
  }
}

PreservedAnalyses PartitionabilityPrinterPass::run(Module &M,
                                                   ModuleAnalysisManager &MAM) {
  MAM.getResult<PartitionabilityAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace skmd
