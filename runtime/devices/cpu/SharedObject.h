//===- SharedObject.h - Loading the x86 variant from memory ------*- C++ -*-===//
//
// The x86 variant is an ELF shared object inside the bundle. It is loaded
// from an anonymous memory file (memfd), so nothing is written to disk and
// nothing is left behind.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CPU_SHAREDOBJECT_H
#define SKMD_DEVICES_CPU_SHAREDOBJECT_H

#include "support/Result.h"

#include <string>
#include <string_view>

namespace skmd {

class SharedObject {
public:
  /// Loads \p Image; every symbol it needs must resolve now, so a missing
  /// builtin is an error here, not a crash later.
  static Result<SharedObject> load(std::string_view Image);

  SharedObject(SharedObject &&O) noexcept;
  SharedObject &operator=(SharedObject &&O) noexcept;
  SharedObject(const SharedObject &) = delete;
  SharedObject &operator=(const SharedObject &) = delete;
  ~SharedObject();

  /// The address of \p Name, or a Failure naming it.
  Result<void *> symbol(const std::string &Name) const;

private:
  SharedObject() = default;
  void *Handle = nullptr;
  /// The memory file, open while the object is loaded: dlopen knows a
  /// loaded object by its path (/proc/self/fd/N), so a descriptor closed
  /// early lets the next variant get the same path and, from dlopen, the
  /// first variant's handle.
  int Fd = -1;
};

} // namespace skmd

#endif // SKMD_DEVICES_CPU_SHAREDOBJECT_H
