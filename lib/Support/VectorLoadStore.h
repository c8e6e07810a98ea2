//===- VectorLoadStore.h - OpenCL vloadN / vstoreN calls ---------*- C++ -*-===//
//
// vloadN(offset, p) and vstoreN(data, offset, p) reach SKMD's passes as calls
// to their mangled names. They touch Bytes bytes at p + offset * Stride.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_VECTORLOADSTORE_H
#define SKMD_SUPPORT_VECTORLOADSTORE_H

#include "llvm/IR/InstrTypes.h"

#include <optional>

namespace skmd {

struct VectorAccess {
  bool IsStore = false;
  llvm::Value *Offset = nullptr;
  llvm::Value *Pointer = nullptr;
  uint64_t Stride = 0; ///< Bytes per unit of Offset.
  uint64_t Bytes = 0;
};

/// The access a vload/vstore builtin call makes, if \p Call is one.
std::optional<VectorAccess> asVectorAccess(const llvm::CallBase &Call);

} // namespace skmd

#endif // SKMD_SUPPORT_VECTORLOADSTORE_H
