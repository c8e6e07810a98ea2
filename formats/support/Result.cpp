//===- Result.cpp - Error code names --------------------------------------===//
#include "support/Result.h"

namespace skmd {

const char *errorCodeName(ErrorCode Code) {
  switch (Code) {
  case ErrorCode::Success:
    return "success";
  case ErrorCode::InvalidArgument:
    return "invalid argument";
  case ErrorCode::IOError:
    return "I/O error";
  case ErrorCode::CorruptBundle:
    return "corrupt bundle";
  case ErrorCode::UnsupportedBundleVersion:
    return "unsupported bundle version";
  case ErrorCode::NotFound:
    return "not found";
  case ErrorCode::UnsupportedHost:
    return "unsupported host";
  case ErrorCode::OutOfMemory:
    return "out of memory";
  case ErrorCode::DeviceFailed:
    return "device failed";
  case ErrorCode::NoDevice:
    return "no such device";
  }
  return "unknown error";
}

} // namespace skmd
