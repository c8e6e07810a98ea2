//===- NVPTXDeviceLibraries.cpp - libclc + libdevice for PTX --------------===//
#include "CodeGen/NVPTXDeviceLibraries.h"

#include "CodeGen/BitcodeLibrary.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Process.h"

#include <vector>

using namespace llvm;

namespace skmd {

Expected<NVPTXLibraryPaths>
findNVPTXLibraries(const std::string &LibclcOverride,
                   const std::string &LibdeviceOverride) {
  std::vector<std::string> LibclcCandidates;
#ifdef SKMD_LIBCLC_DIR
  LibclcCandidates.push_back(SKMD_LIBCLC_DIR "/nvptx64--nvidiacl.bc");
#endif
  LibclcCandidates.push_back("/usr/lib/clc/nvptx64--nvidiacl.bc");

  std::vector<std::string> LibdeviceCandidates;
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (auto Dir = sys::Process::GetEnv(Var))
      LibdeviceCandidates.push_back(*Dir + "/nvvm/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  LibdeviceCandidates.push_back("/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc");

  NVPTXLibraryPaths Paths;
  auto Libclc = findBitcodeLibrary("libclc's nvptx64--nvidiacl.bc", "--libclc",
                                   LibclcOverride, LibclcCandidates,
                                   "Pass --libclc=PATH, or build without PTX "
                                   "(--targets=x86,spirv)");
  if (!Libclc)
    return Libclc.takeError();
  auto Libdevice = findBitcodeLibrary(
      "CUDA libdevice (libdevice.10.bc)", "--libdevice", LibdeviceOverride,
      LibdeviceCandidates,
      "Pass --libdevice=PATH, or build without PTX (--targets=x86,spirv)");
  if (!Libdevice)
    return Libdevice.takeError();
  Paths.Libclc = *Libclc;
  Paths.Libdevice = *Libdevice;
  return Paths;
}

namespace {

/// Math intrinsics the NVPTX back end cannot select (it has no libcalls) or
/// selects only as approximations; libclc emits some (native_log10 is
/// llvm.log10). Each becomes libdevice's accurate function.
constexpr std::pair<Intrinsic::ID, const char *> LibdeviceMath[] = {
    {Intrinsic::exp, "exp"},     {Intrinsic::exp2, "exp2"},
    {Intrinsic::exp10, "exp10"}, {Intrinsic::log, "log"},
    {Intrinsic::log2, "log2"},   {Intrinsic::log10, "log10"},
    {Intrinsic::sin, "sin"},     {Intrinsic::cos, "cos"},
    {Intrinsic::tan, "tan"},     {Intrinsic::asin, "asin"},
    {Intrinsic::acos, "acos"},   {Intrinsic::atan, "atan"},
    {Intrinsic::sinh, "sinh"},   {Intrinsic::cosh, "cosh"},
    {Intrinsic::tanh, "tanh"},   {Intrinsic::pow, "pow"},
    {Intrinsic::atan2, "atan2"}};

/// Calls libdevice's __nv_<Name>[f] for each lane of \p Call's operands.
Value *callLibdevicePerLane(CallInst &Call, StringRef Name) {
  Module &M = *Call.getModule();
  Type *Ty = Call.getType();
  Type *Elt = Ty->getScalarType();
  std::string Callee =
      ("__nv_" + Name + (Elt->isFloatTy() ? "f" : "")).str();
  SmallVector<Type *, 2> Params(Call.arg_size(), Elt);
  FunctionCallee F = M.getOrInsertFunction(
      Callee, FunctionType::get(Elt, Params, false));
  IRBuilder<> B(&Call);
  auto *VT = dyn_cast<FixedVectorType>(Ty);
  if (!VT) {
    SmallVector<Value *, 2> Args(Call.args());
    return B.CreateCall(F, Args);
  }
  Value *Result = PoisonValue::get(Ty);
  for (unsigned Lane = 0; Lane < VT->getNumElements(); ++Lane) {
    SmallVector<Value *, 2> Args;
    for (Value *A : Call.args())
      Args.push_back(B.CreateExtractElement(A, Lane));
    Result = B.CreateInsertElement(Result, B.CreateCall(F, Args), Lane);
  }
  return Result;
}

void lowerMathIntrinsicsToLibdevice(Module &M) {
  for (auto [ID, Name] : LibdeviceMath)
    for (Function &F : M)
      if (F.getIntrinsicID() == ID &&
          (F.getReturnType()->getScalarType()->isFloatTy() ||
           F.getReturnType()->getScalarType()->isDoubleTy()))
        for (User *U : make_early_inc_range(F.users()))
          if (auto *Call = dyn_cast<CallInst>(U)) {
            Call->replaceAllUsesWith(callLibdevicePerLane(*Call, Name));
            Call->eraseFromParent();
          }
}

} // namespace

Error linkNVPTXLibraries(Module &M, const NVPTXLibraryPaths &Paths) {
  // libdevice reads this through __nvvm_reflect: keep denormals, since
  // OpenCL's full profile does not let single precision flush them.
  if (!M.getModuleFlag("nvvm-reflect-ftz"))
    M.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));

  // libclc first: its functions, and the intrinsics it and the kernels
  // use that become libdevice calls, are what pull in libdevice's.
  if (Error E = linkBitcodeLibrary(M, Paths.Libclc))
    return E;
  lowerMathIntrinsicsToLibdevice(M);
  return linkBitcodeLibrary(M, Paths.Libdevice);
}

} // namespace skmd
