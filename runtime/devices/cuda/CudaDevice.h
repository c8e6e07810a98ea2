//===- CudaDevice.h - An NVIDIA GPU through the CUDA driver API --*- C++ -*-===//
//
// One device per GPU, each with its primary context and a stream of its
// own. It JIT-compiles the bundle's PTX with cuModuleLoadDataEx and
// launches the partition-ready kernel as exactly `count` groups (a 1-D grid;
// the kernel maps launched group i to flattened group first + i). Copies
// of pageable memory go through the device's pinned staging pool.
// How threads wait for the GPU: SKMD_CUDA_SYNC=auto (the driver's
// choice, the default), spin, yield or blocking.
//
// __local pointer arguments become offsets into the launch's dynamic shared
// memory, which the window places after the kernel's own __local
// variables.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CUDA_CUDADEVICE_H
#define SKMD_DEVICES_CUDA_CUDADEVICE_H

#include "devices/BlockCache.h"
#include "devices/Device.h"
#include "devices/cuda/CudaDriver.h"
#include "devices/cuda/StagingPool.h"

#include <array>

#include <functional>
#include <map>
#include <mutex>
#include <set>

namespace skmd {

class CudaDevice : public Device {
public:
  /// The GPUs with these ordinals (every GPU when empty), named gpu0,
  /// gpu1, ... in that order; an error names a missing driver or GPU.
  static Result<std::vector<std::unique_ptr<CudaDevice>>>
  open(const std::vector<int> &Ordinals);
  ~CudaDevice() override;

  /// Page-locked host memory that every GPU copies at full speed
  /// (skmd_alloc_host where GPUs are open); null on failure.
  static void *allocPinned(uint64_t Bytes);
  static void freePinned(void *P);

  Result<std::unique_ptr<DeviceKernel>>
  loadKernel(const std::shared_ptr<DeviceModule> &Module,
             const KernelInfo &Kernel) override;
  Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) override;
  PeerAccess peerAccess(const Device &Other) const override;
  /// Three streams and two staging pools of its own in the same
  /// (primary) context: memory and kernels are the context's.
  std::unique_ptr<Device> share() override;
  /// From another GPU: cuMemcpyPeerAsync on the copies-in stream, waited
  /// for; direct where the two reach each other (peer access, enabled on
  /// first use), through host memory by the driver otherwise.
  Status copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                  uint64_t SrcOffset, uint64_t Bytes) override;
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
  void *allocPinnedHost(uint64_t Bytes) override { return allocPinned(Bytes); }
  void freePinnedHost(void *Ptr) override { freePinned(Ptr); }
  bool isPinnedHost(const void *Host, uint64_t Bytes) const override;
  /// cuMemHostRegister, portable: once for every GPU, counted.
  bool registerHost(void *Host, uint64_t Bytes) override;
  void unregisterHost(void *Host) override;
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
             const NDRange &Range, uint64_t First, uint64_t Count) override;
  Status queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                  const NDRange &Range, uint64_t First, uint64_t Count) override;
  Status queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                          const Rect &R) override;
  /// Marks are events, made once and kept for later marks.
  Result<uint64_t> mark(DeviceStream S) override;
  Status waitFor(DeviceStream S, uint64_t Mark) override;
  Status finish(uint64_t Mark) override;
  void releaseMark(uint64_t Mark) override;

private:
  /// \p Streams: copies to the device, kernels, copies to the host.
  CudaDevice(DeviceInfo Info, const CudaDriver &D, CUdevice Dev, CUcontext Ctx,
             std::array<CUstream, 3> Streams);
  /// Makes this GPU's context current on the calling thread.
  Status enter();
  /// Runs \p Copy, which reaches byte \p End of \p Memory, in this GPU's
  /// context; errors name the device.
  Status staged(const DeviceMemory &Memory, uint64_t End,
                const std::function<Status()> &Copy);
  Status check(CUresult R, const std::string &What) const;
  CUstream stream(DeviceStream S) const {
    return S == DeviceStream::ToDevice ? ToDevice : S == DeviceStream::Compute ? Compute : ToHost;
  }
  Status copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset, const Rect &R,
                     bool Wait);


  const CudaDriver &D;
  CUdevice Dev;
  CUcontext Ctx;
  /// The GPUs whose memory this context has been given access to.
  std::set<const CudaDevice *> PeersEnabled;
  std::mutex PeersLock;
  /// A stream and a staging pool per copy direction, and a stream for the
  /// kernels: a launch's schedule runs copies in, kernels and copies out
  /// from threads of their own (executor/Schedule.h), so that both copy
  /// engines work at once. Pinned memory belongs to the context: the pools
  /// are freed before it is released.
  CUstream ToDevice, Compute, ToHost;
  std::unique_ptr<StagingPool> StagingIn, StagingOut;
  /// Freed allocations kept for the next launches (cuMemAlloc and
  /// cuMemFree of hundreds of MB take milliseconds each), 2 MiB blocks, at
  /// most a quarter of the GPU's memory.
  BlockCache Blocks;
  /// Events of released marks.
  std::mutex MarksLock;
  std::vector<CUevent> FreeMarks;
};

} // namespace skmd

#endif // SKMD_DEVICES_CUDA_CUDADEVICE_H
