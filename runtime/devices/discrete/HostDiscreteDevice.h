//===- HostDiscreteDevice.h - A discrete device made of the host -*- C++ -*-===//
//
// Runs the x86 variant like the CPU device, but on private copies of the
// buffers it allocates itself, as a GPU would: every byte it reads must be
// copied in and every byte it writes copied out or merged. It exists so
// that machines without a GPU (CI) test the launcher's transfer and merge
// paths; SKMD_DEVICES=cpu,discrete,discrete gives two.
//
// SKMD_DISCRETE_GBPS=N makes each copy to or from it take at least its
// bytes at N GB/s: a slow link, for tests of what overlaps what.
//
// SKMD_DISCRETE_QUEUE=1 makes it queue its copies and kernels on streams
// of host threads (devices/HostStreams.h), as a GPU does: the launcher's
// queued chunks then run here as they run on a GPU.
//
// Like a GPU's allocator (the CUDA device caches its allocations), it keeps
// released memory for the next launch: fresh host memory would be faulted
// in page by page inside the timed copies and kernels, which made its
// profiles swing by a third from run to run.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H
#define SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H

#include "devices/BlockCache.h"
#include "devices/HostStreams.h"
#include "devices/cpu/CpuDevice.h"

#include <chrono>

namespace skmd {

class HostDiscreteDevice : public CpuDevice {
public:
  /// discrete<Index>, computing on \p Threads threads of its own.
  static std::unique_ptr<HostDiscreteDevice> create(unsigned Index,
                                                    unsigned Threads = 1);

  ~HostDiscreteDevice() override;
  /// A device of the same kind with its own threads and streams: memory
  /// is the host's, kernels any CPU device's.
  std::unique_ptr<Device> share() override;
  Result<DeviceMemory> allocate(uint64_t Bytes) override;
  void release(DeviceMemory Memory) override;
  Status copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                uint64_t Bytes) override;
  Status copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset, uint64_t Bytes) override;
  /// From another HostDiscrete device: a memcpy between the two
  /// allocations (both in host memory), at this device's link's speed.
  Status copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                  uint64_t SrcOffset, uint64_t Bytes) override;
  Status finishCopies() override;
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override;
  Status queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                  const NDRange &Range, uint64_t First, uint64_t Count) override;
  Status queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                          const Rect &R) override;
  Result<uint64_t> mark(DeviceStream S) override;
  Status waitFor(DeviceStream S, uint64_t Mark) override;
  Status finish(uint64_t Mark) override;
  void releaseMark(uint64_t Mark) override;

private:
  /// The copies themselves, on the calling thread.
  Status copyInNow(DeviceMemory Dst, uint64_t DstOffset, const void *Src, uint64_t Bytes);
  Status copyOutNow(void *Dst, DeviceMemory Src, uint64_t SrcOffset, uint64_t Bytes);
  using CpuDevice::CpuDevice;
  /// Waits until a copy of \p Bytes begun at \p Start has taken as long as
  /// the slowed link would.
  void throttle(std::chrono::steady_clock::time_point Start, uint64_t Bytes) const;
  /// SKMD_DISCRETE_GBPS, or 0: as fast as memcpy.
  double LinkGBps = 0;
  /// 2 MiB blocks (huge-page sized), at most 1 GiB kept.
  BlockCache Blocks{2ull << 20, 1ull << 30};
  /// Where its work is queued (SKMD_DISCRETE_QUEUE), or null: run at once.
  std::unique_ptr<HostStreams> Streams;
};

} // namespace skmd

#endif // SKMD_DEVICES_DISCRETE_HOSTDISCRETEDEVICE_H
