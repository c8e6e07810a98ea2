//===- HostCpu.cpp - Can this CPU run an x86 variant? ---------------------===//
#include "devices/cpu/HostCpu.h"

namespace skmd {

const std::vector<std::string_view> &checkableX86Features() {
  // What x86-64-v2, v3 and v4 add, as LLVM names them; each is also a name
  // __builtin_cpu_supports knows.
  static const std::vector<std::string_view> Names = {
      "popcnt", "sse4.1", "sse4.2", "avx", "avx2", "fma", "bmi", "bmi2",
      "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"};
  return Names;
}

bool hostHasX86Feature(std::string_view F) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (F == "popcnt") return __builtin_cpu_supports("popcnt");
  if (F == "sse4.1") return __builtin_cpu_supports("sse4.1");
  if (F == "sse4.2") return __builtin_cpu_supports("sse4.2");
  if (F == "avx") return __builtin_cpu_supports("avx");
  if (F == "avx2") return __builtin_cpu_supports("avx2");
  if (F == "fma") return __builtin_cpu_supports("fma");
  if (F == "bmi") return __builtin_cpu_supports("bmi");
  if (F == "bmi2") return __builtin_cpu_supports("bmi2");
  if (F == "avx512f") return __builtin_cpu_supports("avx512f");
  if (F == "avx512bw") return __builtin_cpu_supports("avx512bw");
  if (F == "avx512cd") return __builtin_cpu_supports("avx512cd");
  if (F == "avx512dq") return __builtin_cpu_supports("avx512dq");
  if (F == "avx512vl") return __builtin_cpu_supports("avx512vl");
#endif
  return false;
}

std::vector<std::string>
missingX86Features(const std::vector<std::string> &Required,
                   const std::function<bool(std::string_view)> &HostHas) {
  std::vector<std::string> Missing;
  for (const std::string &F : Required)
    if (!(HostHas ? HostHas(F) : hostHasX86Feature(F)))
      Missing.push_back(F);
  return Missing;
}

Result<SharedObject> loadX86Variant(const Bundle &B) {
  const TargetInfo *T = B.metadata().findTarget(TargetKind::X86);
  if (!T)
    return Failure(ErrorCode::InvalidArgument,
                   "the bundle has no x86 variant (compile it with "
                   "--targets including x86)");
  std::vector<std::string> Missing = missingX86Features(T->Features);
  if (!Missing.empty()) {
    std::string Names;
    for (const std::string &F : Missing)
      Names += (Names.empty() ? "" : ", ") + F;
    return Failure(ErrorCode::UnsupportedHost,
                   "the bundle's x86 variant was compiled for " + T->Cpu +
                       " and uses " + Names +
                       ", which this CPU lacks; compile it for an older "
                       "level (skmd-cc --x86-cpu=x86-64-v3 or x86-64-v2)");
  }
  return SharedObject::load(B.variant(TargetKind::X86));
}

} // namespace skmd
