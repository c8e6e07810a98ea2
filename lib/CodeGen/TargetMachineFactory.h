//===- TargetMachineFactory.h - One TargetMachine per SKMD target -*- C++ -*-===//
#ifndef SKMD_CODEGEN_TARGETMACHINEFACTORY_H
#define SKMD_CODEGEN_TARGETMACHINEFACTORY_H

#include "bundle/Metadata.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace skmd {

/// Where each target's code runs and what it is compiled for.
struct TargetChoice {
  TargetKind Kind;
  std::string Triple;
  std::string Cpu;
};

/// The triple the frontend compiles for and the CPU/SM the code is tuned
/// for. \p Cpu overrides the default (x86: x86-64-v3; ptx: sm_90).
TargetChoice chooseTarget(TargetKind Kind, const std::string &Cpu = "");

/// Registers the LLVM targets SKMD uses; safe to call more than once.
void initializeTargets();

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetChoice &Target, unsigned OptLevel);

/// The x86 extensions \p TM's code may use, among those the runtime can
/// test on a host (runtime/devices/cpu/HostCpu.h); empty for other targets.
std::vector<std::string> checkableCpuFeatures(const llvm::TargetMachine &TM);

/// Runs the backend and returns the object (x86, SPIR-V) or assembly (PTX
/// text, x86 asm) it produced.
llvm::Expected<std::string> emitWithBackend(llvm::Module &M,
                                            llvm::TargetMachine &TM,
                                            llvm::CodeGenFileType Type);

} // namespace skmd

#endif // SKMD_CODEGEN_TARGETMACHINEFACTORY_H
