//===- OpenCLKernel.cpp - Clang's kernel_arg_* metadata -------------------===//
#include "Support/OpenCLKernel.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace skmd {

namespace {

const MDOperand *argOperand(const Function &F, StringRef Kind, unsigned ArgNo) {
  const MDNode *N = F.getMetadata(Kind);
  if (!N || ArgNo >= N->getNumOperands())
    return nullptr;
  return &N->getOperand(ArgNo);
}

} // namespace

std::string kernelArgName(const Function &F, unsigned ArgNo) {
  if (const MDOperand *Op = argOperand(F, "kernel_arg_name", ArgNo))
    if (const auto *S = dyn_cast<MDString>(*Op))
      return S->getString().str();
  return F.getArg(ArgNo)->getName().str();
}

std::string kernelArgTypeName(const Function &F, unsigned ArgNo) {
  if (const MDOperand *Op = argOperand(F, "kernel_arg_type", ArgNo))
    if (const auto *S = dyn_cast<MDString>(*Op))
      return S->getString().str();
  return "void*";
}

unsigned kernelArgAddressSpace(const Function &F, unsigned ArgNo) {
  if (const MDOperand *Op = argOperand(F, "kernel_arg_addr_space", ArgNo))
    if (const auto *C = mdconst::dyn_extract<ConstantInt>(*Op))
      return C->getZExtValue();
  Type *T = F.getArg(ArgNo)->getType();
  return T->isPointerTy() ? T->getPointerAddressSpace() : 0;
}

bool isSharedBufferArg(const Function &F, unsigned ArgNo) {
  const Argument *A = F.getArg(ArgNo);
  if (!A->getType()->isPointerTy() || A->hasByValAttr())
    return false;
  unsigned AS = kernelArgAddressSpace(F, ArgNo);
  return AS == 1 || AS == 2 || AS == 3;
}

} // namespace skmd
