//===- SPIRVBackendLimits.cpp - What LLVM 22's SPIR-V backend cannot take -===//
#include "CodeGen/SPIRVBackendLimits.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skmd {

namespace {

/// Whether \p T holds a zero-length array, through arrays, vectors and
/// struct fields (pointers are opaque: nothing behind them).
bool holdsZeroLengthArray(Type *T, SmallPtrSetImpl<Type *> &Seen) {
  if (!T || !Seen.insert(T).second)
    return false;
  if (auto *A = dyn_cast<ArrayType>(T))
    return A->getNumElements() == 0 || holdsZeroLengthArray(A->getElementType(), Seen);
  if (auto *V = dyn_cast<VectorType>(T))
    return holdsZeroLengthArray(V->getElementType(), Seen);
  if (auto *S = dyn_cast<StructType>(T))
    for (Type *Field : S->elements())
      if (holdsZeroLengthArray(Field, Seen))
        return true;
  return false;
}

/// The first type \p F uses that holds a zero-length array: its signature,
/// its parameters' pointee attributes (byval, byref, sret), and every
/// instruction's result, operands and element types.
Type *zeroLengthArrayIn(const Function &F, SmallPtrSetImpl<Type *> &Seen) {
  auto Check = [&](Type *T) { return holdsZeroLengthArray(T, Seen) ? T : nullptr; };
  if (Type *T = Check(F.getReturnType()))
    return T;
  for (const Argument &A : F.args()) {
    if (Type *T = Check(A.getType()))
      return T;
    if (Type *T = Check(A.getPointeeInMemoryValueType()))
      return T;
  }
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (Type *T = Check(I.getType()))
        return T;
      for (const Value *Op : I.operands())
        if (Type *T = Check(Op->getType()))
          return T;
      if (auto *Alloca = dyn_cast<AllocaInst>(&I))
        if (Type *T = Check(Alloca->getAllocatedType()))
          return T;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
        if (Type *T = Check(GEP->getSourceElementType()))
          return T;
    }
  return nullptr;
}

std::string typeName(Type *T) {
  std::string Name;
  raw_string_ostream OS(Name);
  if (auto *S = dyn_cast<StructType>(T); S && S->hasName())
    OS << S->getName();
  else
    T->print(OS);
  return Name;
}

} // namespace

Error checkSPIRVBackendLimits(const Module &M) {
  if (const Function *Printf = M.getFunction("printf"); Printf && !Printf->use_empty())
    return createStringError(
        Twine(SPIRVVariantUnsupported) +
        "printf (LLVM 22's SPIR-V backend mislowers it); build the x86 and PTX "
        "variants (--targets=x86,ptx)");
  // One set for the module: a type looked at once holds none (the first
  // that did ended the search).
  SmallPtrSet<Type *, 32> Seen;
  for (const GlobalVariable &G : M.globals())
    if (holdsZeroLengthArray(G.getValueType(), Seen))
      return createStringError(Twine(SPIRVVariantUnsupported) +
                               "a zero-length array (in '" + G.getName() + "', of type " +
                               typeName(G.getValueType()) +
                               "); LLVM 22's SPIR-V backend takes none outside shaders; "
                               "build the x86 and PTX variants (--targets=x86,ptx)");
  for (const Function &F : M)
    if (Type *T = zeroLengthArrayIn(F, Seen))
      return createStringError(Twine(SPIRVVariantUnsupported) +
                               "a zero-length array (used by '" + F.getName() + "': " +
                               typeName(T) +
                               "); LLVM 22's SPIR-V backend takes none outside shaders; "
                               "build the x86 and PTX variants (--targets=x86,ptx)");
  return Error::success();
}

} // namespace skmd
