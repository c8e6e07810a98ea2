//===- HostProcessor.h - What the platform reports of the host's processor -*- C++ -*-===//
//
// CL_DEVICE_VENDOR_ID and CL_DEVICE_MAX_CLOCK_FREQUENCY of devices that run
// on the host's cores, read from Linux: the PCI vendor id of the
// processor's maker (/proc/cpuinfo's vendor_id) and its highest clock
// (cpufreq's cpuinfo_max_freq, else /proc/cpuinfo's "cpu MHz").
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_HOSTPROCESSOR_H
#define SKMD_OPENCL_HOSTPROCESSOR_H

#include <string>

namespace skmd::opencl {

/// The PCI vendor id of \p CpuVendor, /proc/cpuinfo's vendor_id
/// ("GenuineIntel" 0x8086, "AuthenticAMD" 0x1022); 0 for another.
unsigned pciVendorOfCpu(const std::string &CpuVendor);

/// pciVendorOfCpu of this host's processor.
unsigned hostCpuVendorId();

/// The host processor's highest clock in MHz; 0 where Linux does not say.
unsigned hostCpuMaxMHz();

} // namespace skmd::opencl

#endif // SKMD_OPENCL_HOSTPROCESSOR_H
