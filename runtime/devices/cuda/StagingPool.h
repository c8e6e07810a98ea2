//===- StagingPool.h - Pageable copies through pinned chunks -----*- C++ -*-===//
//
// A GPU copies pinned (page-locked) host memory by DMA at full link speed;
// pageable memory the driver stages itself, slowly (7 GB/s against 54 GB/s
// measured on an H100 host). The pool streams a pageable copy through
// pinned chunks: several copier threads each take chunks in turn and
// alternate between two pinned buffers of their own, so while the DMA
// engine moves one chunk the threads fill the next ones. One core's memcpy
// alone is slower than the link; the copies use non-temporal stores, which
// neither read the destination first nor evict the cache.
//
// Memory that is already pinned (skmd_alloc_host) is copied directly.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CUDA_STAGINGPOOL_H
#define SKMD_DEVICES_CUDA_STAGINGPOOL_H

#include "devices/Device.h"
#include "devices/cpu/ThreadPool.h"
#include "devices/cuda/CudaDriver.h"
#include "support/Result.h"

#include <functional>
#include <mutex>
#include <vector>

namespace skmd {

class StagingPool {
public:
  /// Pinned buffers of \p ChunkBytes, two per copier thread, allocated on
  /// first use; \p CopyThreads threads (the caller among them) copy.
  StagingPool(const CudaDriver &D, uint64_t ChunkBytes, unsigned CopyThreads);
  ~StagingPool();
  StagingPool(const StagingPool &) = delete;
  StagingPool &operator=(const StagingPool &) = delete;

  /// Host to device on \p Stream of context \p Ctx; returns when the host
  /// no longer needs \p Src (the last DMAs may still run: synchronize the
  /// stream).
  Status toDevice(CUdeviceptr Dst, const void *Src, uint64_t Bytes, CUstream Stream,
                  CUcontext Ctx);
  /// Device to host; returns when \p Dst holds the bytes, or, for pinned
  /// \p Dst and \p Wait false, once the copy is queued on \p Stream.
  Status toHost(void *Dst, CUdeviceptr Src, uint64_t Bytes, CUstream Stream,
                CUcontext Ctx, bool Wait = true);
  /// The rows of \p R, at the same offsets and pitch from \p Src and
  /// \p Dst: gathered into pinned chunks, each moved by one strided DMA
  /// (a row per copy would cost a driver call per row).
  Status toDeviceRect(CUdeviceptr Dst, const void *Src, const Rect &R, CUstream Stream,
                      CUcontext Ctx);
  Status toHostRect(void *Dst, CUdeviceptr Src, const Rect &R, CUstream Stream,
                    CUcontext Ctx, bool Wait = true);

private:
  Status ensureAllocated();
  /// Runs Body(buffer, first, count) for every piece (bytes of a copy, or
  /// rows of a rect) on the copier threads, each alternating between its
  /// two buffers; the first error wins.
  Status forEachPiece(const std::vector<std::pair<uint64_t, uint64_t>> &Pieces,
                      CUcontext Ctx,
                      const std::function<Status(unsigned, uint64_t, uint64_t)> &Body);
  /// Whether \p R's rows are gathered into chunks (else copied one by one).
  bool gathered(const Rect &R) const;
  /// Pieces of \p R's rows that fit a chunk each.
  std::vector<std::pair<uint64_t, uint64_t>> rowPieces(const Rect &R) const;
  Status check(CUresult R, const char *What) const;

  const CudaDriver &D;
  uint64_t ChunkBytes;
  std::vector<void *> Pinned;
  std::vector<CUevent> Done;
  ThreadPool Copiers;
  /// Per copier, which of its two buffers it takes next.
  std::vector<unsigned> Turn;
  /// Held by the staged copy running: the copiers' pool runs one job at a
  /// time, and the buffers are per copier (two threads copying through
  /// one device's pool, a copy between devices through the host beside
  /// the device's own copies, would share them).
  std::mutex OneCopy;
};

/// The (offset, bytes) pieces a copy of \p Bytes is staged in: chunks of
/// \p ChunkBytes, growing from an eighth of that at the start and
/// shrinking again at the end, so the DMA engine waits only for a small
/// first chunk and the last host copy (to the host) is short.
std::vector<std::pair<uint64_t, uint64_t>> stagingChunks(uint64_t Bytes,
                                                         uint64_t ChunkBytes);

/// Registers page-locked host memory handed out by skmd_alloc_host, so
/// copies from and to it skip staging.
void notePinned(const void *Ptr, uint64_t Bytes);
void forgetPinned(const void *Ptr);
bool isPinned(const void *Ptr, uint64_t Bytes);

} // namespace skmd

#endif // SKMD_DEVICES_CUDA_STAGINGPOOL_H
