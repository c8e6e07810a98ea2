//===- Atomics.h - Atomic operations on memory, and which commute -*- C++ -*-===//
//
// OpenCL's atomics reach the IR as atomicrmw/cmpxchg instructions or, before
// the builtins are linked, as calls (atomic_add, atom_inc, atomic_fetch_or,
// ...). The partitionability analysis and the merge kernel ask the same two
// questions of them: is this an atomic operation on memory, and is it a
// commutative integer update whose copies per device can be combined.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_ATOMICS_H
#define SKMD_SUPPORT_ATOMICS_H

#include "bundle/Metadata.h"

#include "llvm/IR/Instruction.h"

#include <optional>
#include <string>

namespace skmd {

/// The pointer an atomic operation updates, or null if \p I is none.
const llvm::Value *atomicPointer(const llvm::Instruction &I);

/// What the operation is, for messages ("atomicrmw add", "atomic_inc(...)").
std::string describeAtomic(const llvm::Instruction &I);

/// How \p I combines if it is a commutative integer update (add, sub, inc,
/// dec, and, or, xor, min, max); none for exchanges, compare-exchanges,
/// loads, stores and floating point.
std::optional<CombineOp> commutativeAtomic(const llvm::Instruction &I);

} // namespace skmd

#endif // SKMD_SUPPORT_ATOMICS_H
