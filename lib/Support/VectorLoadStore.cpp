//===- VectorLoadStore.cpp - OpenCL vloadN / vstoreN calls ----------------===//
#include "Support/VectorLoadStore.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/Regex.h"

#include <string>

using namespace llvm;

namespace skmd {

namespace {

/// Bytes of the element a mangled name's last parameter, a pointer, points
/// to: `PU3AS1Kf` is a const __global float *, 4. Zero if the name does not
/// end in a pointer to a builtin arithmetic type.
uint64_t pointeeBytes(StringRef Name) {
  size_t P = Name.rfind('P');
  if (P == StringRef::npos)
    return 0;
  StringRef Rest = Name.drop_front(P + 1);
  // Vendor qualifiers (the address space, U3AS1 or U8CLglobal), then
  // restrict, volatile and const.
  while (Rest.consume_front("U")) {
    unsigned Length;
    if (Rest.consumeInteger(10, Length) || Rest.size() < Length)
      return 0;
    Rest = Rest.drop_front(Length);
  }
  Rest = Rest.ltrim("rVK");
  if (Rest == "Dh")
    return 2;
  if (Rest.size() != 1)
    return 0;
  switch (Rest[0]) {
  case 'c':
  case 'a':
  case 'h':
    return 1;
  case 's':
  case 't':
    return 2;
  case 'i':
  case 'j':
  case 'f':
    return 4;
  case 'l':
  case 'm':
  case 'x':
  case 'y':
  case 'd':
    return 8;
  default:
    return 0;
  }
}

} // namespace

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
  // (data,) offset, pointer; a load of a vector too wide for registers
  // returns it through a first, sret pointer.
  unsigned First = A.IsStore || Call.hasStructRetAttr() ? 1 : 0;
  if (Call.arg_size() != First + 2)
    return std::nullopt;
  // The element size comes from the pointer's type in the name, not from
  // the data's IR type: the x86-64 ABI passes and returns small vectors
  // as other types (a char3 as an i32, a float2 as a double).
  uint64_t ElemBytes = pointeeBytes(Callee->getName());
  if (ElemBytes == 0)
    return std::nullopt;
  uint64_t Lanes = M[4].empty() ? 1 : std::stoull(M[4].str());
  // vloada_half3/vstorea_half3 step by 4 halves; the others by their lanes.
  uint64_t StrideLanes = (!M[2].empty() && Lanes == 3) ? 4 : Lanes;
  A.Offset = Call.getArgOperand(First);
  A.Pointer = Call.getArgOperand(First + 1);
  A.Stride = StrideLanes * ElemBytes;
  A.Bytes = Lanes * ElemBytes;
  return A;
}

} // namespace skmd
