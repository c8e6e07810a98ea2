//===- SharedObjectLinker.h - x86 object to loadable .so ---------*- C++ -*-===//
//
// The runtime loads the x86 variant with dlopen, so the object file from the
// backend is linked into a shared object. Debian's LLVM ships no lld library,
// so this runs the system linker, as the clang driver does.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_SHAREDOBJECTLINKER_H
#define SKMD_CODEGEN_SHAREDOBJECTLINKER_H

#include "llvm/Support/Error.h"

#include <string>
#include <string_view>

namespace skmd {

/// Links an ELF x86-64 relocatable object into a shared object and returns
/// its bytes. The linker is $SKMD_LINKER, else ld.lld, else ld.
llvm::Expected<std::string> linkSharedObject(std::string_view Object,
                                             bool Verbose);

} // namespace skmd

#endif // SKMD_CODEGEN_SHAREDOBJECTLINKER_H
