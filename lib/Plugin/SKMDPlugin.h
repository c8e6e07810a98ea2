//===- SKMDPlugin.h - Registers SKMD's passes ---------------------*- C++ -*-===//
#ifndef SKMD_PLUGIN_SKMDPLUGIN_H
#define SKMD_PLUGIN_SKMDPLUGIN_H

namespace llvm {
class PassBuilder;
}

namespace skmd {
/// Makes every pass in PassRegistry.def parseable by name in \p PB.
void registerSKMDPasses(llvm::PassBuilder &PB);
} // namespace skmd

#endif // SKMD_PLUGIN_SKMDPLUGIN_H
