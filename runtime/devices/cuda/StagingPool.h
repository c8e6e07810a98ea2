//===- StagingPool.h - Pageable copies through pinned chunks -----*- C++ -*-===//
//
// A GPU copies pinned (page-locked) host memory by DMA at full link speed;
// pageable memory the driver stages itself, slowly (7 GB/s against 54 GB/s
// measured on an H100 host). The pool holds a few pinned chunks per device
// and streams a pageable copy through them: while the DMA engine moves
// chunk k, host threads copy chunk k+1 into the next pinned buffer, so the
// host copy hides behind the DMA. The host copy itself is split across a
// few threads: one core's memcpy alone is slower than the link.
//
// Memory that is already pinned (skmd_alloc_host) is copied directly.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CUDA_STAGINGPOOL_H
#define SKMD_DEVICES_CUDA_STAGINGPOOL_H

#include "devices/cpu/ThreadPool.h"
#include "devices/cuda/CudaDriver.h"
#include "support/Result.h"

#include <mutex>
#include <vector>

namespace skmd {

class StagingPool {
public:
  /// \p Chunks pinned buffers of \p ChunkBytes each, allocated on first
  /// use in the current CUDA context; \p CopyThreads host threads copy.
  StagingPool(const CudaDriver &D, uint64_t ChunkBytes, unsigned Chunks,
              unsigned CopyThreads);
  ~StagingPool();
  StagingPool(const StagingPool &) = delete;
  StagingPool &operator=(const StagingPool &) = delete;

  /// Host to device on \p Stream; returns when the host no longer needs
  /// \p Src (the last DMA may still run: synchronize the stream).
  Status toDevice(CUdeviceptr Dst, const void *Src, uint64_t Bytes, CUstream Stream);
  /// Device to host on \p Stream; returns when \p Dst holds the bytes.
  Status toHost(void *Dst, CUdeviceptr Src, uint64_t Bytes, CUstream Stream);

private:
  Status ensureAllocated();
  void parallelCopy(void *Dst, const void *Src, uint64_t Bytes);
  Status check(CUresult R, const char *What) const;

  const CudaDriver &D;
  uint64_t ChunkBytes;
  unsigned NumChunks;
  std::vector<void *> Pinned;
  std::vector<CUevent> Done;
  unsigned Next = 0; ///< The staging buffer the next host-to-device chunk takes.
  ThreadPool Copiers;
};

/// Registers page-locked host memory handed out by skmd_alloc_host, so
/// copies from and to it skip staging.
void notePinned(const void *Ptr, uint64_t Bytes);
void forgetPinned(const void *Ptr);
bool isPinned(const void *Ptr, uint64_t Bytes);

} // namespace skmd

#endif // SKMD_DEVICES_CUDA_STAGINGPOOL_H
