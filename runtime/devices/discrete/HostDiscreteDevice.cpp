//===- HostDiscreteDevice.cpp - A discrete device made of the host --------===//
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/HostCores.h"

#include <algorithm>
#include <cstdlib>
#include <string>
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
  I.HostCopyCores = 1;
  const char *Queue = std::getenv("SKMD_DISCRETE_QUEUE");
  I.QueuesWork = Queue && std::string(Queue) == "1";
  std::unique_ptr<HostDiscreteDevice> D(new HostDiscreteDevice(std::move(I), Threads));
  if (const char *Env = std::getenv("SKMD_DISCRETE_GBPS"))
    D->LinkGBps = std::max(0.0, std::atof(Env));
  if (D->Info.QueuesWork)
    D->Streams = std::make_unique<HostStreams>();
  return D;
}

std::unique_ptr<Device> HostDiscreteDevice::share() {
  std::unique_ptr<HostDiscreteDevice> D(new HostDiscreteDevice(Info, threads()));
  D->LinkGBps = LinkGBps;
  if (Info.QueuesWork)
    D->Streams = std::make_unique<HostStreams>();
  return D;
}

void HostDiscreteDevice::throttle(std::chrono::steady_clock::time_point Start,
                                  uint64_t Bytes) const {
  if (LinkGBps > 0)
    std::this_thread::sleep_until(
        Start + std::chrono::duration<double>(double(Bytes) / (LinkGBps * 1e9)));
}

Status HostDiscreteDevice::copyInNow(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                                     uint64_t Bytes) {
  auto Start = std::chrono::steady_clock::now();
  Status S = [&] {
    auto Cores = HostCores::instance().borrow(Info.HostCopyCores);
    return CpuDevice::copyIn(Dst, DstOffset, Src, Bytes);
  }();
  throttle(Start, Bytes);
  return S;
}

Status HostDiscreteDevice::copyOutNow(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                      uint64_t Bytes) {
  auto Start = std::chrono::steady_clock::now();
  Status S = [&] {
    auto Cores = HostCores::instance().borrow(Info.HostCopyCores);
    return CpuDevice::copyOut(Dst, Src, SrcOffset, Bytes);
  }();
  throttle(Start, Bytes);
  return S;
}

Status HostDiscreteDevice::copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From,
                                    DeviceMemory Src, uint64_t SrcOffset, uint64_t Bytes) {
  if (From.info().Kind != DeviceKind::HostDiscrete)
    return Device::copyPeer(Dst, DstOffset, From, Src, SrcOffset, Bytes);
  // The source's queued copies into Src land first.
  if (Status S = From.finishCopies(); !S)
    return S;
  const void *At = reinterpret_cast<const char *>(Src.Address) + SrcOffset;
  if (Status S = copyIn(Dst, DstOffset, At, Bytes); !S)
    return S;
  return finishCopies();
}

Status HostDiscreteDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                                  uint64_t Bytes) {
  if (!Streams)
    return copyInNow(Dst, DstOffset, Src, Bytes);
  // As a GPU's: it may run after the call returns (finishCopies).
  Streams->queue(DeviceStream::ToDevice, [this, Dst, DstOffset, Src, Bytes] {
    return copyInNow(Dst, DstOffset, Src, Bytes);
  });
  return Status::success();
}

Status HostDiscreteDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                   uint64_t Bytes) {
  if (!Streams)
    return copyOutNow(Dst, Src, SrcOffset, Bytes);
  Streams->queue(DeviceStream::ToHost, [this, Dst, Src, SrcOffset, Bytes] {
    return copyOutNow(Dst, Src, SrcOffset, Bytes);
  });
  return Streams->drain(DeviceStream::ToHost);
}

Status HostDiscreteDevice::finishCopies() {
  return Streams ? Streams->drain(DeviceStream::ToDevice) : Status::success();
}

Status HostDiscreteDevice::run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                               const NDRange &Range, uint64_t First, uint64_t Count) {
  if (!Streams)
    return CpuDevice::run(Kernel, Args, Range, First, Count);
  if (Status S = queueRun(Kernel, Args, Range, First, Count); !S)
    return S;
  return Streams->drain(DeviceStream::Compute);
}

Status HostDiscreteDevice::queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                                    const NDRange &Range, uint64_t First, uint64_t Count) {
  if (!Streams)
    return CpuDevice::run(Kernel, Args, Range, First, Count);
  Streams->queue(DeviceStream::Compute, [this, &Kernel, Args, Range, First, Count] {
    return CpuDevice::run(Kernel, Args, Range, First, Count);
  });
  return Status::success();
}

Status HostDiscreteDevice::queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                            const Rect &R) {
  if (!Streams)
    return copyOutRect(Dst, Src, SrcOffset, R);
  Streams->queue(DeviceStream::ToHost, [this, Dst, Src, SrcOffset, R] {
    return R.eachRow([&](uint64_t At) {
      return copyOutNow(static_cast<char *>(Dst) + At, Src, SrcOffset + At, R.RowBytes);
    });
  });
  return Status::success();
}

Result<uint64_t> HostDiscreteDevice::mark(DeviceStream S) {
  return Streams ? Streams->mark(S) : uint64_t(0);
}

Status HostDiscreteDevice::waitFor(DeviceStream S, uint64_t Mark) {
  if (Streams)
    Streams->waitFor(S, Mark);
  return Status::success();
}

Status HostDiscreteDevice::finish(uint64_t Mark) {
  return Streams ? Streams->finish(Mark) : Status::success();
}

void HostDiscreteDevice::releaseMark(uint64_t Mark) {
  if (Streams)
    Streams->release(Mark);
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
