//===- OpenCLDevice.h - A device that takes SPIR-V through OpenCL -*- C++ -*-===//
//
// Any OpenCL device whose driver accepts SPIR-V (CL_DEVICE_IL_VERSION
// names SPIR-V 1.2 or later, through clCreateProgramWithIL): the bundle's
// SPIR-V variant is built for it, and the partition-ready kernel is
// launched as exactly `count` groups, as on a CUDA GPU.
//
// OpenCL buffers are handles (cl_mem), not addresses: a kernel argument
// must be an allocation itself, never an address before one. Such a device
// says so (DeviceInfo::BuffersAreHandles), and the launcher gives it each
// buffer from byte 0, copying only the bytes a piece needs into it.
// Allocations are named by their cl_mem's value, which is what
// DeviceArg::Address then holds.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_OPENCL_OPENCLDEVICE_H
#define SKMD_DEVICES_OPENCL_OPENCLDEVICE_H

#include "devices/Device.h"
#include "devices/opencl/OpenCLDriver.h"

#include <mutex>
#include <set>

namespace skmd {

class OpenCLDevice : public Device {
public:
  /// Which devices to open.
  enum class Selection {
    /// Every device that takes SPIR-V, but not CPUs: SKMD's own CPU device
    /// already computes on those cores (the default device list).
    AllButCpus,
    /// Every device that takes SPIR-V (SKMD_DEVICES=opencl).
    All,
    /// The one of index N among those (SKMD_DEVICES=opencl:N).
    Index,
  };
  /// The chosen devices, in the order the ICD loader lists platforms and
  /// devices, named opencl<NameFrom>, opencl<NameFrom + 1>, ... An error
  /// names a missing loader, or for All and Index the devices found and
  /// why none takes SPIR-V; AllButCpus finding none is no error (an empty
  /// list).
  static Result<std::vector<std::unique_ptr<OpenCLDevice>>>
  open(Selection S, unsigned Index = 0, unsigned NameFrom = 0);
  ~OpenCLDevice() override;

  Result<std::unique_ptr<DeviceKernel>>
  loadKernel(const std::shared_ptr<DeviceModule> &Module,
             const KernelInfo &Kernel) override;
  Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) override;
  Result<DeviceMemory> allocate(uint64_t Bytes) override;
  void release(DeviceMemory Memory) override;
  Status copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                uint64_t Bytes) override;
  Status copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                 uint64_t Bytes) override;
  Status copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                    const Rect &R) override;
  Status copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                     const Rect &R) override;
  Status finishCopies() override;
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
             const NDRange &Range, uint64_t First, uint64_t Count) override;

private:
  OpenCLDevice(DeviceInfo Info, const OpenCLDriver &D, cl_device_id Dev, cl_context Ctx,
               cl_command_queue Queue);
  Status check(cl_int R, const std::string &What) const;
  /// The cl_mem of an allocation this device made, or null.
  cl_mem handle(uint64_t Address) const;
  /// The error of a copy that does not fit its allocation.
  Status outside() const;

  const OpenCLDriver &D;
  cl_device_id Dev;
  cl_context Ctx;
  cl_command_queue Queue;
  mutable std::mutex Lock; ///< Guards Live.
  std::set<uint64_t> Live;
};

} // namespace skmd

#endif // SKMD_DEVICES_OPENCL_OPENCLDEVICE_H
