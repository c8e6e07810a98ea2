//===- HostCpu.cpp - Can this CPU run an x86 variant? ---------------------===//
#include "devices/cpu/HostCpu.h"

namespace skmd {

bool hostHasX86Feature(std::string_view F) {
#if defined(__x86_64__)
  __builtin_cpu_init();
#define SKMD_CHECK(N)                                                          \
  if (F == N)                                                                  \
    return __builtin_cpu_supports(N);
  SKMD_CHECKABLE_X86_FEATURES(SKMD_CHECK)
#undef SKMD_CHECK
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
