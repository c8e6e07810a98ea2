//===- CpuDispatch.cpp - One x86 variant, the best code for each host -----===//
#include "Transforms/CpuDispatch.h"
#include "Transforms/WorkGroupFunction.h"

#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace skmd {

namespace {

/// cpuid(Leaf, 0) as {eax, ebx, ecx, edx}.
Value *cpuid(IRBuilder<> &B, uint32_t Leaf) {
  Type *I32 = B.getInt32Ty();
  auto *Ty = FunctionType::get(StructType::get(I32, I32, I32, I32), {I32, I32},
                               false);
  InlineAsm *Asm = InlineAsm::get(
      Ty, "cpuid", "={ax},={bx},={cx},={dx},0,2,~{dirflag},~{fpsr},~{flags}",
      /*hasSideEffects=*/false);
  return B.CreateCall(Asm, {B.getInt32(Leaf), B.getInt32(0)});
}

/// Whether every bit of \p Mask is set in \p V.
Value *hasAll(IRBuilder<> &B, Value *V, uint32_t Mask) {
  return B.CreateICmpEQ(B.CreateAnd(V, Mask), B.getInt32(Mask));
}

/// bool skmd.cpu.has_avx512(): the CPU has AVX-512 F, CD, BW, DQ and VL
/// (what x86-64-v4 code uses) and the OS saves their registers.
Function *avx512Check(Module &M) {
  const char *Name = "skmd.cpu.has_avx512";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Function *F = Function::Create(FunctionType::get(Type::getInt1Ty(C), false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *HasXSave = BasicBlock::Create(C, "has_xsave", F);
  auto *OsSaves = BasicBlock::Create(C, "os_saves_zmm", F);
  auto *No = BasicBlock::Create(C, "no", F);
  IRBuilder<> B(Entry);
  // Leaf 7 must exist, and OSXSAVE (leaf 1, ecx bit 27) say xgetbv works.
  Value *MaxLeaf = B.CreateExtractValue(cpuid(B, 0), 0);
  Value *Ecx1 = B.CreateExtractValue(cpuid(B, 1), 2);
  B.CreateCondBr(B.CreateAnd(B.CreateICmpUGE(MaxLeaf, B.getInt32(7)),
                             hasAll(B, Ecx1, 1u << 27)),
                 HasXSave, No);
  B.SetInsertPoint(HasXSave);
  Type *I32 = B.getInt32Ty();
  InlineAsm *XGetBV = InlineAsm::get(
      FunctionType::get(StructType::get(I32, I32), {I32}, false), "xgetbv",
      "={ax},={dx},{cx},~{dirflag},~{fpsr},~{flags}", /*hasSideEffects=*/true);
  Value *Xcr0 = B.CreateExtractValue(B.CreateCall(XGetBV, {B.getInt32(0)}), 0);
  // XMM, YMM, opmask, upper ZMM halves and ZMM16-31 state enabled.
  B.CreateCondBr(hasAll(B, Xcr0, 0xE6), OsSaves, No);
  B.SetInsertPoint(OsSaves);
  Value *Ebx7 = B.CreateExtractValue(cpuid(B, 7), 1);
  // AVX512F (16), DQ (17), CD (28), BW (30), VL (31).
  B.CreateRet(hasAll(B, Ebx7, (1u << 16) | (1u << 17) | (1u << 28) |
                                  (1u << 30) | (1u << 31)));
  B.SetInsertPoint(No);
  B.CreateRet(B.getFalse());
  return F;
}

void dispatch(Function &Baseline) {
  Module &M = *Baseline.getParent();
  std::string Name = Baseline.getName().str();
  // Both bodies stay external until the variant keeps only the work-group
  // functions (after optimization): as internal functions the optimizer
  // would treat them differently from the functions they replace.
  Baseline.setName(Name + ".baseline");
  ValueToValueMapTy VMap;
  Function *Wide = CloneFunction(&Baseline, VMap);
  Wide->setName(Name + "." + DispatchCpu);
  Wide->removeFnAttr("target-features");
  Wide->addFnAttr("target-cpu", DispatchCpu);
  // AVX-512 makes scattered stores legal, and the vectorizer's cost model
  // takes them for cheap; on the hosts we measured they are not (one
  // scattered lane at a time, in order): with them the Intel Xeon of the
  // H200 hosts ran n-body, Mersenne twister, reduction, scan and binomial
  // option 10-20% slower on the CPU alone, and this VM's AMD EPYC the
  // reduction 40% slower. Gathers stay: without them the tiled matmul ran
  // 38% slower on that Xeon.
  Wide->addFnAttr("target-features", "+prefer-no-scatter");

  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  Function *Resolver =
      Function::Create(FunctionType::get(Ptr, false),
                       GlobalValue::InternalLinkage, Name + ".resolver", M);
  Resolver->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Resolver));
  B.CreateRet(B.CreateSelect(B.CreateCall(avx512Check(M)), Wide, &Baseline));
  GlobalIFunc::create(Baseline.getFunctionType(), 0,
                      GlobalValue::ExternalLinkage, Name, Resolver, &M);
}

} // namespace

PreservedAnalyses CpuDispatchPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> WorkGroupFunctions;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().ends_with(WorkGroupFunctionSuffix))
      WorkGroupFunctions.push_back(&F);
  for (Function *F : WorkGroupFunctions)
    dispatch(*F);
  return WorkGroupFunctions.empty() ? PreservedAnalyses::all()
                                    : PreservedAnalyses::none();
}

} // namespace skmd
