//===- DynamicLibrary.h - A driver library opened at run time ---*- C++ -*-===//
//
// The CUDA driver and the OpenCL ICD loader are opened with dlopen, so
// that libskmd builds and runs on machines without them. Each fills a
// table of entry points from its library; the first one missing is the
// error, with a hint of why (a driver older than SKMD needs).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_DYNAMICLIBRARY_H
#define SKMD_SUPPORT_DYNAMICLIBRARY_H

#include <dlfcn.h>
#include <string>
#include <type_traits>

namespace skmd {

class DynamicLibrary {
public:
  /// Opens \p File (RTLD_NOW | RTLD_LOCAL), which stays loaded for the
  /// process. Errors read "no <What> (<dlerror>)" and "<File> lacks
  /// <symbol> (<TooOld>)".
  DynamicLibrary(const char *File, const char *What, const char *TooOld)
      : File(File), TooOld(TooOld), Handle(dlopen(File, RTLD_NOW | RTLD_LOCAL)) {
    if (!Handle) {
      const char *Why = dlerror();
      Error = std::string("no ") + What + " (" + (Why ? Why : File) + ")";
    }
  }

  /// Points \p Slot at the library's \p Symbol (null if missing).
  template <typename F> void get(F &Slot, const char *Symbol) {
    Slot = Handle ? reinterpret_cast<std::remove_reference_t<F>>(dlsym(Handle, Symbol)) : nullptr;
    if (!Slot && Error.empty())
      Error = File + " lacks " + Symbol + " (" + TooOld + ")";
  }

  /// Whether it opened and had every symbol asked for so far.
  bool ok() const { return Error.empty(); }
  const std::string &error() const { return Error; }

private:
  std::string File, TooOld, Error;
  void *Handle;
};

} // namespace skmd

#endif // SKMD_SUPPORT_DYNAMICLIBRARY_H
