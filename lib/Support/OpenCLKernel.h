//===- OpenCLKernel.h - Recognizing kernel entry points ----------*- C++ -*-===//
#ifndef SKMD_SUPPORT_OPENCLKERNEL_H
#define SKMD_SUPPORT_OPENCLKERNEL_H

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"

namespace skmd {

/// Clang gives OpenCL kernels the SPIR kernel calling convention on x86 and
/// SPIR-V, and the PTX kernel convention on NVPTX. The helper it emits beside
/// each kernel (__clang_ocl_kern_imp_*) is an ordinary function.
inline bool isOpenCLKernel(const llvm::Function &F) {
  return !F.isDeclaration() &&
         (F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
          F.getCallingConv() == llvm::CallingConv::PTX_Kernel);
}

} // namespace skmd

#endif // SKMD_SUPPORT_OPENCLKERNEL_H
