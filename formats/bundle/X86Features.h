//===- X86Features.h - The x86 extensions a bundle may name -------*- C++ -*-===//
//
// A bundle's x86 variant is compiled ahead of time for a CPU level
// (x86-64-v3 by default, x86-64-v4 for AVX-512 hosts). skmd-cc records, in
// the metadata's target, the extensions from this list that the code may
// use; the runtime's CPU device checks them against cpuid before loading
// (devices/cpu/HostCpu.h). The list is the contract between the two.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUNDLE_X86FEATURES_H
#define SKMD_BUNDLE_X86FEATURES_H

#include <string_view>
#include <vector>

/// What x86-64-v2, v3 and v4 add, as LLVM names them; each is also a name
/// __builtin_cpu_supports knows (it takes only string literals, hence a
/// list to expand).
#define SKMD_CHECKABLE_X86_FEATURES(X)                                         \
  X("popcnt") X("sse4.1") X("sse4.2") X("avx") X("avx2") X("fma") X("bmi")     \
  X("bmi2") X("avx512f") X("avx512bw") X("avx512cd") X("avx512dq")             \
  X("avx512vl")

namespace skmd {

/// The x86 extensions (LLVM's names) that the host check understands.
const std::vector<std::string_view> &checkableX86Features();

} // namespace skmd

#endif // SKMD_BUNDLE_X86FEATURES_H
