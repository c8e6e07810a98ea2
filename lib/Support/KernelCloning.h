//===- KernelCloning.h - Kernel variants with extra arguments ----*- C++ -*-===//
//
// SKMD's variants (partition-ready, guard, merge) are clones of a kernel with
// arguments appended. Cloning keeps the kernel's calling convention and
// attributes and extends Clang's kernel_arg_* metadata, which the SPIR-V
// backend and SKMD's own analyses read per argument.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_KERNELCLONING_H
#define SKMD_SUPPORT_KERNELCLONING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

#include <string>
#include <vector>

namespace skmd {

/// One appended argument.
struct ExtraArg {
  llvm::Type *Ty;
  std::string Name;
  /// OpenCL address space (SPIR numbering) for kernel_arg_addr_space.
  unsigned OpenCLAddressSpace = 0;
  /// OpenCL type name for kernel_arg_type, e.g. "ulong" or "float*".
  std::string TypeName;
};

/// The role a function plays, recorded as the "skmd-role" attribute.
inline constexpr const char *RoleAttr = "skmd-role";
/// The original kernel's name, recorded as "skmd-kernel" on each variant.
inline constexpr const char *OriginAttr = "skmd-kernel";

/// Set on an original kernel by a transform that could not make a variant
/// of it; the value says why. The partitionability analysis reports it.
inline constexpr const char *UnpartitionableAttr = "skmd-unpartitionable";
/// Set on an original kernel whose merge kernel could not be built; the
/// value says why. It matters only where a written buffer needs a merge:
/// one the analysis cannot describe (then the kernel cannot be split), or
/// one whose pieces' writes meet in a launch (the runtime refuses that
/// split).
inline constexpr const char *NoMergeAttr = "skmd-no-merge";

/// Clones \p Kernel as \p NewName with \p Extra appended to its arguments,
/// marks it with \p Role, and returns it. The clone is a kernel too.
llvm::Function *cloneKernelWithExtraArgs(llvm::Function &Kernel,
                                         llvm::StringRef NewName,
                                         llvm::ArrayRef<ExtraArg> Extra,
                                         llvm::StringRef Role);

/// Whether \p F is a kernel written by the user (not an SKMD variant).
bool isOriginalKernel(const llvm::Function &F);

/// The variant of \p Kernel with role \p Role, if the module has one.
llvm::Function *findVariant(llvm::Module &M, const llvm::Function &Kernel,
                            llvm::StringRef Role);

/// Inlines every call to a function with a body, repeatedly, so that no
/// helper is left (OpenCL forbids recursion). Returns false, leaving the
/// function valid, if some call could not be inlined.
bool inlineAllCalls(llvm::Function &F);

} // namespace skmd

#endif // SKMD_SUPPORT_KERNELCLONING_H
