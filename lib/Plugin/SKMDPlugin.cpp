//===- SKMDPlugin.cpp - Registers SKMD's passes with the pass builder ------===//
//
// The same registration serves opt (through the plugin entry point) and
// skmd-cc (through registerSKMDPasses), so every pass has one name in both.
//
//===----------------------------------------------------------------------===//
#include "Plugin/SKMDPlugin.h"

#include "Analysis/AccessFootprint.h"
#include "Analysis/KernelArgAccess.h"
#include "Analysis/Partitionability.h"
#include "Analysis/WorkItemUniformity.h"
#include "Transforms/AsyncCopyLowering.h"
#include "Transforms/CpuDispatch.h"
#include "Transforms/ImplicitLoopBarriers.h"
#include "Transforms/KernelBodyInlining.h"
#include "Transforms/LockstepBarriers.h"
#include "Transforms/MergeKernel.h"
#include "Transforms/PartitionReadyKernel.h"
#include "Transforms/PrivateOutArguments.h"
#include "Transforms/SPIRVAnyAll.h"
#include "Transforms/SPIRVIntegerConversions.h"
#include "Transforms/SPIRVVectorSelects.h"
#include "Transforms/X86BufferAlignment.h"
#include "Transforms/WorkGroupFunction.h"
#include "Transforms/WorkItemLoopVersioning.h"
#include "Transforms/WorkItemScalarizer.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

namespace skmd {

void registerSKMDPasses(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
#define MODULE_ANALYSIS(NAME, CREATE) MAM.registerPass([] { return CREATE; });
#include "Plugin/PassRegistry.def"
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define MODULE_PASS(NAME, CREATE)                                              \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define MODULE_PASS_WITH_PARAMS(NAME, CREATE, PARSER)                          \
  if (PassBuilder::checkParametrizedPassName(Name, NAME)) {                    \
    auto Params = PassBuilder::parsePassParameters(PARSER, Name, NAME);        \
    if (!Params) {                                                             \
      errs() << toString(Params.takeError()) << '\n';                          \
      return false;                                                            \
    }                                                                          \
    MPM.addPass(CREATE(*Params));                                              \
    return true;                                                               \
  }
#include "Plugin/PassRegistry.def"
        return false;
      });
}

} // namespace skmd

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SKMDPasses", "0.1.0",
          skmd::registerSKMDPasses};
}
