//===- HostDiscreteDevice.h - A discrete device made of the host -*- C++ -*-===//
//
// Runs the x86 variant like the CPU device, but on private copies of the
// buffers it allocates itself, as a GPU would: every byte it reads must be
// copied in and every byte it writes copied out or merged. It exists so
// that machines without a GPU (CI) test the launcher's transfer and merge
// paths; SKMD_DEVICES=cpu,discrete,discrete gives two.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H
#define SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H

#include "devices/cpu/CpuDevice.h"

namespace skmd {

class HostDiscreteDevice : public CpuDevice {
public:
  /// discrete<Index>, computing on \p Threads threads of its own.
  static std::unique_ptr<HostDiscreteDevice> create(unsigned Index,
                                                    unsigned Threads = 1);

private:
  using CpuDevice::CpuDevice;
};

} // namespace skmd

#endif // SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H
