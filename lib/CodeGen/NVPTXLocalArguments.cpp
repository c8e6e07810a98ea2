//===- NVPTXLocalArguments.cpp - __local arguments in dynamic shared memory -===//
#include "CodeGen/NVPTXLocalArguments.h"
#include "Support/OpenCLKernel.h"
#include "support/DeviceFeatures.h"

#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace skmd {

namespace {
/// NVPTX's shared address space, OpenCL's __local.
constexpr unsigned SharedAddressSpace = 3;
} // namespace

void addressLocalArgumentsFromDynamicShared(Module &M) {
  LLVMContext &Ctx = M.getContext();
  GlobalVariable *Dynamic = nullptr;
  for (Function &F : M) {
    if (!isOpenCLKernel(F))
      continue;
    for (Argument &A : F.args()) {
      auto *PT = dyn_cast<PointerType>(A.getType());
      if (!PT || PT->getAddressSpace() != SharedAddressSpace || A.use_empty())
        continue;
      if (!Dynamic) {
        Dynamic = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), 0),
                                     /*isConstant=*/false, GlobalValue::ExternalLinkage,
                                     nullptr, DynamicSharedName, nullptr,
                                     GlobalValue::NotThreadLocal, SharedAddressSpace);
        Dynamic->setAlignment(Align(LocalArgumentAlignment));
      }
      IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
      Value *Offset = B.CreatePtrToInt(&A, B.getInt64Ty(), A.getName() + ".offset");
      Value *At = B.CreateGEP(B.getInt8Ty(), Dynamic, Offset, A.getName() + ".shared");
      A.replaceUsesWithIf(At, [&](Use &U) { return U.getUser() != Offset; });
    }
  }
}

} // namespace skmd
