//===- SessionOptions.cpp - How a session starts --------------------------===//
#include "session/SessionOptions.h"

#include <cstdlib>

namespace skmd {

Result<SessionOptions> SessionOptions::fromEnvironment(const char *DeviceSpec) {
  SessionOptions O;
  if (DeviceSpec)
    O.Devices = DeviceSpec;
  else if (const char *Env = std::getenv("SKMD_DEVICES"))
    O.Devices = Env;
  if (const char *Profile = std::getenv("SKMD_PROFILE"); Profile && *Profile) {
    std::string P = Profile;
    if (P != "auto" && P != "off")
      return Failure(ErrorCode::InvalidArgument,
                     "SKMD_PROFILE is '" + P + "'; it may be auto or off");
    O.AutoProfile = P == "auto";
  }
  if (const char *Explain = std::getenv("SKMD_EXPLAIN"))
    O.Explain = std::string(Explain) != "" && std::string(Explain) != "0";
  if (const char *Measured = std::getenv("SKMD_MEASURED_PLANS"); Measured && *Measured) {
    std::string M = Measured;
    if (M != "0" && M != "1")
      return Failure(ErrorCode::InvalidArgument,
                     "SKMD_MEASURED_PLANS is '" + M + "'; it may be 0 or 1");
    O.MeasuredPlans = M == "1";
  }
  return O;
}

} // namespace skmd
