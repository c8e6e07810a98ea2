//===- StagingPool.cpp - Pageable copies through pinned chunks ------------===//
#include "devices/cuda/StagingPool.h"
#include "devices/HostCores.h"
#include "devices/StreamCopy.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace skmd {

namespace {

/// Page-locked ranges by their start. Never destroyed: a session that is
/// itself a static (the OpenCL platform's) is destroyed at exit after
/// statics made after it, this one among them, and its worker and
/// destructor still free page-locked blocks then.
struct PinnedRanges {
  std::mutex Lock;
  std::map<uintptr_t, uint64_t> Ranges;
};
PinnedRanges &pinnedRanges() {
  static PinnedRanges *const Ranges = new PinnedRanges();
  return *Ranges;
}

} // namespace

void notePinned(const void *Ptr, uint64_t Bytes) {
  PinnedRanges &Pinned = pinnedRanges();
  std::lock_guard<std::mutex> Hold(Pinned.Lock);
  Pinned.Ranges[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
}

void forgetPinned(const void *Ptr) {
  PinnedRanges &Pinned = pinnedRanges();
  std::lock_guard<std::mutex> Hold(Pinned.Lock);
  Pinned.Ranges.erase(reinterpret_cast<uintptr_t>(Ptr));
}

bool isPinned(const void *Ptr, uint64_t Bytes) {
  PinnedRanges &Pinned = pinnedRanges();
  std::lock_guard<std::mutex> Hold(Pinned.Lock);
  auto &R = Pinned.Ranges;
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = R.upper_bound(P);
  if (It == R.begin())
    return false;
  --It;
  return P + Bytes <= It->first + It->second;
}

StagingPool::StagingPool(const CudaDriver &D, uint64_t ChunkBytes, unsigned CopyThreads)
    : D(D), ChunkBytes(ChunkBytes), Copiers(std::max(1u, CopyThreads)),
      Turn(Copiers.size(), 0) {}

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
  // Two buffers per copier: it fills one while the other's DMA runs.
  unsigned N = 2 * Copiers.size();
  std::vector<void *> Buffers(N, nullptr);
  std::vector<CUevent> Events(N, nullptr);
  Status S = Status::success();
  for (unsigned I = 0; I < N && S; ++I) {
    S = check(D.cuMemHostAlloc(&Buffers[I], ChunkBytes, CU_MEMHOSTALLOC_PORTABLE),
              "allocating pinned staging memory");
    if (S)
      S = check(D.cuEventCreate(&Events[I], CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  }
  if (!S) {
    // None of it kept: the next copy tries again, where a pool half made
    // would hand a copier a null buffer.
    for (CUevent E : Events)
      if (E)
        D.cuEventDestroy(E);
    for (void *P : Buffers)
      if (P)
        D.cuMemFreeHost(P);
    return S;
  }
  Pinned = std::move(Buffers);
  Done = std::move(Events);
  return Status::success();
}

std::vector<std::pair<uint64_t, uint64_t>> stagingChunks(uint64_t Bytes,
                                                         uint64_t ChunkBytes) {
  std::vector<std::pair<uint64_t, uint64_t>> Pieces, Tail;
  uint64_t Off = 0, End = Bytes;
  for (uint64_t Size = std::max<uint64_t>(ChunkBytes / 8, 1); Size < ChunkBytes;
       Size *= 2) {
    if (End - Off < 4 * Size)
      break;
    Pieces.push_back({Off, Size});
    Off += Size;
    End -= Size;
    Tail.push_back({End, Size});
  }
  for (; Off < End; Off += ChunkBytes)
    Pieces.push_back({Off, std::min(ChunkBytes, End - Off)});
  Pieces.insert(Pieces.end(), Tail.rbegin(), Tail.rend());
  return Pieces;
}

Status StagingPool::forEachPiece(
    const std::vector<std::pair<uint64_t, uint64_t>> &Pieces, CUcontext Ctx,
    const std::function<Status(unsigned, uint64_t, uint64_t)> &Body) {
  std::lock_guard<std::mutex> Hold(OneCopy);
  if (Status S = ensureAllocated(); !S)
    return S;
  std::mutex ErrorLock;
  Status First;
  // The copiers' cores, from the CPU device's for as long as they copy.
  auto Cores = HostCores::instance().borrow(
      unsigned(std::min<uint64_t>(Copiers.size(), Pieces.size())));
  Copiers.parallelFor(Pieces.size(), 1, [&](unsigned Worker, uint64_t Begin,
                                             uint64_t End) {
    // Driver calls need the device's context on this thread.
    if (CUresult R = D.cuCtxSetCurrent(Ctx)) {
      std::lock_guard<std::mutex> Hold(ErrorLock);
      if (First)
        First = check(R, "cuCtxSetCurrent");
      return;
    }
    for (uint64_t K = Begin; K < End; ++K) {
      unsigned Buffer = 2 * Worker + (Turn[Worker]++ & 1);
      Status S = Body(Buffer, Pieces[K].first, Pieces[K].second);
      if (!S) {
        std::lock_guard<std::mutex> Hold(ErrorLock);
        if (First)
          First = S;
      }
    }
  });
  return First;
}

Status StagingPool::toDevice(CUdeviceptr Dst, const void *Src, uint64_t Bytes,
                             CUstream Stream, CUcontext Ctx) {
  if (isPinned(Src, Bytes))
    return check(D.cuMemcpyHtoDAsync(Dst, Src, Bytes, Stream), "cuMemcpyHtoDAsync");
  return forEachPiece(stagingChunks(Bytes, ChunkBytes), Ctx,
                      [&](unsigned B, uint64_t Off, uint64_t N) {
    // The buffer is free once its last DMA finished (an event never
    // recorded is complete).
    if (Status S = check(D.cuEventSynchronize(Done[B]), "waiting for a copy"); !S)
      return S;
    // Plain stores here: the chunk stays in the last-level cache, where
    // the DMA engine's reads find it (non-temporal stores sent it to DRAM
    // and the copy reached 68-74% of pinned speed instead of 83-88%).
    std::memcpy(Pinned[B], static_cast<const char *>(Src) + Off, N);
    if (Status S = check(D.cuMemcpyHtoDAsync(Dst + Off, Pinned[B], N, Stream),
                         "cuMemcpyHtoDAsync");
        !S)
      return S;
    return check(D.cuEventRecord(Done[B], Stream), "cuEventRecord");
  });
}

Status StagingPool::toHost(void *Dst, CUdeviceptr Src, uint64_t Bytes, CUstream Stream,
                           CUcontext Ctx, bool Wait) {
  if (isPinned(Dst, Bytes)) {
    if (Status S = check(D.cuMemcpyDtoHAsync(Dst, Src, Bytes, Stream), "cuMemcpyDtoHAsync");
        !S || !Wait)
      return S;
    return check(D.cuStreamSynchronize(Stream), "copy to the host");
  }
  return forEachPiece(stagingChunks(Bytes, ChunkBytes), Ctx,
                      [&](unsigned B, uint64_t Off, uint64_t N) {
    if (Status S = check(D.cuMemcpyDtoHAsync(Pinned[B], Src + Off, N, Stream),
                         "cuMemcpyDtoHAsync");
        !S)
      return S;
    if (Status S = check(D.cuEventRecord(Done[B], Stream), "cuEventRecord"); !S)
      return S;
    if (Status S = check(D.cuEventSynchronize(Done[B]), "copy to the host"); !S)
      return S;
    streamCopy(static_cast<char *>(Dst) + Off, Pinned[B], N);
    return Status::success();
  });
}

bool StagingPool::gathered(const Rect &R) const {
  // One row, or rows too long to gather: they go one by one through the
  // plain path.
  return R.Rows > 1 && R.RowBytes * 2 <= ChunkBytes;
}

std::vector<std::pair<uint64_t, uint64_t>> StagingPool::rowPieces(const Rect &R) const {
  uint64_t PerChunk = std::max<uint64_t>(1, ChunkBytes / std::max<uint64_t>(R.RowBytes, 1));
  std::vector<std::pair<uint64_t, uint64_t>> Pieces;
  for (uint64_t Row = 0; Row < R.Rows; Row += PerChunk)
    Pieces.push_back({Row, std::min(PerChunk, R.Rows - Row)});
  return Pieces;
}

Status StagingPool::toDeviceRect(CUdeviceptr Dst, const void *Src, const Rect &R,
                                 CUstream Stream, CUcontext Ctx) {
  auto *From = static_cast<const char *>(Src);
  CudaMemcpy2D C;
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstPitch = R.Pitch;
  C.WidthInBytes = R.RowBytes;
  if (isPinned(From + R.Offset, R.end() - R.Offset)) {
    C.srcHost = From + R.Offset;
    C.srcPitch = R.Pitch;
    C.dstDevice = Dst + R.Offset;
    C.Height = R.Rows;
    return check(D.cuMemcpy2DAsync(&C, Stream), "cuMemcpy2DAsync");
  }
  if (!gathered(R))
    return R.eachRow([&](uint64_t At) {
      return toDevice(Dst + At, From + At, R.RowBytes, Stream, Ctx);
    });
  return forEachPiece(rowPieces(R), Ctx, [&](unsigned B, uint64_t First, uint64_t Rows) {
    if (Status S = check(D.cuEventSynchronize(Done[B]), "waiting for a copy"); !S)
      return S;
    auto *Staged = static_cast<char *>(Pinned[B]);
    for (uint64_t Row = 0; Row < Rows; ++Row)
      std::memcpy(Staged + Row * R.RowBytes, From + R.Offset + (First + Row) * R.Pitch,
                  R.RowBytes);
    CudaMemcpy2D Piece = C;
    Piece.srcHost = Staged;
    Piece.srcPitch = R.RowBytes;
    Piece.dstDevice = Dst + R.Offset + First * R.Pitch;
    Piece.Height = Rows;
    if (Status S = check(D.cuMemcpy2DAsync(&Piece, Stream), "cuMemcpy2DAsync"); !S)
      return S;
    return check(D.cuEventRecord(Done[B], Stream), "cuEventRecord");
  });
}

Status StagingPool::toHostRect(void *Dst, CUdeviceptr Src, const Rect &R,
                               CUstream Stream, CUcontext Ctx, bool Wait) {
  auto *To = static_cast<char *>(Dst);
  CudaMemcpy2D C;
  C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  C.srcPitch = R.Pitch;
  C.WidthInBytes = R.RowBytes;
  if (isPinned(To + R.Offset, R.end() - R.Offset)) {
    C.srcDevice = Src + R.Offset;
    C.dstHost = To + R.Offset;
    C.dstPitch = R.Pitch;
    C.Height = R.Rows;
    if (Status S = check(D.cuMemcpy2DAsync(&C, Stream), "cuMemcpy2DAsync"); !S || !Wait)
      return S;
    return check(D.cuStreamSynchronize(Stream), "copy to the host");
  }
  if (!gathered(R))
    return R.eachRow([&](uint64_t At) {
      return toHost(To + At, Src + At, R.RowBytes, Stream, Ctx, Wait);
    });
  return forEachPiece(rowPieces(R), Ctx, [&](unsigned B, uint64_t First, uint64_t Rows) {
    auto *Staged = static_cast<char *>(Pinned[B]);
    CudaMemcpy2D Piece = C;
    Piece.srcDevice = Src + R.Offset + First * R.Pitch;
    Piece.dstHost = Staged;
    Piece.dstPitch = R.RowBytes;
    Piece.Height = Rows;
    if (Status S = check(D.cuMemcpy2DAsync(&Piece, Stream), "cuMemcpy2DAsync"); !S)
      return S;
    if (Status S = check(D.cuEventRecord(Done[B], Stream), "cuEventRecord"); !S)
      return S;
    if (Status S = check(D.cuEventSynchronize(Done[B]), "copy to the host"); !S)
      return S;
    for (uint64_t Row = 0; Row < Rows; ++Row)
      std::memcpy(To + R.Offset + (First + Row) * R.Pitch, Staged + Row * R.RowBytes,
                  R.RowBytes);
    return Status::success();
  });
}

} // namespace skmd
