//===- skmd.hpp - A thin C++ layer over skmd.h ------------------*- C++ -*-===//
//
// Owning handles and exceptions over the C API; nothing more.
//
//   skmd::Context Ctx;                          // every device found
//   skmd::Program Prog = Ctx.load("vector_add.skmd");
//   skmd::Kernel K = Prog.kernel("vector_add");
//   K.arg(0, Ctx.wrap(A)).arg(1, Ctx.wrap(B)).arg(2, Ctx.wrap(C)).arg(3, n);
//   skmd_launch_report R = K.launch({n}, {256}, "even");
//
// A failure throws skmd::Error, which carries the status and the message;
// with SKMD_ERROR_DEVICE_FAILED the outputs are complete nevertheless.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SKMD_HPP
#define SKMD_SKMD_HPP

#include "skmd/skmd.h"

#include <stdexcept>
#include <type_traits>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace skmd {

class Error : public std::runtime_error {
public:
  Error(skmd_status Status, const std::string &Message)
      : std::runtime_error(Message), Code(Status) {}
  skmd_status status() const { return Code; }

private:
  skmd_status Code;
};

namespace detail {
inline void check(skmd_status S) {
  if (S != SKMD_SUCCESS)
    throw Error(S, std::string(skmd_status_name(S)) + ": " + skmd_last_error());
}

/// A moveable owner of a C handle.
template <typename H, void (*Release)(H)> class Handle {
public:
  Handle() = default;
  explicit Handle(H Raw) : Raw(Raw) {}
  Handle(Handle &&O) noexcept : Raw(std::exchange(O.Raw, nullptr)) {}
  Handle &operator=(Handle &&O) noexcept {
    std::swap(Raw, O.Raw);
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() {
    if (Raw)
      Release(Raw);
  }
  H get() const { return Raw; }

private:
  H Raw = nullptr;
};
} // namespace detail

class Buffer : public detail::Handle<skmd_buffer, skmd_release_buffer> {
public:
  using Handle::Handle;
  /// A buffer of SKMD's own (Context::create): its bytes, after the
  /// launches made before, brought back from where they are current.
  void read(size_t Offset, size_t Bytes, void *Dst) const {
    detail::check(skmd_read_buffer(get(), Offset, Bytes, Dst));
  }
  template <typename T> void read(std::vector<T> &Into) const {
    read(0, Into.size() * sizeof(T), Into.data());
  }
  void write(size_t Offset, size_t Bytes, const void *Src) const {
    detail::check(skmd_write_buffer(get(), Offset, Bytes, Src));
  }
};

class Kernel : public detail::Handle<skmd_kernel, skmd_release_kernel> {
public:
  using Handle::Handle;

  Kernel &arg(unsigned Index, const Buffer &B) {
    detail::check(skmd_set_arg_buffer(get(), Index, B.get()));
    return *this;
  }
  /// A value argument, of exactly the kernel's type (uint32_t for uint).
  template <typename T> Kernel &arg(unsigned Index, const T &Value) {
    static_assert(std::is_trivially_copyable_v<T>, "values are plain data");
    detail::check(skmd_set_arg_scalar(get(), Index, &Value, sizeof Value));
    return *this;
  }
  Kernel &local(unsigned Index, size_t Bytes) {
    detail::check(skmd_set_arg_local(get(), Index, Bytes));
    return *this;
  }

  /// Global and local sizes per dimension (1 to 3); plan as skmd_launch.
  skmd_launch_report launch(const std::vector<size_t> &Global,
                            const std::vector<size_t> &Local,
                            const char *Plan = nullptr,
                            const std::vector<size_t> &Offset = {}) {
    if (Global.size() != Local.size() || (!Offset.empty() && Offset.size() != Global.size()))
      throw Error(SKMD_ERROR_INVALID_ARGUMENT,
                  "global, local and offset sizes need one entry per dimension");
    skmd_launch_report R;
    detail::check(skmd_launch(get(), uint32_t(Global.size()),
                              Offset.empty() ? nullptr : Offset.data(),
                              Global.data(), Local.data(), Plan, &R));
    return R;
  }
};

class Program : public detail::Handle<skmd_program, skmd_release_program> {
public:
  using Handle::Handle;
  Kernel kernel(const std::string &Name) const {
    skmd_kernel K;
    detail::check(skmd_get_kernel(get(), Name.c_str(), &K));
    return Kernel(K);
  }
};

/// Copies and kernel pieces with dependencies, predicted before they run
/// (docs/batch.md). Operations are numbered in the order added.
class Batch : public detail::Handle<skmd_batch, skmd_batch_release> {
public:
  using Handle::Handle;
  /// A copy's end in host memory, where a device index would be.
  static constexpr size_t Host = SKMD_HOST;

  size_t copy(const Buffer &B, size_t Offset, size_t Bytes, size_t From, size_t To) {
    size_t Op;
    detail::check(skmd_batch_add_copy(get(), B.get(), Offset, Bytes, From, To, &Op));
    return Op;
  }
  /// Groups [First, First + Count) of the launch on \p Device.
  size_t kernel(const Kernel &K, size_t Device, const std::vector<size_t> &Global,
                const std::vector<size_t> &Local, uint64_t First, uint64_t Count,
                const std::vector<size_t> &Offset = {}) {
    if (Global.size() != Local.size() || (!Offset.empty() && Offset.size() != Global.size()))
      throw Error(SKMD_ERROR_INVALID_ARGUMENT,
                  "global, local and offset sizes need one entry per dimension");
    size_t Op;
    detail::check(skmd_batch_add_kernel(get(), K.get(), Device, uint32_t(Global.size()),
                                        Offset.empty() ? nullptr : Offset.data(), Global.data(),
                                        Local.data(), First, Count, &Op));
    return Op;
  }
  /// \p Op starts after \p After ends.
  Batch &after(size_t Op, size_t After) {
    detail::check(skmd_batch_add_dependency(get(), Op, After));
    return *this;
  }
  double predict() const {
    double Ms;
    detail::check(skmd_batch_predict(get(), &Ms));
    return Ms;
  }
  void submit() { detail::check(skmd_batch_submit(get())); }
  bool done() const {
    int Done;
    detail::check(skmd_batch_query(get(), &Done));
    return Done != 0;
  }
  void wait() { detail::check(skmd_batch_wait(get())); }
  /// Predicted start and end, measured start and end, ms.
  std::array<double, 4> times(size_t Op) const {
    std::array<double, 4> T;
    detail::check(skmd_batch_times(get(), Op, T.data()));
    return T;
  }
};

class Context : public detail::Handle<skmd_context, skmd_release_context> {
public:
  /// \p Devices as skmd_init's (nullptr: every device found).
  explicit Context(const char *Devices = nullptr) {
    skmd_context C;
    detail::check(skmd_init(Devices, &C));
    *this = Context(C);
  }

  Program load(const std::string &Path) const {
    skmd_program P;
    detail::check(skmd_load_bundle(get(), Path.c_str(), &P));
    return Program(P);
  }
  Buffer wrap(void *Host, size_t Bytes) const {
    skmd_buffer B;
    detail::check(skmd_wrap_buffer(get(), Host, Bytes, &B));
    return Buffer(B);
  }
  template <typename T> Buffer wrap(std::vector<T> &V) const {
    return wrap(V.data(), V.size() * sizeof(T));
  }
  /// A buffer of SKMD's own, its bytes staying on the devices between
  /// launches (skmd_create_buffer); filled from \p Init, zeros when null.
  /// An empty batch (Batch).
  Batch batch() const {
    skmd_batch B;
    detail::check(skmd_batch_create(get(), &B));
    return Batch(B);
  }
  Buffer create(size_t Bytes, const void *Init = nullptr) const {
    skmd_buffer B;
    detail::check(skmd_create_buffer(get(), Bytes, Init, &B));
    return Buffer(B);
  }
  template <typename T> Buffer create(const std::vector<T> &Init) const {
    return create(Init.size() * sizeof(T), Init.data());
  }
  std::vector<skmd_device_info> devices() const {
    std::vector<skmd_device_info> Out(skmd_device_count(get()));
    for (size_t I = 0; I < Out.size(); ++I)
      detail::check(skmd_get_device_info(get(), I, &Out[I]));
    return Out;
  }

private:
  explicit Context(skmd_context C) : Handle(C) {}
};

} // namespace skmd

#endif // SKMD_SKMD_HPP
