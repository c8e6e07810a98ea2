//===- CpuDevice.h - The host CPU as an SKMD device --------------*- C++ -*-===//
//
// Runs the x86 variant's work-group functions on a persistent thread pool
// (WorkGroupRunner.h). The CPU computes on the user's own buffers; it also
// runs every merge kernel, in parallel over the groups of the device whose
// results it merges.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CPU_CPUDEVICE_H
#define SKMD_DEVICES_CPU_CPUDEVICE_H

#include "devices/Device.h"
#include "devices/cpu/ThreadPool.h"

namespace skmd {

class CpuDevice : public Device {
public:
  /// The CPU device on \p Threads threads (ThreadPool::defaultThreads()
  /// when 0).
  static std::unique_ptr<CpuDevice> create(unsigned Threads = 0);

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
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
             const NDRange &Range, uint64_t First, uint64_t Count) override;
  Status merge(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
               const std::vector<uint64_t> &Copies, const NDRange &Range,
               uint64_t First, uint64_t Count) override;

  /// At most this many threads compute in the next runs (0: all): a
  /// launch with GPUs leaves one core to the thread driving them.
  void limitThreads(unsigned Threads) { MaxThreads = Threads; }
  /// memcpy on the device's threads for large copies (one thread copies
  /// host memory at a fraction of its bandwidth: 8-9 GB/s against 51 GB/s
  /// from 32 threads on the 2xH200 host). Only while no launch runs on
  /// the pool: a session's reads and writes run in their turn.
  void copyHost(void *Dst, const void *Src, uint64_t Bytes);
  /// Reads \p Bytes at \p Src on the same threads (a host memory read
  /// rate's measurement); returns what it read, summed, so that the reads
  /// are not dropped.
  uint64_t readHost(const void *Src, uint64_t Bytes);
  /// Fills \p Bytes at \p Dst with \p Value on the same threads.
  void fillHost(void *Dst, uint8_t Value, uint64_t Bytes);
  unsigned threads() const { return Pool.size(); }

protected:
  CpuDevice(DeviceInfo Info, unsigned Threads);
  /// This host's CPU, as a device of \p Threads threads.
  static DeviceInfo hostInfo(unsigned Threads);

private:
  ThreadPool Pool;
  unsigned MaxThreads = 0;
};

} // namespace skmd

#endif // SKMD_DEVICES_CPU_CPUDEVICE_H
