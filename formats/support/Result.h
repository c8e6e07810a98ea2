//===- Result.h - Error values for the LLVM-free runtime ---------*- C++ -*-===//
//
// The runtime must never abort its caller's process, and it does not link
// LLVM, so it cannot use llvm::Expected. Result<T> carries either a value or
// a Failure with a code and a message that names the problem.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_RESULT_H
#define SKMD_SUPPORT_RESULT_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace skmd {

enum class ErrorCode {
  Success = 0,
  InvalidArgument,
  IOError,
  CorruptBundle,
  UnsupportedBundleVersion,
  NotFound,
  /// The host cannot run what it was given (a CPU lacking an extension).
  UnsupportedHost,
  OutOfMemory,
  /// A device failed during a launch (its groups were re-run on the CPU).
  DeviceFailed,
  /// No device of the kind asked for, or its driver is missing.
  NoDevice,
};

const char *errorCodeName(ErrorCode Code);

class Failure {
public:
  Failure(ErrorCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}

  ErrorCode code() const { return Code; }
  const std::string &message() const { return Message; }

private:
  ErrorCode Code;
  std::string Message;
};

/// Either a T or a Failure. Check with ok() (or operator bool) before value().
template <typename T> class Result {
public:
  Result(T Value) : Value(std::move(Value)) {}
  Result(Failure E) : Err(std::move(E)) {}

  bool ok() const { return Value.has_value(); }
  explicit operator bool() const { return ok(); }

  T &value() {
    assert(ok() && "value() on an error Result");
    return *Value;
  }
  const T &value() const {
    assert(ok() && "value() on an error Result");
    return *Value;
  }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }

  const Failure &error() const {
    assert(!ok() && "error() on a successful Result");
    return *Err;
  }

private:
  std::optional<T> Value;
  std::optional<Failure> Err;
};

/// Result of an operation that produces no value.
class Status {
public:
  Status() = default;
  Status(Failure E) : Err(std::move(E)) {}
  static Status success() { return Status(); }

  bool ok() const { return !Err.has_value(); }
  explicit operator bool() const { return ok(); }
  const Failure &error() const {
    assert(!ok() && "error() on a successful Status");
    return *Err;
  }

private:
  std::optional<Failure> Err;
};

} // namespace skmd

#endif // SKMD_SUPPORT_RESULT_H
