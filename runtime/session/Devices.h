//===- Devices.h - Opening the devices a session asks for --------*- C++ -*-===//
//
// A device list is comma-separated items, each naming a kind of device
// from the registry below: cpu, discrete (one more HostDiscrete device each
// time it appears), cuda (every GPU), cuda:N, opencl (every OpenCL device
// that takes SPIR-V), opencl:N. Empty (or "all") means every device found
// (OpenCL devices of the CPU type left out). The CPU is always device 0: it
// runs the merge kernels and re-runs the groups of a device that fails, so
// it is opened even when the list leaves it out, and then kept out of the
// plans SKMD chooses (DeviceInfo::InPlans). The other kinds follow in the
// registry's order.
//
// remote (every server of SKMD_SERVERS), remote:<address> (unix:<path>,
// mpi:<name>): the devices of skmd-servers (devices/remote).
//
// A new kind of device (shared, ...) is one more entry in deviceOpeners():
// its name, the item forms it takes, and how it opens its items.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SESSION_DEVICES_H
#define SKMD_SESSION_DEVICES_H

#include "devices/Device.h"
#include "devices/cpu/CpuDevice.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace skmd {

struct OpenedDevices {
  std::vector<std::unique_ptr<Device>> Devices;
  CpuDevice *Cpu = nullptr;
};

/// One kind of device a list may name.
struct DeviceOpener {
  /// The item that names it ("cuda"); items "<Name>:<arg>" belong to it too.
  std::string Name;
  /// The forms it takes, for the error about an unknown item ("cuda, cuda:N").
  std::string Forms;
  /// Opens what \p Items (this kind's items of the list, in order) ask for
  /// into \p Out. With \p Everything (an empty list), whatever of this
  /// kind the machine has, and none without an error where it has none.
  std::function<Status(const std::vector<std::string> &Items, bool Everything,
                       OpenedDevices &Out)>
      Open;
};

/// The items of device list \p Spec, spaces around each trimmed.
std::vector<std::string> deviceListItems(const std::string &Spec);

/// The kinds, in the order their devices come after the CPU.
const std::vector<DeviceOpener> &deviceOpeners();

Result<OpenedDevices> openDevices(const std::string &Spec);

} // namespace skmd

#endif // SKMD_SESSION_DEVICES_H
