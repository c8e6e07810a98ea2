//===- StagingPool.cpp - Pageable copies through pinned chunks ------------===//
#include "devices/cuda/StagingPool.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace skmd {

namespace {

std::mutex PinnedLock;
std::map<uintptr_t, uint64_t> &pinnedRanges() {
  static std::map<uintptr_t, uint64_t> Ranges;
  return Ranges;
}

/// Below this, a slice is not worth another thread.
constexpr uint64_t MinSliceBytes = 1 << 20;

} // namespace

void notePinned(const void *Ptr, uint64_t Bytes) {
  std::lock_guard<std::mutex> Hold(PinnedLock);
  pinnedRanges()[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
}

void forgetPinned(const void *Ptr) {
  std::lock_guard<std::mutex> Hold(PinnedLock);
  pinnedRanges().erase(reinterpret_cast<uintptr_t>(Ptr));
}

bool isPinned(const void *Ptr, uint64_t Bytes) {
  std::lock_guard<std::mutex> Hold(PinnedLock);
  auto &R = pinnedRanges();
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = R.upper_bound(P);
  if (It == R.begin())
    return false;
  --It;
  return P + Bytes <= It->first + It->second;
}

StagingPool::StagingPool(const CudaDriver &D, uint64_t ChunkBytes, unsigned Chunks,
                         unsigned CopyThreads)
    : D(D), ChunkBytes(ChunkBytes), NumChunks(std::max(2u, Chunks)),
      Copiers(std::max(1u, CopyThreads)) {}

StagingPool::~StagingPool() {
  for (CUevent E : Done)
    if (E)
      D.cuEventDestroy(E);
  for (void *P : Pinned)
    if (P)
      D.cuMemFreeHost(P);
}

Status StagingPool::check(CUresult R, const char *What) const {
  if (R == 0)
    return Status::success();
  return Failure(ErrorCode::DeviceFailed, std::string(What) + ": " + D.describe(R));
}

Status StagingPool::ensureAllocated() {
  if (!Pinned.empty())
    return Status::success();
  Pinned.assign(NumChunks, nullptr);
  Done.assign(NumChunks, nullptr);
  for (unsigned I = 0; I < NumChunks; ++I) {
    if (Status S = check(D.cuMemHostAlloc(&Pinned[I], ChunkBytes, CU_MEMHOSTALLOC_PORTABLE),
                         "allocating pinned staging memory");
        !S)
      return S;
    if (Status S = check(D.cuEventCreate(&Done[I], CU_EVENT_DISABLE_TIMING),
                         "cuEventCreate");
        !S)
      return S;
  }
  return Status::success();
}

void StagingPool::parallelCopy(void *Dst, const void *Src, uint64_t Bytes) {
  uint64_t Slices = std::min<uint64_t>(Copiers.size(),
                                       std::max<uint64_t>(1, Bytes / MinSliceBytes));
  if (Slices <= 1) {
    std::memcpy(Dst, Src, Bytes);
    return;
  }
  uint64_t Step = (Bytes + Slices - 1) / Slices;
  Copiers.parallelFor(Slices, 1, [&](unsigned, uint64_t Begin, uint64_t End) {
    for (uint64_t S = Begin; S < End; ++S) {
      uint64_t Lo = S * Step, Hi = std::min(Bytes, Lo + Step);
      if (Lo < Hi)
        std::memcpy(static_cast<char *>(Dst) + Lo, static_cast<const char *>(Src) + Lo,
                    Hi - Lo);
    }
  });
}

Status StagingPool::toDevice(CUdeviceptr Dst, const void *Src, uint64_t Bytes,
                             CUstream Stream) {
  if (isPinned(Src, Bytes))
    return check(D.cuMemcpyHtoDAsync(Dst, Src, Bytes, Stream), "cuMemcpyHtoDAsync");
  if (Status S = ensureAllocated(); !S)
    return S;
  for (uint64_t Off = 0; Off < Bytes; Off += ChunkBytes) {
    unsigned B = Next++ % NumChunks;
    // The buffer is free once its previous DMA, of this copy or an earlier
    // one, finished (an event never recorded is complete).
    if (Status S = check(D.cuEventSynchronize(Done[B]), "waiting for a copy"); !S)
      return S;
    uint64_t N = std::min(ChunkBytes, Bytes - Off);
    parallelCopy(Pinned[B], static_cast<const char *>(Src) + Off, N);
    if (Status S = check(D.cuMemcpyHtoDAsync(Dst + Off, Pinned[B], N, Stream),
                         "cuMemcpyHtoDAsync");
        !S)
      return S;
    if (Status S = check(D.cuEventRecord(Done[B], Stream), "cuEventRecord"); !S)
      return S;
  }
  // The staging buffers are reused by the next copy, which waits on their
  // events; the caller's memory is free now.
  return Status::success();
}

Status StagingPool::toHost(void *Dst, CUdeviceptr Src, uint64_t Bytes, CUstream Stream) {
  if (isPinned(Dst, Bytes)) {
    if (Status S = check(D.cuMemcpyDtoHAsync(Dst, Src, Bytes, Stream), "cuMemcpyDtoHAsync");
        !S)
      return S;
    return check(D.cuStreamSynchronize(Stream), "copy to the host");
  }
  if (Status S = ensureAllocated(); !S)
    return S;
  uint64_t Chunks = (Bytes + ChunkBytes - 1) / ChunkBytes;
  auto Issue = [&](uint64_t K) {
    uint64_t Off = K * ChunkBytes, N = std::min(ChunkBytes, Bytes - Off);
    unsigned B = unsigned(K % NumChunks);
    if (Status S = check(D.cuMemcpyDtoHAsync(Pinned[B], Src + Off, N, Stream),
                         "cuMemcpyDtoHAsync");
        !S)
      return S;
    return check(D.cuEventRecord(Done[B], Stream), "cuEventRecord");
  };
  // Keep every staging buffer in flight; drain them in order.
  for (uint64_t K = 0; K < std::min<uint64_t>(Chunks, NumChunks); ++K)
    if (Status S = Issue(K); !S)
      return S;
  for (uint64_t K = 0; K < Chunks; ++K) {
    unsigned B = unsigned(K % NumChunks);
    if (Status S = check(D.cuEventSynchronize(Done[B]), "copy to the host"); !S)
      return S;
    uint64_t Off = K * ChunkBytes, N = std::min(ChunkBytes, Bytes - Off);
    parallelCopy(static_cast<char *>(Dst) + Off, Pinned[B], N);
    if (K + NumChunks < Chunks)
      if (Status S = Issue(K + NumChunks); !S)
        return S;
  }
  return Status::success();
}

} // namespace skmd
