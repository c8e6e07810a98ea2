//===- Partitionability.cpp - May a kernel's groups be split? -------------===//
#include "Analysis/Partitionability.h"
#include "Analysis/AccessFootprint.h"
#include "Analysis/KernelArgAccess.h"
#include "Support/Atomics.h"
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

void markLaunchTested(PartitionVerdict &V, unsigned ArgNo) {
  if (!llvm::is_contained(V.LaunchTested, ArgNo))
    V.LaunchTested.push_back(ArgNo);
}

/// Whether \p I reaches \p Arg's memory by a load or a store, or passes a
/// pointer into it to a call.
bool touches(const Instruction &I, const Argument *Arg) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return getUnderlyingObject(Ptr) == Arg;
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return llvm::any_of(CB->args(), [&](const Value *A) {
      return A->getType()->isPointerTy() && getUnderlyingObject(A) == Arg;
    });
  return false;
}

/// Atomics on a buffer. Where every one is the same commutative integer
/// update, its result unused, and nothing else touches the buffer, the
/// devices' copies can be combined (a histogram's bins, a counter): the
/// buffer is combined, not a reason. Otherwise, where the footprint
/// describes every access (an atomic is a read and a write of its bytes),
/// the runtime tests at launch that no piece's atomics meet bytes another
/// piece writes: atomics on bytes one device alone touches are that
/// device's own (a counter per group, an update under a condition that
/// never holds). Without a footprint the reason says why not.
void classifyAtomics(const Function &F, const BufferAccessInfo &B, PartitionVerdict &V) {
  const Argument *Arg = F.getArg(B.ArgNo);
  std::optional<CombineOp> Op;
  unsigned Bytes = 0;
  std::string First, WhyNot;
  bool Other = false;
  for (const Instruction &I : instructions(F)) {
    if (const Value *Ptr = atomicPointer(I)) {
      if (getUnderlyingObject(Ptr) != Arg)
        continue;
      if (First.empty())
        First = describeAtomic(I);
      auto C = commutativeAtomic(I);
      if (!C)
        WhyNot = describeAtomic(I) + " is not a commutative integer update";
      else if (!I.use_empty())
        WhyNot = "the value " + describeAtomic(I) + " returns is used";
      else if (Op && *Op != *C)
        WhyNot = "it mixes atomic operations";
      unsigned Width = I.getType()->isIntegerTy() ? I.getType()->getIntegerBitWidth() / 8 : 0;
      if (C && Width != 4 && Width != 8)
        WhyNot = describeAtomic(I) + " updates " + std::to_string(Width) + "-byte values";
      else if (C && Bytes && Bytes != Width)
        WhyNot = "it updates integers of two widths";
      if (C) {
        Op = C;
        Bytes = Width;
      }
      continue;
    }
    Other |= touches(I, Arg);
  }
  if (First.empty())
    return;
  if (WhyNot.empty() && Other)
    WhyNot = "it is also read or written without atomics";
  if (WhyNot.empty()) {
    V.Combined.push_back({B.ArgNo, *Op, Bytes});
    return;
  }
  if (!B.Whole) {
    markLaunchTested(V, B.ArgNo);
    return;
  }
  V.Reasons.push_back("global atomics on '" + B.Name + "' (" + First + "): " + WhyNot);
}

/// A buffer that work-items only ever set to one integer constant, at
/// offsets the same for every work-item and group (`*over = true`, a
/// "something changed" flag): every group that stores, stores the same
/// bytes. Its copies combine by taking the constant wherever a device's
/// copy holds it, instead of refusing a split whose writes all meet there.
/// A buffer that is also read, or written another way, is left alone.
void classifyConstantStores(const Function &F, const BufferAccessInfo &B,
                            const AtomTable &Atoms, PartitionVerdict &V) {
  if (B.Whole || B.Accesses.empty())
    return;
  for (const AnalyzedAccess &A : B.Accesses)
    if (A.Reads || !A.Writes ||
        A.Offset.mentions([&](unsigned X) {
          return Atoms[X].isIndex() || Atoms[X].K == Atom::Kind::Group;
        }))
      return;
  const Argument *Arg = F.getArg(B.ArgNo);
  const ConstantInt *Stored = nullptr;
  for (const Instruction &I : instructions(F)) {
    const auto *S = dyn_cast<StoreInst>(&I);
    if (!S) {
      if (touches(I, Arg))
        return; // Anything else that touches the buffer: not a flag.
      continue;
    }
    if (getUnderlyingObject(S->getPointerOperand()) != Arg)
      continue;
    const auto *C = dyn_cast<ConstantInt>(S->getValueOperand());
    if (!C || S->isAtomic() || S->isVolatile() || (Stored && C != Stored))
      return;
    unsigned Bytes = C->getBitWidth() / 8;
    if (C->getBitWidth() % 8 || (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8) ||
        S->getAlign().value() < Bytes)
      return;
    Stored = C;
  }
  if (Stored)
    V.Combined.push_back({B.ArgNo, CombineOp::Assign, Stored->getBitWidth() / 8,
                          Stored->getZExtValue()});
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
      markLaunchTested(V, B.ArgNo);
      return;
    }
  }
}

} // namespace

PartitionabilityResult PartitionabilityAnalysis::run(Module &M,
                                                     ModuleAnalysisManager &MAM) {
  const AccessFootprintResult &Footprints = MAM.getResult<AccessFootprintAnalysis>(M);
  const KernelArgAccessResult &ArgAccess = MAM.getResult<KernelArgAccessAnalysis>(M);
  PartitionabilityResult Result;
  for (const auto &[F, Info] : Footprints.Kernels) {
    PartitionVerdict V;
    Function &K = const_cast<Function &>(*F);
    bool HasMerge = findVariant(*K.getParent(), K, "merge") != nullptr;
    for (const BufferAccessInfo &B : Info.Buffers) {
      classifyAtomics(*F, B, V);
      classifyConstantStores(*F, B, Info.Atoms, V);
      findInterGroupCommunication(B, V);
      bool Written = false;
      for (const AnalyzedAccess &A : B.Accesses)
        Written |= A.Writes;
      bool Combined = llvm::any_of(V.Combined, [&](const CombinedArg &C) {
        return C.Arg == B.ArgNo;
      });
      if (B.Whole && !HasMerge && !Combined) {
        // Without a footprint or a merge kernel nothing can put the
        // pieces of a written buffer back together. (Written buffers with
        // footprints need the merge kernel only where pieces' writes meet,
        // which the runtime sees at launch.)
        // A whole-buffer footprint keeps no accesses: whether the buffer is
        // written comes from skmd-kernel-args (an input stays an input).
        bool MaybeWritten = Written || B.Accesses.empty();
        if (const auto *Args = ArgAccess.lookup(*F))
          for (const skmd::ArgAccess &X : *Args)
            if (X.ArgNo == B.ArgNo)
              MaybeWritten = X.Written;
        Attribute NoMerge = F->getFnAttribute(NoMergeAttr);
        if (MaybeWritten && !F->getFnAttribute(UnpartitionableAttr).isValid())
          V.Reasons.push_back("'" + B.Name + "' may be written at addresses "
                              "the analysis cannot describe (" +
                              B.WholeReason + ") and has no merge kernel" +
                              (NoMerge.isValid()
                                   ? " (" + NoMerge.getValueAsString().str() + ")"
                                   : std::string()));
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
    for (const CombinedArg &C : V.Combined)
      if (C.Op == CombineOp::Assign)
        OS << "  '" << kernelArgName(*F, C.Arg) << "' is only set to " << C.Value
           << ", at one place for every work-item: devices' copies combined\n";
      else
        OS << "  '" << kernelArgName(*F, C.Arg) << "' is updated by atomic "
           << combineOpName(C.Op) << " only: devices' copies combined\n";
  }
}

PreservedAnalyses PartitionabilityPrinterPass::run(Module &M,
                                                   ModuleAnalysisManager &MAM) {
  MAM.getResult<PartitionabilityAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace skmd
