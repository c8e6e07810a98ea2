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

namespace {
/// Blocks are 2 MiB multiples (huge-page sized), so sizes that differ a
/// little reuse one another.
constexpr uint64_t BlockBytes = 2ull << 20;
/// Kept at most, released memory beyond it goes back to the system.
constexpr uint64_t MaxFreeBytes = 1ull << 30;
} // namespace

HostDiscreteDevice::~HostDiscreteDevice() {
  for (auto [Bytes, Address] : Free)
    std::free(reinterpret_cast<void *>(Address));
  for (auto [Address, Bytes] : Live)
    std::free(reinterpret_cast<void *>(Address));
}

Result<DeviceMemory> HostDiscreteDevice::allocate(uint64_t Bytes) {
  uint64_t Rounded = (std::max<uint64_t>(Bytes, 1) + BlockBytes - 1) / BlockBytes * BlockBytes;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    // The smallest block that fits, unless it would waste half of itself.
    auto It = Free.lower_bound(Rounded);
    if (It != Free.end() && It->first <= 2 * Rounded) {
      DeviceMemory M{It->second, Bytes};
      FreeBytes -= It->first;
      Live[It->second] = It->first;
      Free.erase(It);
      return M;
    }
  }
  void *P = std::aligned_alloc(BlockBytes, Rounded);
  if (!P)
    return Failure(ErrorCode::OutOfMemory,
                   Info.Name + ": cannot allocate " + std::to_string(Bytes) + " bytes");
  std::lock_guard<std::mutex> Hold(Lock);
  Live[reinterpret_cast<uint64_t>(P)] = Rounded;
  return DeviceMemory{reinterpret_cast<uint64_t>(P), Bytes};
}

void HostDiscreteDevice::release(DeviceMemory Memory) {
  std::lock_guard<std::mutex> Hold(Lock);
  // The block's own size: a reused one may be larger than the request.
  auto It = Live.find(Memory.Address);
  if (It == Live.end())
    return;
  Free.emplace(It->second, Memory.Address);
  FreeBytes += It->second;
  Live.erase(It);
  while (FreeBytes > MaxFreeBytes && !Free.empty()) {
    auto Largest = std::prev(Free.end());
    FreeBytes -= Largest->first;
    std::free(reinterpret_cast<void *>(Largest->second));
    Free.erase(Largest);
  }
}

} // namespace skmd
