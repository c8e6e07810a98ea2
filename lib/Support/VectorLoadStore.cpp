//===- VectorLoadStore.cpp - OpenCL vloadN / vstoreN calls ----------------===//
#include "Support/VectorLoadStore.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/Regex.h"

#include <string>

using namespace llvm;

namespace skmd {

std::optional<VectorAccess> asVectorAccess(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  static const Regex Name(
      "^_Z[0-9]+v(load|store)(a?)(_half)?([0-9]*)(_rt[ezpn])?");
  SmallVector<StringRef, 6> M;
  if (!Name.match(Callee->getName(), &M))
    return std::nullopt;
  VectorAccess A;
  A.IsStore = M[1] == "store";
  unsigned First = A.IsStore ? 1 : 0;
  if (Call.arg_size() != First + 2)
    return std::nullopt;
  Type *DataTy = A.IsStore ? Call.getArgOperand(0)->getType() : Call.getType();
  bool Half = !M[3].empty();
  uint64_t Lanes = M[4].empty() ? 1 : std::stoull(M[4].str());
  uint64_t ElemBytes = Half ? 2 : DataTy->getScalarSizeInBits() / 8;
  if (ElemBytes == 0)
    return std::nullopt;
  // vloada_half3/vstorea_half3 step by 4 halves; the others by their lanes.
  uint64_t StrideLanes = (!M[2].empty() && Lanes == 3) ? 4 : Lanes;
  A.Offset = Call.getArgOperand(First);
  A.Pointer = Call.getArgOperand(First + 1);
  A.Stride = StrideLanes * ElemBytes;
  A.Bytes = Lanes * ElemBytes;
  return A;
}

} // namespace skmd
