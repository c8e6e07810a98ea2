//===- Devices.h - Opening the devices a context asks for --------*- C++ -*-===//
//
// A device list is comma-separated kinds: cpu, discrete (one more
// HostDiscrete device each time it appears), cuda (every GPU), cuda:N,
// opencl (every OpenCL device that takes SPIR-V), opencl:N. Empty means
// every device found (OpenCL devices of the CPU type left out). The CPU is always device 0: it runs the
// merge kernels and re-runs the groups of a device that fails, so it is
// opened even when the list leaves it out (plans may still leave it idle).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_API_DEVICES_H
#define SKMD_API_DEVICES_H

#include "devices/Device.h"
#include "devices/cpu/CpuDevice.h"

#include <memory>
#include <string>
#include <vector>

namespace skmd {

struct OpenedDevices {
  std::vector<std::unique_ptr<Device>> Devices;
  CpuDevice *Cpu = nullptr;
};

Result<OpenedDevices> openDevices(const std::string &Spec);

} // namespace skmd

#endif // SKMD_API_DEVICES_H
