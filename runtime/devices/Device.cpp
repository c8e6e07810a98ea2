//===- Device.cpp - What every device shares ------------------------------===//
#include "devices/Device.h"

namespace skmd {

Status Device::copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                          const Rect &R) {
  return R.eachRow([&](uint64_t At) {
    return copyIn(Dst, DstOffset + At, static_cast<const char *>(Src) + At, R.RowBytes);
  });
}

Status Device::copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                           const Rect &R) {
  return R.eachRow([&](uint64_t At) {
    return copyOut(static_cast<char *>(Dst) + At, Src, SrcOffset + At, R.RowBytes);
  });
}

Status Device::merge(DeviceKernel &, const std::vector<DeviceArg> &,
                     const std::vector<uint64_t> &, const NDRange &, uint64_t,
                     uint64_t) {
  return Failure(ErrorCode::InvalidArgument,
                 Info.Name + " does not run merge kernels; the CPU does");
}

std::string_view deviceKindName(DeviceKind Kind) {
  switch (Kind) {
  case DeviceKind::Cpu:
    return "cpu";
  case DeviceKind::HostDiscrete:
    return "host-discrete";
  case DeviceKind::Cuda:
    return "cuda";
  case DeviceKind::OpenCL:
    return "opencl";
  }
  return "unknown";
}

} // namespace skmd
