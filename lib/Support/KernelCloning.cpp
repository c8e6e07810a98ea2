//===- KernelCloning.cpp - Kernel variants with extra arguments -----------===//
#include "Support/KernelCloning.h"
#include "Support/OpenCLKernel.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace skmd {

namespace {

/// Appends one operand per extra argument to each kernel_arg_* list.
void extendArgMetadata(Function &Clone, ArrayRef<ExtraArg> Extra) {
  LLVMContext &Ctx = Clone.getContext();
  auto Extend = [&](StringRef Kind, auto MakeOperand) {
    MDNode *Old = Clone.getMetadata(Kind);
    if (!Old)
      return;
    SmallVector<Metadata *, 8> Ops(Old->op_begin(), Old->op_end());
    for (const ExtraArg &A : Extra)
      Ops.push_back(MakeOperand(A));
    Clone.setMetadata(Kind, MDNode::get(Ctx, Ops));
  };
  Extend("kernel_arg_addr_space", [&](const ExtraArg &A) -> Metadata * {
    return ConstantAsMetadata::get(
        ConstantInt::get(Type::getInt32Ty(Ctx), A.OpenCLAddressSpace));
  });
  Extend("kernel_arg_access_qual",
         [&](const ExtraArg &) -> Metadata * { return MDString::get(Ctx, "none"); });
  Extend("kernel_arg_type", [&](const ExtraArg &A) -> Metadata * {
    return MDString::get(Ctx, A.TypeName);
  });
  Extend("kernel_arg_base_type", [&](const ExtraArg &A) -> Metadata * {
    return MDString::get(Ctx, A.TypeName);
  });
  Extend("kernel_arg_type_qual",
         [&](const ExtraArg &) -> Metadata * { return MDString::get(Ctx, ""); });
  Extend("kernel_arg_name", [&](const ExtraArg &A) -> Metadata * {
    return MDString::get(Ctx, A.Name);
  });
}

} // namespace

Function *cloneKernelWithExtraArgs(Function &Kernel, StringRef NewName,
                                   ArrayRef<ExtraArg> Extra, StringRef Role) {
  FunctionType *OldTy = Kernel.getFunctionType();
  SmallVector<Type *, 16> Params(OldTy->param_begin(), OldTy->param_end());
  for (const ExtraArg &A : Extra)
    Params.push_back(A.Ty);
  FunctionType *NewTy =
      FunctionType::get(OldTy->getReturnType(), Params, OldTy->isVarArg());

  Function *Clone = Function::Create(NewTy, Kernel.getLinkage(),
                                     Kernel.getAddressSpace(), NewName,
                                     Kernel.getParent());
  ValueToValueMapTy VMap;
  for (auto [Old, New] : zip(Kernel.args(), Clone->args())) {
    New.setName(Old.getName());
    VMap[&Old] = &New;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Clone, &Kernel, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Clone->setCallingConv(Kernel.getCallingConv());
  for (size_t I = 0; I < Extra.size(); ++I)
    Clone->getArg(OldTy->getNumParams() + I)->setName(Extra[I].Name);
  extendArgMetadata(*Clone, Extra);
  Clone->addFnAttr(RoleAttr, Role);
  Clone->addFnAttr(OriginAttr, Kernel.getName());
  return Clone;
}

bool isOriginalKernel(const Function &F) {
  return isOpenCLKernel(F) && !F.hasFnAttribute(RoleAttr);
}

Function *findVariant(Module &M, const Function &Kernel, StringRef Role) {
  for (Function &F : M)
    if (F.getFnAttribute(RoleAttr).getValueAsString() == Role &&
        F.getFnAttribute(OriginAttr).getValueAsString() == Kernel.getName())
      return &F;
  return nullptr;
}

bool inlineAllCalls(Function &F) {
  // OpenCL C has no recursion, so this ends; the bound only guards against
  // IR from elsewhere.
  for (unsigned Round = 0; Round < 64; ++Round) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != &F)
            Calls.push_back(CB);
    if (Calls.empty())
      return true;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      if (!InlineFunction(*CB, IFI).isSuccess())
        return false;
    }
  }
  return false;
}

} // namespace skmd
