//===- KernelArgAccess.cpp - Which buffers a kernel reads and writes ------===//
#include "Analysis/KernelArgAccess.h"
#include "Support/OpenCLKernel.h"
#include "Support/VectorLoadStore.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace skmd {

AnalysisKey KernelArgAccessAnalysis::Key;

namespace {

/// Follows every copy of one pointer argument and records what is done with
/// the memory behind it.
class PointerTracker {
public:
  explicit PointerTracker(ArgAccess &Out) : Out(Out) {}

  void run(const Value *Root) {
    follow(Root);
    while (!Worklist.empty()) {
      const Value *V = Worklist.pop_back_val();
      for (const Use &U : V->uses())
        visitUse(U);
    }
  }

private:
  void follow(const Value *V) {
    if (Visited.insert(V).second)
      Worklist.push_back(V);
  }

  void escape() {
    Out.Escapes = Out.Read = Out.Written = true;
  }

  void visitUse(const Use &U) {
    const User *Usr = U.getUser();
    if (isa<ConstantExpr>(Usr))
      return follow(Usr);
    const auto *I = dyn_cast<Instruction>(Usr);
    if (!I)
      return escape();

    if (isa<LoadInst>(I)) {
      Out.Read = true;
    } else if (const auto *S = dyn_cast<StoreInst>(I)) {
      if (U.getOperandNo() == StoreInst::getPointerOperandIndex())
        Out.Written = true;
      else
        followStoredPointer(*S);
    } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      if (U.getOperandNo() == 0)
        Out.Read = Out.Written = true;
      else
        escape();
    } else if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
               isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I)) {
      if (isa<PtrToIntInst>(I))
        return escape();
      follow(I);
    } else if (isa<CmpInst>(I)) {
      // Comparing addresses touches no memory.
    } else if (const auto *Ret = dyn_cast<ReturnInst>(I)) {
      // A helper hands the pointer back: its callers' results are copies.
      for (const User *Caller : Ret->getFunction()->users())
        if (const auto *CB = dyn_cast<CallBase>(Caller))
          follow(CB);
    } else if (const auto *CB = dyn_cast<CallBase>(I)) {
      visitCall(*CB, U);
    } else {
      escape();
    }
  }

  /// The pointer itself is stored. Into a local variable (alloca) we can
  /// follow it: every load from that variable yields a copy. Anywhere else
  /// we lose track.
  void followStoredPointer(const StoreInst &S) {
    const auto *Slot =
        dyn_cast<AllocaInst>(getUnderlyingObject(S.getPointerOperand()));
    if (!Slot)
      return escape();
    SmallVector<const Value *, 8> Addresses = {Slot};
    SmallPtrSet<const Value *, 8> Seen = {Slot};
    while (!Addresses.empty()) {
      const Value *A = Addresses.pop_back_val();
      for (const User *Usr : A->users()) {
        if (isa<LoadInst>(Usr)) {
          follow(Usr);
        } else if (isa<StoreInst>(Usr) || isa<LifetimeIntrinsic>(Usr) ||
                   isa<DbgInfoIntrinsic>(Usr)) {
          // Other stores into the slot are followed from their own pointer.
        } else if (isa<GetElementPtrInst>(Usr) || isa<CastInst>(Usr)) {
          if (Seen.insert(Usr).second)
            Addresses.push_back(Usr);
        } else {
          return escape();
        }
      }
    }
  }

  void visitCall(const CallBase &CB, const Use &U) {
    if (CB.isCallee(&U))
      return escape();
    unsigned ArgNo = CB.getArgOperandNo(&U);

    if (isa<MemTransferInst>(CB)) {
      (ArgNo == 0 ? Out.Written : Out.Read) = true;
      return;
    }
    if (isa<MemSetInst>(CB)) {
      Out.Written = true;
      return;
    }
    if (isa<LifetimeIntrinsic>(CB) || isa<DbgInfoIntrinsic>(CB) ||
        isa<AssumeInst>(CB))
      return;

    const Function *Callee = CB.getCalledFunction();
    if (Callee && !Callee->isDeclaration() && ArgNo < Callee->arg_size())
      return follow(Callee->getArg(ArgNo));

    // vloadN/vstoreN declarations carry no memory attributes; their names
    // say what they do. prefetch only hints.
    if (auto V = asVectorAccess(CB); V && V->Pointer == U.get()) {
      (V->IsStore ? Out.Written : Out.Read) = true;
      return;
    }
    if (Callee && Callee->getName().starts_with("_Z8prefetch"))
      return;

    if (CB.doesNotAccessMemory(ArgNo))
      return;
    bool Captured = !CB.doesNotCapture(ArgNo);
    if (CB.onlyReadsMemory(ArgNo) && !Captured) {
      Out.Read = true;
      return;
    }
    if (CB.onlyWritesMemory(ArgNo) && !Captured) {
      Out.Written = true;
      return;
    }
    escape();
  }

  ArgAccess &Out;
  SmallPtrSet<const Value *, 32> Visited;
  SmallVector<const Value *, 16> Worklist;
};

const char *addressSpaceName(unsigned OpenCLSpace) {
  switch (OpenCLSpace) {
  case 1:
    return "global";
  case 2:
    return "constant";
  case 3:
    return "local";
  case 4:
    return "generic";
  default:
    return "private";
  }
}

} // namespace

const std::vector<ArgAccess> *
KernelArgAccessResult::lookup(const Function &Kernel) const {
  auto It = Kernels.find(&Kernel);
  return It == Kernels.end() ? nullptr : &It->second;
}

void KernelArgAccessResult::print(raw_ostream &OS) const {
  for (const auto &[F, Args] : Kernels) {
    OS << "kernel '" << F->getName() << "'\n";
    for (const ArgAccess &A : Args) {
      OS << "  arg " << A.ArgNo << " '" << A.Name << "': ";
      if (!A.IsPointer) {
        OS << "value\n";
        continue;
      }
      OS << addressSpaceName(A.AddressSpace) << ' '
         << (A.Read && A.Written ? "read-write"
             : A.Read            ? "read"
             : A.Written         ? "write"
                                 : "unused");
      if (A.Escapes)
        OS << " (escapes: assumed read-write)";
      OS << '\n';
    }
  }
}

KernelArgAccessResult KernelArgAccessAnalysis::run(Module &M,
                                                   ModuleAnalysisManager &) {
  KernelArgAccessResult Result;
  for (const Function &F : M) {
    if (!isOpenCLKernel(F))
      continue;
    std::vector<ArgAccess> Args;
    for (const Argument &Arg : F.args()) {
      ArgAccess A;
      A.ArgNo = Arg.getArgNo();
      A.Name = kernelArgName(F, A.ArgNo);
      A.AddressSpace = kernelArgAddressSpace(F, A.ArgNo);
      A.IsPointer = Arg.getType()->isPointerTy();
      if (A.IsPointer)
        PointerTracker(A).run(&Arg);
      Args.push_back(std::move(A));
    }
    Result.Kernels.insert({&F, std::move(Args)});
  }
  return Result;
}

PreservedAnalyses KernelArgAccessPrinterPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  MAM.getResult<KernelArgAccessAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace skmd
