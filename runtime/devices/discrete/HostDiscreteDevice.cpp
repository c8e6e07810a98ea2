//===- HostDiscreteDevice.cpp - A discrete device made of the host --------===//
#include "devices/discrete/HostDiscreteDevice.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

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
  I.UsesHostCores = true;
  std::unique_ptr<HostDiscreteDevice> D(new HostDiscreteDevice(std::move(I), Threads));
  if (const char *Env = std::getenv("SKMD_DISCRETE_GBPS"))
    D->LinkGBps = std::max(0.0, std::atof(Env));
  return D;
}

void HostDiscreteDevice::throttle(std::chrono::steady_clock::time_point Start,
                                  uint64_t Bytes) const {
  if (LinkGBps > 0)
    std::this_thread::sleep_until(
        Start + std::chrono::duration<double>(double(Bytes) / (LinkGBps * 1e9)));
}

Status HostDiscreteDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                                  uint64_t Bytes) {
  auto Start = std::chrono::steady_clock::now();
  Status S = CpuDevice::copyIn(Dst, DstOffset, Src, Bytes);
  throttle(Start, Bytes);
  return S;
}

Status HostDiscreteDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                   uint64_t Bytes) {
  auto Start = std::chrono::steady_clock::now();
  Status S = CpuDevice::copyOut(Dst, Src, SrcOffset, Bytes);
  throttle(Start, Bytes);
  return S;
}

HostDiscreteDevice::~HostDiscreteDevice() {
  for (auto [Address, Size] : Blocks.drainAll())
    std::free(reinterpret_cast<void *>(Address));
}

Result<DeviceMemory> HostDiscreteDevice::allocate(uint64_t Bytes) {
  uint64_t Block = Blocks.blockFor(Bytes);
  if (auto Hit = Blocks.take(Block))
    return DeviceMemory{*Hit, Bytes};
  void *P = std::aligned_alloc(2ull << 20, Block);
  if (!P)
    return Failure(ErrorCode::OutOfMemory,
                   Info.Name + ": cannot allocate " + std::to_string(Bytes) + " bytes");
  Blocks.adopt(reinterpret_cast<uint64_t>(P), Block);
  return DeviceMemory{reinterpret_cast<uint64_t>(P), Bytes};
}

void HostDiscreteDevice::release(DeviceMemory Memory) {
  for (auto [Address, Size] : Blocks.give(Memory.Address))
    std::free(reinterpret_cast<void *>(Address));
}

} // namespace skmd
