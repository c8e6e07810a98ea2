//===- Device.cpp - What every device shares ------------------------------===//
#include "devices/Device.h"

#include <algorithm>
#include <vector>

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

Status Device::copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                        uint64_t SrcOffset, uint64_t Bytes) {
  constexpr uint64_t Chunk = 16ull << 20;
  std::vector<char> Bounce(std::min(Bytes, Chunk));
  for (uint64_t At = 0; At < Bytes; At += Chunk) {
    uint64_t N = std::min(Chunk, Bytes - At);
    if (Status S = From.copyOut(Bounce.data(), Src, SrcOffset + At, N); !S)
      return S;
    if (Status S = copyIn(Dst, DstOffset + At, Bounce.data(), N); !S)
      return S;
    // The bounce buffer is reused: this chunk must have arrived.
    if (Status S = finishCopies(); !S)
      return S;
  }
  return Status::success();
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
  case DeviceKind::Remote:
    return "remote";
  }
  return "unknown";
}

unsigned othersOnThisHost(const std::vector<const DeviceInfo *> &Devices) {
  unsigned N = 0;
  for (const DeviceInfo *D : Devices)
    if (D->OthersShareThisHost)
      N = std::max(N, D->OtherUsers);
  return N;
}

} // namespace skmd
