//===- SessionOptions.h - How a session starts ------------------*- C++ -*-===//
#ifndef SKMD_SESSION_SESSIONOPTIONS_H
#define SKMD_SESSION_SESSIONOPTIONS_H

#include "support/Result.h"

#include <optional>
#include <string>

namespace skmd {

/// How a session starts.
struct SessionOptions {
  /// The devices to open (session/Devices.h): empty for every device found.
  std::string Devices;
  /// Plans and outcomes to stderr (SKMD_EXPLAIN).
  bool Explain = false;
  /// Profile a kernel the model lacks before planning it (SKMD_PROFILE):
  /// unset leaves the planner's default.
  std::optional<bool> AutoProfile;
  /// The model's splits held to what they measured
  /// (planning/MeasuredPlans.h; SKMD_MEASURED_PLANS=0 turns it off).
  bool MeasuredPlans = true;

  /// \p DeviceSpec, or SKMD_DEVICES where it is null; SKMD_EXPLAIN;
  /// SKMD_PROFILE (auto or off; anything else is an error);
  /// SKMD_MEASURED_PLANS.
  static Result<SessionOptions> fromEnvironment(const char *DeviceSpec);
};

} // namespace skmd

#endif // SKMD_SESSION_SESSIONOPTIONS_H
