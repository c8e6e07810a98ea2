//===- TargetMachineFactory.cpp - One TargetMachine per SKMD target -------===//
#include "CodeGen/TargetMachineFactory.h"
#include "bundle/X86Features.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace skmd {

std::vector<std::string> checkableCpuFeatures(const TargetMachine &TM) {
  std::vector<std::string> Features;
  if (!TM.getTargetTriple().isX86())
    return Features;
  const MCSubtargetInfo *STI = TM.getMCSubtargetInfo();
  for (const SubtargetFeatureKV &KV : STI->getAllProcessorFeatures())
    if (STI->getFeatureBits().test(KV.Value) &&
        llvm::is_contained(checkableX86Features(), std::string_view(KV.Key)))
      Features.push_back(KV.Key);
  return Features;
}

TargetChoice chooseTarget(TargetKind Kind, const std::string &Cpu) {
  switch (Kind) {
  case TargetKind::X86:
    // x86-64-v3 (AVX2 + FMA) runs on every server CPU of the last decade,
    // including the GPU hosts; the bundle is built on another machine, so
    // "native" would be the wrong default.
    return {Kind, "x86_64-unknown-linux-gnu", Cpu.empty() ? "x86-64-v3" : Cpu};
  case TargetKind::PTX:
    // sm_90 is Hopper: H100 and H200 both run it natively.
    return {Kind, "nvptx64-nvidia-cuda", Cpu.empty() ? "sm_90" : Cpu};
  case TargetKind::SPIRV:
    // SPIR-V 1.2 is what OpenCL 2.2 consumers take, and every OpenCL 3.0
    // driver that takes SPIR-V at all accepts it.
    return {Kind, "spirv64v1.2-unknown-unknown", ""};
  }
  llvm_unreachable("unknown target kind");
}

void initializeTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    // Inline assembly (the x86 variant's cpuid checks) is parsed again when
    // the object file is written.
    InitializeAllAsmParsers();
  });
}

Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const TargetChoice &Target, unsigned OptLevel) {
  initializeTargets();
  Triple TT(Target.Triple);
  std::string Err;
  const llvm::Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM has no backend for " + Target.Triple +
                                 ": " + Err);
  CodeGenOptLevel Level = OptLevel == 0   ? CodeGenOptLevel::None
                          : OptLevel == 1 ? CodeGenOptLevel::Less
                          : OptLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  llvm::TargetOptions Options;
  // The x86 variant is loaded as a shared object, so it must be PIC.
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, Target.Cpu, /*Features=*/"", Options, Reloc::PIC_, std::nullopt,
      Level));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for " +
                                 Target.Triple + " (cpu '" + Target.Cpu + "')");
  if (!Target.Cpu.empty() && !TM->getMCSubtargetInfo()->isCPUStringValid(Target.Cpu))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Target.Cpu + "' is not a CPU that " +
                                 Target.Triple + " knows");
  return TM;
}

Expected<std::string> emitWithBackend(Module &M, TargetMachine &TM,
                                      CodeGenFileType Type) {
  M.setDataLayout(TM.createDataLayout());
  M.setTargetTriple(TM.getTargetTriple());
  SmallString<0> Buffer;
  raw_svector_ostream OS(Buffer);
  legacy::PassManager PM;
  // Calls the vectorizer made to glibc's vector math stay as they are.
  if (TM.getTargetTriple().isX86())
    PM.add(new TargetLibraryInfoWrapperPass(
        TargetLibraryInfoImpl(TM.getTargetTriple(), VectorLibrary::LIBMVEC)));
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Type))
    return createStringError(inconvertibleErrorCode(),
                             "the " + TM.getTargetTriple().str() +
                                 " backend cannot emit this file type");
  PM.run(M);
  return std::string(Buffer.str());
}

} // namespace skmd
