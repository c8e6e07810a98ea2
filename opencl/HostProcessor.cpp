//===- HostProcessor.cpp - What the platform reports of the host's processor -----===//
#include "HostProcessor.h"

#include <cstdlib>
#include <fstream>

namespace skmd::opencl {

namespace {

/// The value of the first "\p Key : value" line of /proc/cpuinfo, or "".
std::string cpuinfoField(const std::string &Key) {
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Name = Line.substr(0, Line.find_last_not_of(" \t", Colon - 1) + 1);
    if (Name != Key)
      continue;
    size_t Value = Line.find_first_not_of(" \t", Colon + 1);
    return Value == std::string::npos ? "" : Line.substr(Value);
  }
  return "";
}

} // namespace

unsigned pciVendorOfCpu(const std::string &CpuVendor) {
  if (CpuVendor == "GenuineIntel")
    return 0x8086;
  if (CpuVendor == "AuthenticAMD" || CpuVendor == "HygonGenuine")
    return 0x1022;
  return 0;
}

unsigned hostCpuVendorId() {
  static const unsigned Id = pciVendorOfCpu(cpuinfoField("vendor_id"));
  return Id;
}

unsigned hostCpuMaxMHz() {
  static const unsigned MHz = [] {
    std::ifstream Max("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    unsigned long KHz = 0;
    if (Max >> KHz && KHz)
      return unsigned(KHz / 1000);
    return unsigned(std::strtod(cpuinfoField("cpu MHz").c_str(), nullptr) + 0.5);
  }();
  return MHz;
}

} // namespace skmd::opencl
