//===- AccessFootprint.cpp - Bytes each work-group touches ----------------===//
#include "Analysis/AccessFootprint.h"
#include "Support/OpenCLKernel.h"
#include "Support/VectorLoadStore.h"
#include "Support/WorkItemBuiltins.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>

using namespace llvm;

namespace skmd {

AnalysisKey AccessFootprintAnalysis::Key;

namespace {

using SymbolKind = IndexExpr::SymbolKind;

/// OpenCL address spaces (SPIR numbering) of buffers a device must be given.
bool isBufferSpace(unsigned OpenCLSpace) {
  return OpenCLSpace == 1 || OpenCLSpace == 2;
}

std::array<uint32_t, 3> requiredLocalSize(const Function &F) {
  std::array<uint32_t, 3> R{0, 0, 0};
  if (const MDNode *N = F.getMetadata("reqd_work_group_size"))
    for (unsigned D = 0; D < 3 && D < N->getNumOperands(); ++D)
      if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(D)))
        R[D] = C->getZExtValue();
  return R;
}

/// The atom of a launch value or group id: local_size.0, num_groups.1, ...
Polynomial launchValueAtom(AtomTable &Atoms, SymbolKind Kind, unsigned Index) {
  Atom A;
  A.K = Kind == SymbolKind::Group ? Atom::Kind::Group : Atom::Kind::LaunchValue;
  A.Index = Index;
  A.Value = IndexExpr::symbol(Kind, Index);
  A.Name = A.Value.symbolName();
  A.AtLeastOne = Kind == SymbolKind::LocalSize || Kind == SymbolKind::NumGroups;
  return Polynomial::atom(Atoms.intern(std::move(A)));
}

bool isLocalSizeAtom(const Atom &A, unsigned D) {
  return A.K == Atom::Kind::LaunchValue && A.Index == D &&
         A.Value.op() == IndexExpr::Op::Symbol &&
         A.Value.symbolKind() == SymbolKind::LocalSize;
}

/// Turns SCEVs into polynomials over the kernel's atoms.
class OffsetBuilder {
public:
  OffsetBuilder(const Function &F, ScalarEvolution &SE, const DominatorTree &DT,
                KernelAccessInfo &Info)
      : F(F), SE(SE), DT(DT), Info(Info), Reqd(requiredLocalSize(F)) {}

  /// The block whose access is being converted: a loop counter's range
  /// depends on where the access sits relative to the loop's exit test.
  void setAccessBlock(const BasicBlock *BB) { AccessBlock = BB; }

  /// The offset, or std::nullopt with Why set.
  std::optional<Polynomial> convert(const SCEV *S) {
    if (const auto *C = dyn_cast<SCEVConstant>(S)) {
      const APInt &V = C->getAPInt();
      if (V.getSignificantBits() > 64)
        return fail("an index constant does not fit 64 bits");
      return Polynomial::constant(V.getSExtValue());
    }
    // A truncation below 32 bits is a modulo the kernel means (`gid & 7`,
    // a uchar index), not an int index assumed in range: the polynomial
    // would put such accesses where they are not.
    if (const auto *T = dyn_cast<SCEVTruncateExpr>(S))
      if (unsigned Bits = SE.getTypeSizeInBits(T->getType()); Bits < 32)
        return fail("an index wraps at 2^" + std::to_string(Bits) +
                    " (a mask or a narrow integer type)");
    if (const auto *Cast = dyn_cast<SCEVCastExpr>(S))
      return convert(Cast->getOperand(0)); // Indices are assumed in range.
    if (const auto *Add = dyn_cast<SCEVAddExpr>(S))
      return fold(Add, [](const Polynomial &A, const Polynomial &B) {
        return A.plus(B);
      });
    if (const auto *Mul = dyn_cast<SCEVMulExpr>(S))
      return fold(Mul, [](const Polynomial &A, const Polynomial &B) {
        return A.times(B);
      });
    if (const auto *Div = dyn_cast<SCEVUDivExpr>(S))
      return opaque(IndexExpr::Op::UDiv, {Div->getLHS(), Div->getRHS()});
    if (const auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
      IndexExpr::Op O = isa<SCEVUMaxExpr>(MM)   ? IndexExpr::Op::UMax
                        : isa<SCEVSMaxExpr>(MM) ? IndexExpr::Op::SMax
                        : isa<SCEVUMinExpr>(MM) ? IndexExpr::Op::UMin
                                                : IndexExpr::Op::SMin;
      return opaque(O, SmallVector<const SCEV *, 4>(MM->operands()));
    }
    if (const auto *Rec = dyn_cast<SCEVAddRecExpr>(S))
      return addRec(Rec);
    if (const auto *U = dyn_cast<SCEVUnknown>(S))
      return unknown(U->getValue());
    return fail("an index has a form the analysis does not model");
  }

  const std::string &why() const { return Why; }

  /// Counts the dimensions the kernel's work-item calls use.
  static unsigned dimensionsUsed(const Function &F) {
    unsigned Dims = 1;
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (auto Fn = workItemFnOf(*CB)) {
          if (*Fn == WorkItemFn::GlobalLinearId ||
              *Fn == WorkItemFn::LocalLinearId)
            Dims = 3;
          if (!takesDimension(*Fn))
            continue;
          if (const auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(0)))
            Dims = std::max<unsigned>(Dims, std::min<uint64_t>(C->getZExtValue(), 2) + 1);
          else
            Dims = 3;
        }
    return Dims;
  }

private:
  std::nullopt_t fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return std::nullopt;
  }

  template <typename Fn>
  std::optional<Polynomial> fold(const SCEVNAryExpr *E, Fn Combine) {
    std::optional<Polynomial> Acc;
    for (const SCEV *Op : E->operands()) {
      auto P = convert(Op);
      if (!P)
        return std::nullopt;
      if (!Acc) {
        Acc = std::move(P);
        continue;
      }
      Acc = Combine(*Acc, *P);
      if (!Acc)
        return fail("an index overflows 64 bits");
    }
    return Acc;
  }

  bool mentionsIndex(const Polynomial &P) const {
    return P.mentions([&](unsigned A) { return Info.Atoms[A].isIndex(); });
  }

  /// A division or min/max of index-free values: kept whole as one atom.
  std::optional<Polynomial> opaque(IndexExpr::Op O,
                                   ArrayRef<const SCEV *> Operands) {
    std::vector<IndexExpr> Exprs;
    std::vector<Polynomial> Polys;
    for (const SCEV *Op : Operands) {
      auto P = convert(Op);
      if (!P)
        return std::nullopt;
      if (mentionsIndex(*P))
        return fail("an index divides or takes a min/max of a work-item or "
                    "loop value");
      Polys.push_back(*P);
      Exprs.push_back(P->toIndexExpr(Info.Atoms));
    }
    if (O == IndexExpr::Op::UDiv)
      if (auto A = Polys[0].asConstant())
        if (auto B = Polys[1].asConstant(); B && *B > 0 && *A >= 0)
          return Polynomial::constant(*A / *B);
    Atom A;
    A.K = Atom::Kind::Opaque;
    A.Value = IndexExpr::apply(O, std::move(Exprs));
    A.Name = "(" + A.Value.toJson() + ")";
    return Polynomial::atom(Info.Atoms.intern(std::move(A)));
  }

  std::optional<Polynomial> addRec(const SCEVAddRecExpr *Rec) {
    if (!Rec->isAffine())
      return fail("an index grows non-linearly in a loop");
    auto Start = convert(Rec->getStart());
    auto Step = convert(Rec->getStepRecurrence(SE));
    if (!Start || !Step)
      return std::nullopt;
    if (mentionsIndex(*Step))
      return fail("a loop's stride depends on the work-item or another loop");
    auto Var = loopVariable(Rec->getLoop(), runsEveryIteration(Rec->getLoop()));
    if (!Var)
      return std::nullopt;
    auto Term = Step->times(Polynomial::atom(*Var));
    auto Sum = Term ? Start->plus(*Term) : std::nullopt;
    if (!Sum)
      return fail("an index overflows 64 bits");
    return Sum;
  }

  std::optional<Polynomial> tripCount(const SCEV *BTC, bool Full) {
    auto Trip = convert(BTC);
    if (!Trip)
      return std::nullopt;
    if (mentionsIndex(*Trip))
      return fail("a loop's trip count depends on the work-item or an "
                  "enclosing loop");
    auto Runs = Full ? Trip->plus(Polynomial::constant(1)) : Trip;
    if (!Runs)
      return fail("a trip count overflows 64 bits");
    return Runs;
  }

  /// A loop runs its header backedge-taken-count + 1 times. A block after
  /// the exit test (a top-tested loop's body) runs once less.
  bool runsEveryIteration(const Loop *L) const {
    const BasicBlock *Exiting = L->getExitingBlock();
    if (!Exiting || !AccessBlock || !L->contains(AccessBlock))
      return true;
    return !(Exiting != AccessBlock && DT.dominates(Exiting, AccessBlock));
  }

  std::optional<unsigned> loopVariable(const Loop *L, bool Full) {
    auto It = LoopAtoms.find({L, Full});
    if (It != LoopAtoms.end())
      return It->second;
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC))
      return fail("the trip count of a loop cannot be computed"), std::nullopt;
    // The count assumes the loop is entered. Rewritten with the guards that
    // lead to the loop (n >= 1 for `for (k = 0; k < n; ...)`) it does not
    // wrap when the loop is skipped; it then over-counts by at most one
    // pass, which only widens the footprint. The contiguity proof uses the
    // plain count: it reasons about loops that run.
    auto Runs = tripCount(SE.applyLoopGuards(BTC, L), Full);
    auto RunsIfEntered = tripCount(BTC, Full);
    if (!Runs || !RunsIfEntered)
      return std::nullopt;
    unsigned K = Info.LoopTrips.size();
    Info.LoopTrips.push_back(*Runs);
    Info.LoopTripsIfEntered.push_back(*RunsIfEntered);
    Atom A;
    A.K = Atom::Kind::Loop;
    A.Index = K;
    A.Name = "loop." + std::to_string(K);
    unsigned Id = Info.Atoms.intern(std::move(A));
    LoopAtoms[{L, Full}] = Id;
    return Id;
  }

  Polynomial launchValue(SymbolKind Kind, unsigned Index) {
    return launchValueAtom(Info.Atoms, Kind, Index);
  }

  Polynomial localSize(unsigned D) {
    if (Reqd[D])
      return Polynomial::constant(Reqd[D]);
    return launchValue(SymbolKind::LocalSize, D);
  }

  Polynomial localId(unsigned D) {
    if (Reqd[D] == 1)
      return Polynomial::constant(0);
    Atom A;
    A.K = Atom::Kind::LocalId;
    A.Index = D;
    A.Name = "local_id." + std::to_string(D);
    return Polynomial::atom(Info.Atoms.intern(std::move(A)));
  }

  Polynomial sum(std::initializer_list<std::optional<Polynomial>> Parts) {
    Polynomial Acc;
    for (const auto &P : Parts)
      Acc = *Acc.plus(*P);
    return Acc;
  }

  Polynomial globalId(unsigned D) {
    return sum({launchValue(SymbolKind::Group, D).times(localSize(D)),
                localId(D), launchValue(SymbolKind::GlobalOffset, D)});
  }

  Polynomial globalSize(unsigned D) {
    return *launchValue(SymbolKind::NumGroups, D).times(localSize(D));
  }

  std::optional<Polynomial> workItem(WorkItemFn Fn, const CallBase &CB) {
    unsigned D = 0;
    if (takesDimension(Fn)) {
      const auto *C = dyn_cast<ConstantInt>(CB.getArgOperand(0));
      if (!C)
        return fail("an index uses a work-item function with a dimension "
                    "known only at run time");
      D = C->getZExtValue();
      if (D > 2) // OpenCL: ids are 0 and sizes 1 beyond the last dimension.
        return Polynomial::constant(
            Fn == WorkItemFn::LocalSize || Fn == WorkItemFn::GlobalSize ||
                    Fn == WorkItemFn::NumGroups ||
                    Fn == WorkItemFn::EnqueuedLocalSize
                ? 1
                : 0);
    }
    switch (Fn) {
    case WorkItemFn::GlobalId:
      return globalId(D);
    case WorkItemFn::LocalId:
      return localId(D);
    case WorkItemFn::GroupId:
      return launchValue(SymbolKind::Group, D);
    case WorkItemFn::LocalSize:
    case WorkItemFn::EnqueuedLocalSize:
      return localSize(D);
    case WorkItemFn::NumGroups:
      return launchValue(SymbolKind::NumGroups, D);
    case WorkItemFn::GlobalSize:
      return globalSize(D);
    case WorkItemFn::GlobalOffset:
      return launchValue(SymbolKind::GlobalOffset, D);
    case WorkItemFn::GlobalLinearId: {
      // ((z - off_z) * size_y + (y - off_y)) * size_x + (x - off_x)
      Polynomial Lin;
      for (int Dim = 2; Dim >= 0; --Dim) {
        auto Rel = globalId(Dim).minus(launchValue(SymbolKind::GlobalOffset, Dim));
        auto Scaled = Lin.times(globalSize(Dim));
        Lin = *Scaled->plus(*Rel);
      }
      return Lin;
    }
    case WorkItemFn::LocalLinearId: {
      Polynomial Lin;
      for (int Dim = 2; Dim >= 0; --Dim)
        Lin = *Lin.times(localSize(Dim))->plus(localId(Dim));
      return Lin;
    }
    case WorkItemFn::WorkDim:
      return fail("an index depends on get_work_dim()");
    }
    return fail("unknown work-item function");
  }

  std::optional<Polynomial> unknown(const Value *V) {
    if (const auto *A = dyn_cast<Argument>(V)) {
      if (A->getParent() == &F && A->getType()->isIntegerTy())
        return launchValue(SymbolKind::Arg, A->getArgNo());
      return fail("an index depends on argument '" + A->getName().str() + "'");
    }
    if (const auto *CB = dyn_cast<CallBase>(V))
      if (auto Fn = workItemFnOf(*CB))
        return workItem(*Fn, *CB);
    if (isa<LoadInst>(V))
      return fail("an index depends on a value loaded from memory");
    return fail("an index depends on '" +
                (V->hasName() ? V->getName().str() : std::string("a computed value")) +
                "'");
  }

  const Function &F;
  ScalarEvolution &SE;
  const DominatorTree &DT;
  KernelAccessInfo &Info;
  std::array<uint32_t, 3> Reqd;
  const BasicBlock *AccessBlock = nullptr;
  std::map<std::pair<const Loop *, bool>, unsigned> LoopAtoms;
  std::string Why;
};

/// Whether \p BB runs whenever the kernel (for its loop: each iteration)
/// does: it post-dominates its loop's header, each loop's header
/// post-dominates the enclosing one's, and the outermost the entry.
bool isUnconditional(const BasicBlock *BB, const LoopInfo &LI,
                     const PostDominatorTree &PDT) {
  const BasicBlock *Inner = BB;
  for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
    if (!PDT.dominates(Inner, L->getHeader()))
      return false;
    Inner = L->getHeader();
  }
  return PDT.dominates(Inner, &BB->getParent()->getEntryBlock());
}

/// For an access in a block whose one predecessor runs for every
/// work-item (in every iteration) and branches to it when `idx < limit`
/// holds, with the access at offset idx * its size: that limit times the
/// size, in bytes, when it depends on launch values only. Such an access
/// happens exactly at the offsets below the bound.
std::optional<Polynomial> guardBound(const Instruction &I, const SCEV *Off, uint64_t Bytes,
                                     ScalarEvolution &SE, const LoopInfo &LI,
                                     const PostDominatorTree &PDT, OffsetBuilder &Builder,
                                     const AtomTable &Atoms);

/// One memory operation on a buffer: where, how many bytes, which way.
struct RawAccess {
  const Value *Pointer = nullptr;
  const Value *ExtraOffset = nullptr; ///< vload/vstore offset, in Stride units.
  uint64_t Stride = 0;
  uint64_t Bytes = 0;
  bool Reads = false, Writes = false;
  std::string Unknown; ///< Set when the operation cannot be described.
};

std::vector<RawAccess> memoryOperations(const Instruction &I,
                                        const DataLayout &DL) {
  std::vector<RawAccess> Out;
  auto Add = [&](const Value *P, uint64_t Bytes, bool R, bool W) {
    RawAccess A;
    A.Pointer = P;
    A.Bytes = Bytes;
    A.Reads = R;
    A.Writes = W;
    Out.push_back(A);
  };
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    Add(L->getPointerOperand(), DL.getTypeStoreSize(L->getType()), true, false);
  } else if (const auto *S = dyn_cast<StoreInst>(&I)) {
    Add(S->getPointerOperand(),
        DL.getTypeStoreSize(S->getValueOperand()->getType()), false, true);
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Add(RMW->getPointerOperand(), DL.getTypeStoreSize(RMW->getType()), true, true);
  } else if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Add(X->getPointerOperand(),
        DL.getTypeStoreSize(X->getCompareOperand()->getType()), true, true);
  } else if (const auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    const auto *Len = dyn_cast<ConstantInt>(MI->getLength());
    uint64_t Bytes = Len ? Len->getZExtValue() : 0;
    Add(MI->getDest(), Bytes, false, true);
    if (const auto *MT = dyn_cast<MemTransferInst>(MI))
      Add(MT->getSource(), Bytes, true, false);
    if (!Len)
      for (RawAccess &A : Out)
        A.Unknown = "a memory copy of a length known only at run time";
  } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
    if (isa<DbgInfoIntrinsic>(CB) || isa<LifetimeIntrinsic>(CB))
      return Out;
    if (auto V = asVectorAccess(*CB)) {
      RawAccess A;
      A.Pointer = V->Pointer;
      A.ExtraOffset = V->Offset;
      A.Stride = V->Stride;
      A.Bytes = V->Bytes;
      A.Reads = !V->IsStore;
      A.Writes = V->IsStore;
      Out.push_back(A);
      return Out;
    }
    StringRef Callee = CB->getCalledFunction()
                           ? CB->getCalledFunction()->getName()
                           : StringRef("an indirect call");
    bool Atomic = Callee.contains("atom");
    for (const Value *Arg : CB->args()) {
      if (!Arg->getType()->isPointerTy())
        continue;
      RawAccess A;
      A.Pointer = Arg;
      A.Reads = A.Writes = true;
      if (Atomic && !CB->getType()->isVoidTy())
        A.Bytes = DL.getTypeStoreSize(CB->getType());
      else
        A.Unknown = "the buffer is passed to " + Callee.str();
      Out.push_back(A);
    }
  }
  return Out;
}

/// Splits an offset into its parts: base (no index variable), terms by
/// index variable and by group. Non-affine: std::nullopt.
struct Decomposed {
  Polynomial Base;
  std::map<unsigned, Polynomial> ByAtom; ///< Index or group atom -> coeff.
};

std::optional<Decomposed> decompose(const Polynomial &P, const AtomTable &Atoms) {
  Decomposed D;
  for (const auto &[M, C] : P.terms()) {
    std::optional<unsigned> Index, Group;
    unsigned IndexCount = 0, GroupCount = 0;
    for (unsigned A : M) {
      if (Atoms[A].isIndex()) {
        ++IndexCount;
        Index = A;
      } else if (Atoms[A].K == Atom::Kind::Group) {
        ++GroupCount;
        Group = A;
      }
    }
    if (IndexCount > 1)
      return std::nullopt;
    Polynomial::Monomial Rest = M;
    std::optional<unsigned> Key = IndexCount ? Index : GroupCount == 1 ? Group
                                                                        : std::nullopt;
    if (Key)
      Rest.erase(std::find(Rest.begin(), Rest.end(), *Key));
    Polynomial Term;
    Term.addTerm(Rest, C);
    Polynomial &Into = Key ? D.ByAtom[*Key] : D.Base;
    Into = *Into.plus(Term);
  }
  return D;
}

std::optional<Polynomial> guardBound(const Instruction &I, const SCEV *Off, uint64_t Bytes,
                                     ScalarEvolution &SE, const LoopInfo &LI,
                                     const PostDominatorTree &PDT, OffsetBuilder &Builder,
                                     const AtomTable &Atoms) {
  const BasicBlock *BB = I.getParent();
  const BasicBlock *Pred = BB->getSinglePredecessor();
  if (!Pred || !isUnconditional(Pred, LI, PDT))
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) != BB || Br->getSuccessor(1) == BB)
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return std::nullopt;
  Value *Idx = Cmp->getOperand(0), *Limit = Cmp->getOperand(1);
  CmpInst::Predicate Pred0 = Cmp->getPredicate();
  if (Pred0 == CmpInst::ICMP_UGT || Pred0 == CmpInst::ICMP_SGT) {
    std::swap(Idx, Limit);
    Pred0 = Cmp->getSwappedPredicate();
  }
  if (Pred0 != CmpInst::ICMP_ULT && Pred0 != CmpInst::ICMP_SLT)
    return std::nullopt;
  Type *Ty = Off->getType();
  auto Extend = [&](const SCEV *S) -> const SCEV * {
    if (S->getType() == Ty)
      return S;
    if (SE.getTypeSizeInBits(S->getType()) > SE.getTypeSizeInBits(Ty))
      return nullptr;
    return Pred0 == CmpInst::ICMP_ULT ? SE.getZeroExtendExpr(S, Ty) : SE.getSignExtendExpr(S, Ty);
  };
  const SCEV *IdxS = Extend(SE.getSCEV(Idx)), *LimitS = Extend(SE.getSCEV(Limit));
  if (!IdxS || !LimitS)
    return std::nullopt;
  const SCEV *Size = SE.getConstant(Ty, Bytes);
  if (!SE.getMinusSCEV(Off, SE.getMulExpr(IdxS, Size))->isZero())
    return std::nullopt;
  std::optional<Polynomial> Bound = Builder.convert(SE.getMulExpr(LimitS, Size));
  if (!Bound)
    return std::nullopt;
  auto D = decompose(*Bound, Atoms);
  if (!D || !D->ByAtom.empty())
    return std::nullopt;
  return Bound;
}

/// Adds to \p Out what \p Cond being \p Holds says, as polynomials P < 0:
/// integer comparisons (an equality as two), and both sides of an `and`
/// that holds (an `or` that does not). Comparisons that are not affine are
/// left out, which only widens the footprint. Each condition carries the
/// range checks that make its polynomial the kernel's fixed-width value:
/// the compared values in their type's range, and the operands of every
/// extension, division and min/max inside them (a truncation and wrapping
/// arithmetic agree with the polynomial modulo the width, so the next
/// check covers them).
void addConditions(const Value *Cond, bool Holds, ScalarEvolution &SE,
                   OffsetBuilder &Builder, const AtomTable &Atoms,
                   std::vector<GuardCondition> &Out, unsigned Depth = 0) {
  if (Depth > 8)
    return;
  const Value *A, *B;
  using namespace llvm::PatternMatch;
  if ((Holds && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
      (!Holds && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))) {
    addConditions(A, Holds, SE, Builder, Atoms, Out, Depth + 1);
    addConditions(B, Holds, SE, Builder, Atoms, Out, Depth + 1);
    return;
  }
  if (match(Cond, m_Not(m_Value(A)))) {
    addConditions(A, !Holds, SE, Builder, Atoms, Out, Depth + 1);
    return;
  }
  const auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return;
  CmpInst::Predicate Pred = Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
  // (X & 2^(k-1)) == 0 is InstCombine's form of a signed test of X
  // truncated to k bits: `int gid = get_global_id(0); if (gid < 0)`.
  // Where X fits k signed bits, it is X's own sign.
  const APInt *SignBit = nullptr;
  const Value *Masked = nullptr;
  if (const Value *X; Cmp->isEquality() && match(Cmp->getOperand(1), m_Zero()) &&
                      match(Cmp->getOperand(0), m_And(m_Value(X), m_Power2(SignBit)))) {
    Masked = X;
    Pred = Pred == CmpInst::ICMP_NE ? CmpInst::ICMP_SLT : CmpInst::ICMP_SGE;
  } else if (Pred == CmpInst::ICMP_NE) {
    return;
  }
  unsigned Bits = Masked ? SignBit->logBase2() + 1
                         : Cmp->getOperand(0)->getType()->getIntegerBitWidth();
  bool Signed = CmpInst::isSigned(Pred);
  std::vector<RangeCheck> Checks;
  bool Ok = true;
  auto Check = [&](const SCEV *S, unsigned Width, bool IsSigned) {
    std::optional<Polynomial> P = Builder.convert(S);
    if (!P || !decompose(*P, Atoms))
      Ok = false;
    else
      Checks.push_back({std::move(*P), Width, IsSigned});
  };
  auto Side = [&](const Value *V) -> std::optional<Polynomial> {
    const SCEV *S = SE.getSCEV(const_cast<Value *>(V));
    if (isa<SCEVCouldNotCompute>(S))
      return std::nullopt;
    Check(S, Bits, Signed);
    SCEVExprContains(S, [&](const SCEV *X) {
      auto Width = [&](const SCEV *Y) { return SE.getTypeSizeInBits(Y->getType()); };
      if (const auto *Z = dyn_cast<SCEVZeroExtendExpr>(X))
        Check(Z->getOperand(), Width(Z->getOperand()), false);
      else if (const auto *E = dyn_cast<SCEVSignExtendExpr>(X))
        Check(E->getOperand(), Width(E->getOperand()), true);
      else if (const auto *D = dyn_cast<SCEVUDivExpr>(X))
        for (const SCEV *Op : {D->getLHS(), D->getRHS()})
          Check(Op, Width(Op), false);
      else if (const auto *M = dyn_cast<SCEVMinMaxExpr>(X))
        for (const SCEV *Op : M->operands())
          Check(Op, Width(Op), isa<SCEVSMaxExpr>(M) || isa<SCEVSMinExpr>(M));
      return false; // Visit every node.
    });
    return Builder.convert(S);
  };
  std::optional<Polynomial> L = Side(Masked ? Masked : Cmp->getOperand(0));
  std::optional<Polynomial> R =
      Masked ? std::optional<Polynomial>(Polynomial::constant(0)) : Side(Cmp->getOperand(1));
  if (!L || !R || !Ok)
    return;
  // L < R: L - R < 0; L <= R: L - R - 1 < 0; the others mirrored; L == R
  // as L <= R and R <= L.
  auto Add = [&](bool Less, bool OrEqual) {
    std::optional<Polynomial> P = Less ? L->minus(*R) : R->minus(*L);
    if (P && OrEqual)
      P = P->minus(Polynomial::constant(1));
    if (P && decompose(*P, Atoms))
      Out.push_back({std::move(*P), Checks});
  };
  if (Pred == CmpInst::ICMP_EQ) {
    Add(true, true);
    Add(false, true);
    return;
  }
  Add(Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_ULT || Pred == CmpInst::ICMP_SLE ||
          Pred == CmpInst::ICMP_ULE,
      Pred == CmpInst::ICMP_SLE || Pred == CmpInst::ICMP_ULE || Pred == CmpInst::ICMP_SGE ||
          Pred == CmpInst::ICMP_UGE);
}

/// The conditions that hold wherever \p BB runs: the branches of blocks
/// that dominate it (in its loop or one around it) whose one edge alone
/// leads there.
std::vector<GuardCondition> guardConditions(const BasicBlock *BB, ScalarEvolution &SE,
                                            const LoopInfo &LI, const DominatorTree &DT,
                                            OffsetBuilder &Builder, const AtomTable &Atoms) {
  std::vector<GuardCondition> Out;
  const DomTreeNode *Node = DT.getNode(BB);
  for (Node = Node ? Node->getIDom() : nullptr; Node; Node = Node->getIDom()) {
    const BasicBlock *D = Node->getBlock();
    // A test in a loop that BB is not in speaks of another iteration.
    if (const Loop *L = LI.getLoopFor(D); L && !L->contains(BB))
      continue;
    const auto *Br = dyn_cast<BranchInst>(D->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    for (unsigned S = 0; S < 2; ++S)
      if (DT.dominates(BasicBlockEdge(D, Br->getSuccessor(S)), BB))
        addConditions(Br->getCondition(), S == 0, SE, Builder, Atoms, Out);
  }
  return Out;
}

/// The range of an index atom, as a polynomial.
Polynomial rangeOf(const Atom &A, const KernelAccessInfo &Info,
                   const std::array<uint32_t, 3> &Reqd, AtomTable &Atoms) {
  if (A.K == Atom::Kind::Loop)
    return Info.LoopTripsIfEntered[A.Index];
  if (Reqd[A.Index])
    return Polynomial::constant(Reqd[A.Index]);
  return launchValueAtom(Atoms, SymbolKind::LocalSize, A.Index);
}

/// Merges accesses that differ only in a constant offset and together cover
/// one run of bytes (p[2*i] and p[2*i+1]; in[i-1], in[i], in[i+1]), so a
/// work-item's footprint is one access of the combined width.
void coalesce(std::vector<AnalyzedAccess> &Accesses) {
  std::vector<AnalyzedAccess> Out;
  std::vector<bool> Used(Accesses.size(), false);
  for (size_t I = 0; I < Accesses.size(); ++I) {
    if (Used[I])
      continue;
    const AnalyzedAccess &A = Accesses[I];
    // Members: same mode, offsets a constant apart.
    std::vector<std::pair<int64_t, size_t>> Members = {{0, I}};
    for (size_t J = I + 1; J < Accesses.size(); ++J) {
      const AnalyzedAccess &B = Accesses[J];
      if (Used[J] || B.Reads != A.Reads || B.Writes != A.Writes)
        continue;
      auto Delta = B.Offset.minus(A.Offset);
      if (auto C = Delta ? Delta->asConstant() : std::nullopt)
        Members.push_back({*C, J});
    }
    std::sort(Members.begin(), Members.end());
    // Runs of touching or overlapping members become one access each.
    for (size_t K = 0; K < Members.size();) {
      AnalyzedAccess Run = Accesses[Members[K].second];
      Run.Offset = *A.Offset.plus(Polynomial::constant(Members[K].first));
      int64_t Start = Members[K].first;
      int64_t End = Start + static_cast<int64_t>(Run.Bytes);
      Used[Members[K].second] = true;
      size_t L = K + 1;
      for (; L < Members.size() && Members[L].first <= End; ++L) {
        const AnalyzedAccess &Next = Accesses[Members[L].second];
        End = std::max(End, Members[L].first + static_cast<int64_t>(Next.Bytes));
        Run.Guarded |= Next.Guarded;
        // A joined run is bounded only if its members are, alike; a
        // member at another offset shifts the bound, so drop it then.
        Run.Below.reset();
        // Its guards hold where all members' do: the ones they share.
        if (!Next.Guarded)
          Run.Guards.clear();
        auto Same = [](const Polynomial &A, const Polynomial &B) {
          auto D = A.minus(B);
          auto C = D ? D->asConstant() : std::nullopt;
          return C && *C == 0;
        };
        llvm::erase_if(Run.Guards, [&](const GuardCondition &G) {
          return llvm::none_of(Next.Guards, [&](const GuardCondition &H) {
            return Same(G.Value, H.Value) && G.Checks.size() == H.Checks.size() &&
                   llvm::all_of(llvm::zip(G.Checks, H.Checks), [&](auto Pair) {
                     auto &[X, Y] = Pair;
                     return X.Bits == Y.Bits && X.Signed == Y.Signed &&
                            Same(X.Value, Y.Value);
                   });
          });
        });
        Used[Members[L].second] = true;
      }
      Run.Bytes = End - Start;
      Out.push_back(std::move(Run));
      K = L;
    }
  }
  Accesses = std::move(Out);
}

/// Symbolic contiguity of one buffer (see the header).
class ContiguityProver {
public:
  ContiguityProver(KernelAccessInfo &Info, const std::array<uint32_t, 3> &Reqd)
      : Info(Info), Reqd(Reqd) {}

  Contiguity classify(const BufferAccessInfo &B) {
    if (B.Whole)
      return Contiguity::No;
    if (B.Accesses.empty())
      return Contiguity::Always;
    if (proves(B, {}))
      return Contiguity::Always;
    if (Info.Dimensions > 1 && proves(B, {1, 2}))
      return Contiguity::WhenYZGroupsFlat;
    return Contiguity::No;
  }

private:
  struct Interval {
    Polynomial Lo, Width;
    std::array<Polynomial, 3> GroupStep;
  };

  /// Substitutes local_size.d = 1 (and local_id.d = 0) for d in \p Flat.
  std::optional<Polynomial> flatten(Polynomial P, ArrayRef<unsigned> Flat) {
    SmallVector<unsigned, 4> Ids;
    P.mentions([&](unsigned A) {
      const Atom &At = Info.Atoms[A];
      for (unsigned D : Flat)
        if (((At.K == Atom::Kind::LocalId && At.Index == D) ||
             isLocalSizeAtom(At, D)) &&
            !is_contained(Ids, A))
          Ids.push_back(A);
      return false;
    });
    for (unsigned A : Ids) {
      auto Next =
          P.substitute(A, Info.Atoms[A].K == Atom::Kind::LocalId ? 0 : 1);
      if (!Next)
        return std::nullopt;
      P = std::move(*Next);
    }
    return P;
  }

  /// Per group, the access covers [Lo, Lo + Width) densely; Lo moves by
  /// GroupStep[d] per group in dimension d.
  std::optional<Interval> interval(const AnalyzedAccess &A,
                                   ArrayRef<unsigned> Flat) {
    auto P = flatten(A.Offset, Flat);
    if (!P)
      return std::nullopt;
    auto D = decompose(*P, Info.Atoms);
    if (!D)
      return std::nullopt;
    Interval I;
    I.Lo = D->Base;
    if (I.Lo.mentions([&](unsigned X) { return Info.Atoms[X].K == Atom::Kind::Group; }))
      return std::nullopt;
    struct Dim {
      Polynomial Coeff, Range;
    };
    std::vector<Dim> Dims;
    for (auto &[AtomId, Coeff] : D->ByAtom) {
      const Atom &At = Info.Atoms[AtomId];
      if (Coeff.mentions([&](unsigned X) { return Info.Atoms[X].K == Atom::Kind::Group; }))
        return std::nullopt;
      if (!Coeff.provablyNonNegative(Info.Atoms))
        return std::nullopt;
      if (At.K == Atom::Kind::Group) {
        I.GroupStep[At.Index] = Coeff;
        continue;
      }
      auto R = rangeOf(At, Info, Reqd, Info.Atoms);
      auto Range = flatten(R, Flat);
      if (!Range)
        return std::nullopt;
      if (Range->asConstant() == std::optional<int64_t>(1))
        continue;
      Dims.push_back({Coeff, *Range});
    }
    // Dense if, in some order, each stride is at most the span so far.
    std::vector<size_t> Order(Dims.size());
    for (size_t K = 0; K < Order.size(); ++K)
      Order[K] = K;
    do {
      Polynomial Span = Polynomial::constant(A.Bytes);
      bool Dense = true;
      for (size_t K : Order) {
        auto Gap = Span.minus(Dims[K].Coeff);
        auto RangeMinus1 = Dims[K].Range.minus(Polynomial::constant(1));
        auto Grow = RangeMinus1 ? Dims[K].Coeff.times(*RangeMinus1) : std::nullopt;
        auto Next = Grow ? Span.plus(*Grow) : std::nullopt;
        if (!Gap || !Next || !Gap->provablyNonNegative(Info.Atoms)) {
          Dense = false;
          break;
        }
        Span = std::move(*Next);
      }
      if (Dense) {
        I.Width = Span;
        return I;
      }
    } while (std::next_permutation(Order.begin(), Order.end()) && Order.size() <= 5);
    return std::nullopt;
  }

  bool proves(const BufferAccessInfo &B, ArrayRef<unsigned> Flat) {
    std::vector<Interval> Parts;
    bool Writes = false;
    for (const AnalyzedAccess &A : B.Accesses) {
      auto I = interval(A, Flat);
      if (!I)
        return false;
      Parts.push_back(std::move(*I));
      Writes |= A.Writes;
    }
    // Accesses must move together from group to group, and their
    // intervals, ordered by constant offsets, must leave no gap.
    for (const Interval &I : Parts)
      for (unsigned D = 0; D < 3; ++D)
        if (!(I.GroupStep[D] == Parts[0].GroupStep[D]))
          return false;
    std::vector<std::pair<int64_t, const Interval *>> Sorted;
    for (const Interval &I : Parts) {
      auto Delta = I.Lo.minus(Parts[0].Lo);
      auto C = Delta ? Delta->asConstant() : std::nullopt;
      if (!C)
        return false;
      Sorted.push_back({*C, &I});
    }
    std::sort(Sorted.begin(), Sorted.end(),
              [](const auto &L, const auto &R) { return L.first < R.first; });
    Polynomial Lo = Sorted[0].second->Lo;
    Polynomial Reach = *Lo.plus(Sorted[0].second->Width);
    for (size_t K = 1; K < Sorted.size(); ++K) {
      const Interval &I = *Sorted[K].second;
      auto Gap = Reach.minus(I.Lo);
      if (!Gap || !Gap->provablyNonNegative(Info.Atoms))
        return false;
      auto End = I.Lo.plus(I.Width);
      auto Further = End ? End->minus(Reach) : std::nullopt;
      if (!Further)
        return false;
      if (Further->provablyNonNegative(Info.Atoms))
        Reach = std::move(*End);
      else if (!Further->scaled(-1)->provablyNonNegative(Info.Atoms))
        return false;
    }
    Polynomial Width = *Reach.minus(Lo);

    // Consecutive flattened groups: x steps by GroupStep[0]; at the end of
    // a row, back NumGroups.x - 1 steps and one step in y; likewise z.
    const std::array<Polynomial, 3> &G = Sorted[0].second->GroupStep;
    Polynomial Back;
    for (unsigned D = 0; D < Info.Dimensions; ++D) {
      auto Step = G[D].minus(Back);
      if (!Step)
        return false;
      bool Ok = Writes ? *Step == Width
                       : Step->provablyNonNegative(Info.Atoms) &&
                             Width.minus(*Step) &&
                             Width.minus(*Step)->provablyNonNegative(Info.Atoms);
      if (!Ok)
        return false;
      // Going back over a whole row of this dimension.
      auto Count = launchValueAtom(Info.Atoms, SymbolKind::NumGroups, D)
                       .minus(Polynomial::constant(1));
      auto Row = Count ? G[D].times(*Count) : std::nullopt;
      auto NewBack = Row ? Back.plus(*Row) : std::nullopt;
      if (!NewBack)
        return false;
      Back = std::move(*NewBack);
    }
    return true;
  }

  KernelAccessInfo &Info;
  const std::array<uint32_t, 3> &Reqd;
};

KernelAccessInfo analyzeKernel(const Function &F, ScalarEvolution &SE,
                               const LoopInfo &LI, const DominatorTree &DT,
                               const PostDominatorTree &PDT) {
  KernelAccessInfo Info;
  Info.Dimensions = OffsetBuilder::dimensionsUsed(F);
  const DataLayout &DL = F.getDataLayout();

  std::map<const Argument *, size_t> BufferIndex;
  for (const Argument &A : F.args())
    if (A.getType()->isPointerTy() &&
        isBufferSpace(kernelArgAddressSpace(F, A.getArgNo()))) {
      BufferAccessInfo B;
      B.ArgNo = A.getArgNo();
      B.Name = kernelArgName(F, A.getArgNo());
      BufferIndex[&A] = Info.Buffers.size();
      Info.Buffers.push_back(std::move(B));
    }

  OffsetBuilder Builder(F, SE, DT, Info);
  auto MakeWhole = [&](BufferAccessInfo &B, const std::string &Why) {
    if (!B.Whole) {
      B.Whole = true;
      B.WholeReason = Why;
    }
  };

  for (const Instruction &I : instructions(F)) {
    for (const RawAccess &R : memoryOperations(I, DL)) {
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(R.Pointer, Objects, nullptr, /*MaxLookup=*/0);
      std::vector<BufferAccessInfo *> Targets;
      bool Untraced = false;
      for (const Value *O : Objects) {
        if (const auto *A = dyn_cast<Argument>(O)) {
          // Other pointer arguments are __local memory, not buffers.
          if (BufferIndex.count(A))
            Targets.push_back(&Info.Buffers[BufferIndex[A]]);
        } else if (!isa<AllocaInst>(O) && !isa<GlobalVariable>(O)) {
          Untraced = true;
        }
      }
      if (Untraced) {
        // Memory we cannot attribute could be any buffer.
        for (BufferAccessInfo &B : Info.Buffers)
          MakeWhole(B, "a pointer cannot be traced to one buffer");
        continue;
      }
      if (Targets.empty())
        continue; // __local or private memory.
      if (Targets.size() > 1) {
        for (BufferAccessInfo *B : Targets)
          MakeWhole(*B, "a pointer may point into several buffers");
        continue;
      }
      BufferAccessInfo &B = *Targets[0];
      if (!R.Unknown.empty()) {
        MakeWhole(B, R.Unknown);
        continue;
      }
      const Argument *Base = F.getArg(B.ArgNo);
      const SCEV *Off = SE.getMinusSCEV(SE.getSCEV(const_cast<Value *>(R.Pointer)),
                                        SE.getSCEV(const_cast<Argument *>(Base)));
      if (R.ExtraOffset && !isa<SCEVCouldNotCompute>(Off)) {
        const SCEV *Extra = SE.getSCEV(const_cast<Value *>(R.ExtraOffset));
        Extra = SE.getTruncateOrZeroExtend(Extra, Off->getType());
        Off = SE.getAddExpr(Off, SE.getMulExpr(Extra, SE.getConstant(Off->getType(), R.Stride)));
      }
      std::optional<Polynomial> P;
      Builder.setAccessBlock(I.getParent());
      if (!isa<SCEVCouldNotCompute>(Off))
        P = Builder.convert(Off);
      if (!P) {
        MakeWhole(B, Builder.why().empty() ? "an address cannot be analyzed"
                                           : Builder.why());
        continue;
      }
      if (!decompose(*P, Info.Atoms)) {
        MakeWhole(B, "an index is not affine in the work-item ids and loop "
                     "counters");
        continue;
      }
      AnalyzedAccess A;
      A.Inst = &I;
      A.Reads = R.Reads;
      A.Writes = R.Writes;
      A.Bytes = R.Bytes;
      A.Offset = std::move(*P);
      A.Guarded = !isUnconditional(I.getParent(), LI, PDT);
      if (A.Guarded) {
        A.Below = guardBound(I, Off, R.Bytes, SE, LI, PDT, Builder, Info.Atoms);
        A.Guards = guardConditions(I.getParent(), SE, LI, DT, Builder, Info.Atoms);
      }
      B.Accesses.push_back(std::move(A));
    }
  }

  std::array<uint32_t, 3> Reqd = requiredLocalSize(F);
  ContiguityProver Prover(Info, Reqd);
  Info.Contiguous = Contiguity::Always;
  for (BufferAccessInfo &B : Info.Buffers) {
    if (B.Whole)
      B.Accesses.clear();
    coalesce(B.Accesses);
    B.Contiguous = Prover.classify(B);
    // The kernel is as contiguous as its least contiguous buffer.
    if (B.Contiguous == Contiguity::No ||
        (B.Contiguous == Contiguity::WhenYZGroupsFlat &&
         Info.Contiguous == Contiguity::Always))
      Info.Contiguous = B.Contiguous;
  }
  return Info;
}

} // namespace

KernelFootprint KernelAccessInfo::toFootprint() const {
  KernelFootprint K;
  // An affine polynomial as a base and a term per index variable.
  auto Split = [&](const Polynomial &P, IndexExpr &Base, std::vector<AccessTerm> &Terms) {
    auto D = decompose(P, Atoms);
    Base = D->Base.toIndexExpr(Atoms);
    for (const auto &[AtomId, Coeff] : D->ByAtom) {
      const Atom &At = Atoms[AtomId];
      AccessTerm T;
      T.Var = At.K == Atom::Kind::Loop    ? IndexVar::Loop
              : At.K == Atom::Kind::Group ? IndexVar::Group
                                          : IndexVar::LocalId;
      T.Index = At.Index;
      T.Coeff = Coeff.toIndexExpr(Atoms);
      Terms.push_back(std::move(T));
    }
  };
  for (const Polynomial &T : LoopTrips)
    K.LoopTrips.push_back(T.toIndexExpr(Atoms));
  for (const BufferAccessInfo &B : Buffers) {
    ArgFootprint F;
    F.ArgIndex = B.ArgNo;
    F.Kind = B.Whole ? FootprintKind::Whole : FootprintKind::Affine;
    F.WholeReason = B.WholeReason;
    F.Contiguous = B.Contiguous;
    for (const AnalyzedAccess &A : B.Accesses) {
      Access X;
      X.Reads = A.Reads;
      X.Writes = A.Writes;
      X.Bytes = A.Bytes;
      X.Guarded = A.Guarded;
      if (A.Below)
        X.Below = A.Below->toIndexExpr(Atoms);
      Split(A.Offset, X.Base, X.Terms);
      for (const GuardCondition &G : A.Guards) {
        Guard &To = X.Guards.emplace_back();
        Split(G.Value, To.Value, To.Terms);
        for (const RangeCheck &C : G.Checks) {
          GuardRange &R = To.InRange.emplace_back();
          Split(C.Value, R.Value, R.Terms);
          R.Bits = C.Bits;
          R.Signed = C.Signed;
        }
      }
      F.Accesses.push_back(std::move(X));
    }
    K.Args.push_back(std::move(F));
  }
  return K;
}

void AccessFootprintResult::print(raw_ostream &OS) const {
  for (const auto &[F, Info] : Kernels) {
    OS << "kernel '" << F->getName() << "' (" << Info.Dimensions
       << "-D): contiguous " << contiguityName(Info.Contiguous) << '\n';
    for (size_t K = 0; K < Info.LoopTrips.size(); ++K) {
      OS << "  loop." << K << " runs ";
      Info.LoopTrips[K].print(OS, Info.Atoms);
      OS << " times\n";
    }
    for (const BufferAccessInfo &B : Info.Buffers) {
      OS << "  arg " << B.ArgNo << " '" << B.Name << "': ";
      if (B.Whole) {
        OS << "whole buffer (" << B.WholeReason << ")\n";
        continue;
      }
      OS << "affine, contiguous " << contiguityName(B.Contiguous) << '\n';
      for (const AnalyzedAccess &A : B.Accesses) {
        OS << "    " << (A.Reads && A.Writes ? "read-write" : A.Writes ? "write" : "read")
           << ' ' << A.Bytes << " B at ";
        A.Offset.print(OS, Info.Atoms);
        if (A.Below) {
          OS << " (guarded: below ";
          A.Below->print(OS, Info.Atoms);
          OS << " bytes)";
        } else if (A.Guarded) {
          OS << " (guarded)";
        }
        for (const GuardCondition &G : A.Guards) {
          OS << " [";
          G.Value.print(OS, Info.Atoms);
          OS << " < 0]";
        }
        OS << '\n';
      }
    }
  }
}

AccessFootprintResult AccessFootprintAnalysis::run(Module &M,
                                                   ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  AccessFootprintResult Result;
  for (Function &F : M) {
    if (!isOpenCLKernel(F) || F.hasFnAttribute("skmd-role"))
      continue;
    Result.Kernels.insert(
        {&F, analyzeKernel(F, FAM.getResult<ScalarEvolutionAnalysis>(F),
                           FAM.getResult<LoopAnalysis>(F),
                           FAM.getResult<DominatorTreeAnalysis>(F),
                           FAM.getResult<PostDominatorTreeAnalysis>(F))});
  }
  return Result;
}

PreservedAnalyses AccessFootprintPrinterPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  MAM.getResult<AccessFootprintAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace skmd
