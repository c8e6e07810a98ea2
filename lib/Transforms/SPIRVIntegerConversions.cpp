//===- SPIRVIntegerConversions.cpp - convert_<int> as plain IR ----------===//
#include "Transforms/SPIRVIntegerConversions.h"

#include "llvm/ADT/APInt.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"

#include <optional>

using namespace llvm;

namespace skmd {

namespace {

struct IntType {
  unsigned Bits;
  bool Signed;
};

/// A scalar integer type in Itanium mangling, as OpenCL's builtins are
/// mangled (char is signed in OpenCL C).
std::optional<IntType> mangledInt(char C) {
  switch (C) {
  case 'c': case 'a': return IntType{8, true};
  case 'h': return IntType{8, false};
  case 's': return IntType{16, true};
  case 't': return IntType{16, false};
  case 'i': return IntType{32, true};
  case 'j': return IntType{32, false};
  case 'l': return IntType{64, true};
  case 'm': return IntType{64, false};
  default: return std::nullopt;
  }
}

/// An integer-to-integer convert_<T>[_sat][_rt*] call, e.g.
/// _Z16convert_char_satl, _Z18convert_short8_satDv8_l, _Z12convert_int4Dv4_j.
struct Conversion {
  IntType Dst, Src;
  bool Saturating;
};

std::optional<Conversion> integerConversion(StringRef Name) {
  static const Regex Pattern(
      "^_Z[0-9]+convert_(u?)(char|short|int|long)[0-9]*(_sat)?(_rt[enpz])?(Dv[0-9]+_)?([a-z])$");
  SmallVector<StringRef, 7> Parts;
  if (!Pattern.match(Name, &Parts))
    return std::nullopt;
  auto Source = mangledInt(Parts[6][0]);
  if (!Source)
    return std::nullopt; // From float, double or half.
  unsigned Bits = StringSwitch<unsigned>(Parts[2])
                      .Case("char", 8)
                      .Case("short", 16)
                      .Case("int", 32)
                      .Default(64);
  return Conversion{IntType{Bits, Parts[1].empty()}, *Source, !Parts[3].empty()};
}

/// \p X (of \p Src) converted to \p Dst in \p Ty, saturating or modulo
/// the destination's width.
Value *convert(IRBuilder<> &B, Value *X, IntType Src, IntType Dst, bool Saturating,
               Type *Ty) {
  Type *SrcTy = X->getType();
  unsigned N = Src.Bits, M = Dst.Bits;
  auto Const = [&](const APInt &V) { return ConstantInt::get(SrcTy, V); };
  auto Call = [&](Intrinsic::ID Id, Value *A, Value *C) {
    return B.CreateBinaryIntrinsic(Id, A, C);
  };
  Value *V = X;
  if (!Saturating) {
    // Modulo: the low bits, or the value extended by its own signedness.
  } else if (Src.Signed) {
    if (!Dst.Signed)
      V = Call(Intrinsic::smax, V, Const(APInt(N, 0)));
    if (M < N) {
      if (Dst.Signed) {
        V = Call(Intrinsic::smax, V, Const(APInt::getSignedMinValue(M).sext(N)));
        V = Call(Intrinsic::smin, V, Const(APInt::getSignedMaxValue(M).sext(N)));
      } else {
        V = Call(Intrinsic::umin, V, Const(APInt::getMaxValue(M).zext(N)));
      }
    }
  } else if (Dst.Signed ? M <= N : M < N) {
    APInt Max = Dst.Signed ? APInt::getSignedMaxValue(M) : APInt::getMaxValue(M);
    V = Call(Intrinsic::umin, V, Const(Max.zext(N)));
  }
  if (M < N)
    return B.CreateTrunc(V, Ty);
  if (M > N)
    return Src.Signed && (Dst.Signed || !Saturating) ? B.CreateSExt(V, Ty)
                                                     : B.CreateZExt(V, Ty);
  return V;
}

} // namespace

PreservedAnalyses SPIRVIntegerConversionsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isDeclaration())
      continue;
    auto Conv = integerConversion(F.getName());
    if (!Conv)
      continue;
    for (User *U : make_early_inc_range(F.users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != &F || Call->arg_size() != 1)
        continue;
      IRBuilder<> B(Call);
      Value *New = convert(B, Call->getArgOperand(0), Conv->Src, Conv->Dst, Conv->Saturating,
                           Call->getType());
      if (New != Call->getArgOperand(0) && isa<Instruction>(New))
        New->takeName(Call);
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace skmd
