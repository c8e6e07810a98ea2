//===- X86Features.cpp - The x86 extensions a bundle may name -------------===//
#include "bundle/X86Features.h"

namespace skmd {

const std::vector<std::string_view> &checkableX86Features() {
#define SKMD_NAME(N) N,
  static const std::vector<std::string_view> Names = {
      SKMD_CHECKABLE_X86_FEATURES(SKMD_NAME)};
#undef SKMD_NAME
  return Names;
}

} // namespace skmd
