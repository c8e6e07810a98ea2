//===- SharedObject.cpp - Loading the x86 variant from memory -------------===//
#include "devices/cpu/SharedObject.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace skmd {

namespace {

/// Kernels' math may call glibc's scalar and vector math (libm, libmvec);
/// loading both globally once lets every variant resolve them.
void loadMathLibraries() {
  static const bool Loaded = [] {
    dlopen("libm.so.6", RTLD_NOW | RTLD_GLOBAL);
    dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL);
    return true;
  }();
  (void)Loaded;
}

} // namespace

Result<SharedObject> SharedObject::load(std::string_view Image) {
  loadMathLibraries();
  int Fd = memfd_create("skmd-x86-variant", MFD_CLOEXEC);
  if (Fd < 0)
    return Failure(ErrorCode::IOError, std::string("memfd_create failed: ") +
                                           std::strerror(errno));
  size_t Done = 0;
  while (Done < Image.size()) {
    ssize_t N = write(Fd, Image.data() + Done, Image.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Saved = errno;
      close(Fd);
      return Failure(ErrorCode::IOError, std::string("cannot stage the x86 "
                                                     "variant: ") +
                                             std::strerror(Saved));
    }
    Done += static_cast<size_t>(N);
  }
  std::string Path = "/proc/self/fd/" + std::to_string(Fd);
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    close(Fd);
    const char *Why = dlerror();
    return Failure(ErrorCode::CorruptBundle,
                   std::string("cannot load the x86 variant: ") +
                       (Why ? Why : "unknown dlopen error"));
  }
  SharedObject S;
  S.Handle = Handle;
  S.Fd = Fd;
  return S;
}

SharedObject::SharedObject(SharedObject &&O) noexcept : Handle(O.Handle), Fd(O.Fd) {
  O.Handle = nullptr;
  O.Fd = -1;
}

SharedObject &SharedObject::operator=(SharedObject &&O) noexcept {
  std::swap(Handle, O.Handle);
  std::swap(Fd, O.Fd);
  return *this;
}

SharedObject::~SharedObject() {
  if (Handle)
    dlclose(Handle);
  if (Fd >= 0)
    close(Fd);
}

Result<void *> SharedObject::symbol(const std::string &Name) const {
  dlerror();
  void *Addr = dlsym(Handle, Name.c_str());
  if (!Addr)
    return Failure(ErrorCode::NotFound,
                   "the x86 variant has no symbol '" + Name + "'");
  return Addr;
}

} // namespace skmd
