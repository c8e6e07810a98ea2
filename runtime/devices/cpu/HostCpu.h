//===- HostCpu.h - Can this CPU run an x86 variant? ---------------*- C++ -*-===//
//
// A bundle's x86 variant is compiled ahead of time for a CPU level
// (x86-64-v3 by default, x86-64-v4 for AVX-512 hosts). Loaded on a CPU
// without an extension it uses, it would die of an illegal instruction in
// the middle of a launch. skmd-cc records the extensions the code may use
// (bundle/X86Features.h); the CPU device checks them against cpuid before
// loading, and refuses the variant naming what is missing.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CPU_HOSTCPU_H
#define SKMD_DEVICES_CPU_HOSTCPU_H

#include "bundle/Bundle.h"
#include "bundle/X86Features.h"
#include "devices/cpu/SharedObject.h"
#include "support/Result.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace skmd {

/// Whether this CPU has \p Feature, one of checkableX86Features().
bool hostHasX86Feature(std::string_view Feature);

/// Those of \p Required that \p HostHas rejects (the host's cpuid when not
/// given), in order.
std::vector<std::string>
missingX86Features(const std::vector<std::string> &Required,
                   const std::function<bool(std::string_view)> &HostHas = {});

/// Loads the bundle's x86 variant, after checking that this CPU has every
/// extension it was compiled to use.
Result<SharedObject> loadX86Variant(const Bundle &B);

} // namespace skmd

#endif // SKMD_DEVICES_CPU_HOSTCPU_H
