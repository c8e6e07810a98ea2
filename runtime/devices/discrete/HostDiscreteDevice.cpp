//===- HostDiscreteDevice.cpp - A discrete device made of the host --------===//
#include "devices/discrete/HostDiscreteDevice.h"

namespace skmd {

std::unique_ptr<HostDiscreteDevice> HostDiscreteDevice::create(unsigned Index,
                                                               unsigned Threads) {
  Threads = std::max(Threads, 1u);
  DeviceInfo I = hostInfo(Threads);
  I.Name = "discrete" + std::to_string(Index);
  I.Description = "host-discrete: the x86 variant on private copies (" +
                  std::to_string(Threads) + " thread" +
                  (Threads == 1 ? ")" : "s)");
  I.Kind = DeviceKind::HostDiscrete;
  I.SharesHostMemory = false;
  return std::unique_ptr<HostDiscreteDevice>(
      new HostDiscreteDevice(std::move(I), Threads));
}

} // namespace skmd
