//===- OpenCLKernel.h - Recognizing kernel entry points ----------*- C++ -*-===//
#ifndef SKMD_SUPPORT_OPENCLKERNEL_H
#define SKMD_SUPPORT_OPENCLKERNEL_H

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

#include <string>

namespace skmd {

/// Clang gives OpenCL kernels the SPIR kernel calling convention on x86 and
/// SPIR-V, and the PTX kernel convention on NVPTX. The helper it emits beside
/// each kernel (__clang_ocl_kern_imp_*) is an ordinary function.
inline bool isOpenCLKernel(const llvm::Function &F) {
  return !F.isDeclaration() &&
         (F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
          F.getCallingConv() == llvm::CallingConv::PTX_Kernel);
}

/// A kernel's __local variable on x86, where Clang emits it as an internal,
/// uninitialized global of the one address space.
inline bool isLocalVariable(const llvm::GlobalVariable &GV) {
  return !GV.isConstant() && GV.hasLocalLinkage() && GV.hasInitializer() &&
         llvm::isa<llvm::UndefValue>(GV.getInitializer());
}

/// From Clang's kernel_arg_* metadata, which -cl-kernel-arg-info adds: an
/// argument's name (else its IR name), its type as written (else "void*"),
/// and its OpenCL address space in SPIR numbering (0 private, 1 global,
/// 2 constant, 3 local, 4 generic) on every target, where x86 IR itself has
/// only one (else the IR's).
std::string kernelArgName(const llvm::Function &F, unsigned ArgNo);
std::string kernelArgTypeName(const llvm::Function &F, unsigned ArgNo);
unsigned kernelArgAddressSpace(const llvm::Function &F, unsigned ArgNo);
/// Whether argument \p ArgNo of \p F points to a buffer every work-item of a
/// group sees alike: __global, __constant or __local (not a struct passed
/// by value, which is each work-item's own).
bool isSharedBufferArg(const llvm::Function &F, unsigned ArgNo);

} // namespace skmd

#endif // SKMD_SUPPORT_OPENCLKERNEL_H
