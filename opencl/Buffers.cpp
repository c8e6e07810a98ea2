//===- Buffers.cpp - Buffers and the commands that move their bytes ------- ===//
//
// A cl_mem is a BufferObject of the platform's session: reads, writes,
// copies, fills, maps and rectangles are jobs in the session's queue that
// move exactly the bytes whose newest copy is elsewhere.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "buffers/BufferObject.h"
#include <algorithm>
#include <iterator>
#include <cstring>

using namespace skmd;
using namespace skmd::opencl;

namespace {

// ---- Buffers -----------------------------------------------------------

CL_API_ENTRY cl_mem CL_API_CALL createBuffer(cl_context C, cl_mem_flags Flags, size_t Size,
                                             void *Host, cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  const cl_mem_flags Access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags HostAccess =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  const cl_mem_flags Known = Access | HostAccess | CL_MEM_USE_HOST_PTR |
                             CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
  auto Several = [](cl_mem_flags F) { return (F & (F - 1)) != 0; };
  bool UseHost = Flags & CL_MEM_USE_HOST_PTR, CopyHost = Flags & CL_MEM_COPY_HOST_PTR;
  if ((Flags & ~Known) || Several(Flags & Access) || Several(Flags & HostAccess) ||
      (UseHost && (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  if ((UseHost || CopyHost) != (Host != nullptr)) {
    setError(Err, CL_INVALID_HOST_PTR);
    return nullptr;
  }
  cl_ulong MaxAlloc = 0;
  getDeviceInfo(&TheDevice, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof MaxAlloc, &MaxAlloc, nullptr);
  if (Size == 0 || Size > MaxAlloc) {
    setError(Err, CL_INVALID_BUFFER_SIZE);
    return nullptr;
  }
  // The user's memory stays the host copy (every launch reads it and
  // writes its results back into it); otherwise SKMD's own, resident.
  auto Object = platformSession(nullptr)->createBuffer(UseHost ? Host : nullptr, Size,
                                                       CopyHost ? Host : nullptr);
  if (!Object) {
    setError(Err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return nullptr;
  }
  auto *M = new _cl_mem();
  M->Context = C;
  M->Flags = Flags;
  M->Size = Size;
  M->HostPtr = UseHost ? Host : nullptr;
  M->Object = *Object;
  C->retain();
  setError(Err, CL_SUCCESS);
  return M;
}

} // namespace

cl_int CL_API_CALL skmd::opencl::releaseMemObject(cl_mem M) {
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->release()) {
    // After the commands enqueued before that use it.
    platformSession(nullptr)->releaseBuffer(M->Object);
    // Last registered first, off the session's worker (the last release
    // may be a command's, at the end of its job).
    if (!M->Destructors.empty())
      postCallback([M, Callbacks = std::move(M->Destructors)] {
        for (auto It = Callbacks.rbegin(); It != Callbacks.rend(); ++It)
          It->first(M, It->second);
      });
    if (M->Parent)
      releaseMemObject(M->Parent);
    releaseContext(M->Context);
    delete M;
  }
  return CL_SUCCESS;
}

namespace {

/// Whether sub-buffer flags \p Sub may be asked of a buffer made with
/// \p Parent (access no wider, no host pointer flags).
bool subFlagsAllowed(cl_mem_flags Parent, cl_mem_flags Sub) {
  if (Sub & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))
    return false;
  if ((Parent & CL_MEM_WRITE_ONLY) && (Sub & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return false;
  if ((Parent & CL_MEM_READ_ONLY) && (Sub & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return false;
  if ((Parent & CL_MEM_HOST_WRITE_ONLY) && (Sub & CL_MEM_HOST_READ_ONLY))
    return false;
  if ((Parent & CL_MEM_HOST_READ_ONLY) && (Sub & CL_MEM_HOST_WRITE_ONLY))
    return false;
  if ((Parent & CL_MEM_HOST_NO_ACCESS) && (Sub & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return false;
  return true;
}

// A sub-buffer is a view of its buffer's BufferObject (Session::createView):
// the same host memory, device copies of its own, kept coherent with the
// buffer's and its siblings' whenever one of them is used.
CL_API_ENTRY cl_mem CL_API_CALL createSubBuffer(cl_mem M, cl_mem_flags Flags,
                                                cl_buffer_create_type Type, const void *Info,
                                                cl_int *Err) {
  auto Fail = [&](cl_int Code) -> cl_mem {
    setError(Err, Code);
    return nullptr;
  };
  if (!M || M->Parent)
    return Fail(CL_INVALID_MEM_OBJECT);
  const cl_mem_flags Access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags HostAccess =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  auto Several = [](cl_mem_flags F) { return (F & (F - 1)) != 0; };
  if ((Flags & ~(Access | HostAccess | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                 CL_MEM_COPY_HOST_PTR)) ||
      Several(Flags & Access) || Several(Flags & HostAccess) ||
      !subFlagsAllowed(M->Flags, Flags))
    return Fail(CL_INVALID_VALUE);
  if (Type != CL_BUFFER_CREATE_TYPE_REGION || !Info)
    return Fail(CL_INVALID_VALUE);
  const auto &Region = *static_cast<const cl_buffer_region *>(Info);
  if (Region.size == 0)
    return Fail(CL_INVALID_BUFFER_SIZE);
  if (Region.origin > M->Size || Region.size > M->Size - Region.origin)
    return Fail(CL_INVALID_VALUE);
  cl_uint AlignBits = 0;
  getDeviceInfo(&TheDevice, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof AlignBits, &AlignBits,
                nullptr);
  if (Region.origin % (AlignBits / 8))
    return Fail(CL_MISALIGNED_SUB_BUFFER_OFFSET);
  auto View = platformSession(nullptr)->createView(*M->Object, Region.origin, Region.size);
  if (!View)
    return Fail(CL_OUT_OF_RESOURCES);
  // Unspecified access and host access flags are the buffer's; the host
  // pointer flags are always the buffer's.
  cl_mem_flags Inherited = M->Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                                       CL_MEM_COPY_HOST_PTR);
  if (!(Flags & Access))
    Inherited |= M->Flags & Access;
  if (!(Flags & HostAccess))
    Inherited |= M->Flags & HostAccess;
  auto *S = new _cl_mem();
  S->Context = M->Context;
  S->Flags = Flags | Inherited;
  S->Size = Region.size;
  S->HostPtr = M->HostPtr ? static_cast<char *>(M->HostPtr) + Region.origin : nullptr;
  S->Object = *View;
  S->Parent = M;
  S->Origin = Region.origin;
  M->retain();
  M->Context->retain();
  setError(Err, CL_SUCCESS);
  return S;
}

// No image support: no format is supported, which is an answer, not an
// error (clinfo and portable programs ask before creating images).
CL_API_ENTRY cl_int CL_API_CALL getSupportedImageFormats(cl_context C, cl_mem_flags,
                                                         cl_mem_object_type Type,
                                                         cl_uint NumEntries,
                                                         cl_image_format *Formats,
                                                         cl_uint *NumFormats) {
  if (!C)
    return CL_INVALID_CONTEXT;
  const cl_mem_object_type Images[] = {CL_MEM_OBJECT_IMAGE1D,        CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                       CL_MEM_OBJECT_IMAGE1D_ARRAY,  CL_MEM_OBJECT_IMAGE2D,
                                       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  if (std::find(std::begin(Images), std::end(Images), Type) == std::end(Images) ||
      (NumEntries == 0 && Formats))
    return CL_INVALID_VALUE;
  if (NumFormats)
    *NumFormats = 0;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL setMemObjectDestructorCallback(
    cl_mem M, void(CL_CALLBACK *Fn)(cl_mem, void *), void *Data) {
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (!Fn)
    return CL_INVALID_VALUE;
  M->Destructors.push_back({Fn, Data});
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL getMemObjectInfo(cl_mem M, cl_mem_info Param, size_t Size,
                                                 void *Out, size_t *SizeRet) {
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  switch (Param) {
  case CL_MEM_TYPE:
    return put(cl_mem_object_type(CL_MEM_OBJECT_BUFFER), Size, Out, SizeRet);
  case CL_MEM_FLAGS:
    return put(M->Flags, Size, Out, SizeRet);
  case CL_MEM_SIZE:
    return put(M->Size, Size, Out, SizeRet);
  case CL_MEM_HOST_PTR:
    return put(M->HostPtr, Size, Out, SizeRet);
  case CL_MEM_MAP_COUNT: {
    std::lock_guard<std::mutex> Hold(M->MapLock);
    return put(cl_uint(M->Maps.size()), Size, Out, SizeRet);
  }
  case CL_MEM_REFERENCE_COUNT:
    return put(cl_uint(M->Refs), Size, Out, SizeRet);
  case CL_MEM_CONTEXT:
    return put(M->Context, Size, Out, SizeRet);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return put(M->Parent, Size, Out, SizeRet);
  case CL_MEM_OFFSET:
    return put(M->Origin, Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

/// The buffer a sub-buffer is a region of, or the buffer itself.
cl_mem root(cl_mem M) { return M->Parent ? M->Parent : M; }

/// Whether the host may read (\p Read) or write \p M's bytes through the
/// queue (CL_MEM_HOST_* flags; a sub-buffer without its own has its
/// buffer's).
bool hostMay(cl_mem M, bool Read) {
  const cl_mem_flags Host =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  cl_mem_flags F = M->Flags & Host;
  if (!F && M->Parent)
    F = M->Parent->Flags & Host;
  if (F & CL_MEM_HOST_NO_ACCESS)
    return false;
  return !(F & (Read ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY));
}

cl_int checkTransfer(cl_command_queue Q, cl_mem M, size_t Offset, size_t Size,
                     const void *Ptr, cl_uint NWait, const cl_event *Wait) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  if (!Ptr || Offset > M->Size || Size > M->Size - Offset)
    return CL_INVALID_VALUE;
  return checkWaitList(Q, NWait, Wait);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueReadBuffer(cl_command_queue Q, cl_mem M,
                                                  cl_bool Blocking, size_t Offset, size_t Size,
                                                  void *Ptr, cl_uint NWait,
                                                  const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkTransfer(Q, M, Offset, Size, Ptr, NWait, Wait); E != CL_SUCCESS)
    return E;
  if (!hostMay(M, true))
    return CL_INVALID_OPERATION;
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_READ_BUFFER, waitList(NWait, Wait), Blocking, Event,
                    [B, Offset, Size, Ptr] {
                      return platformSession(nullptr)->readNow(*B, Offset, Size, Ptr);
                    },
                    holding({M}));
}

CL_API_ENTRY cl_int CL_API_CALL enqueueWriteBuffer(cl_command_queue Q, cl_mem M,
                                                   cl_bool Blocking, size_t Offset,
                                                   size_t Size, const void *Ptr,
                                                   cl_uint NWait, const cl_event *Wait,
                                                   cl_event *Event) {
  if (cl_int E = checkTransfer(Q, M, Offset, Size, Ptr, NWait, Wait); E != CL_SUCCESS)
    return E;
  if (!hostMay(M, false))
    return CL_INVALID_OPERATION;
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_WRITE_BUFFER, waitList(NWait, Wait), Blocking, Event,
                    [B, Offset, Size, Ptr] {
                      return platformSession(nullptr)->writeNow(*B, Offset, Size, Ptr);
                    },
                    holding({M}));
}

CL_API_ENTRY cl_int CL_API_CALL enqueueCopyBuffer(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                                  size_t SrcOffset, size_t DstOffset,
                                                  size_t Size, cl_uint NWait,
                                                  const cl_event *Wait, cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!Src || !Dst)
    return CL_INVALID_MEM_OBJECT;
  if (Src->Context != Q->Context || Dst->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  if (SrcOffset > Src->Size || Size > Src->Size - SrcOffset || DstOffset > Dst->Size ||
      Size > Dst->Size - DstOffset)
    return CL_INVALID_VALUE;
  // Sub-buffers of one buffer overlap where their bytes in it do.
  size_t From0 = SrcOffset + Src->Origin, To0 = DstOffset + Dst->Origin;
  if (root(Src) == root(Dst) && From0 < To0 + Size && To0 < From0 + Size)
    return CL_MEM_COPY_OVERLAP;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  BufferObject *From = Src->Object, *To = Dst->Object;
  // Through the host: the source's current bytes, then the destination's.
  return enqueueJob(Q, CL_COMMAND_COPY_BUFFER, waitList(NWait, Wait), false, Event,
                    [From, To, SrcOffset, DstOffset, Size] {
                      std::vector<uint8_t> Bytes(Size);
                      Session &S = *platformSession(nullptr);
                      Status R = S.readNow(*From, SrcOffset, Size, Bytes.data());
                      return R ? S.writeNow(*To, DstOffset, Size, Bytes.data()) : R;
                    },
                    holding({Src, Dst}));
}

CL_API_ENTRY cl_int CL_API_CALL enqueueFillBuffer(cl_command_queue Q, cl_mem M,
                                                  const void *Pattern, size_t PatternSize,
                                                  size_t Offset, size_t Size, cl_uint NWait,
                                                  const cl_event *Wait, cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  bool PowerOfTwo = PatternSize && !(PatternSize & (PatternSize - 1));
  if (!Pattern || !PowerOfTwo || PatternSize > 128 || Offset % PatternSize ||
      Size % PatternSize || Offset > M->Size || Size > M->Size - Offset)
    return CL_INVALID_VALUE;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  std::vector<uint8_t> Bytes(Size);
  for (size_t I = 0; I < Size; I += PatternSize)
    std::memcpy(Bytes.data() + I, Pattern, PatternSize);
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_FILL_BUFFER, waitList(NWait, Wait), false, Event,
                    [B, Offset, Bytes = std::move(Bytes)] {
                      return platformSession(nullptr)->writeNow(*B, Offset, Bytes.size(),
                                                                Bytes.data());
                    },
                    holding({M}));
}

// A mapping is the buffer's host copy itself: mapping brings its stale
// ranges there (in the command's turn), unmapping after a write marks them
// written, so devices' copies of them are stale.
CL_API_ENTRY void *CL_API_CALL enqueueMapBuffer(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                                cl_map_flags Flags, size_t Offset, size_t Size,
                                                cl_uint NWait, const cl_event *Wait,
                                                cl_event *Event, cl_int *Err) {
  auto Fail = [&](cl_int Code) -> void * {
    setError(Err, Code);
    return nullptr;
  };
  if (!Q)
    return Fail(CL_INVALID_COMMAND_QUEUE);
  if (!M)
    return Fail(CL_INVALID_MEM_OBJECT);
  if (M->Context != Q->Context)
    return Fail(CL_INVALID_CONTEXT);
  const cl_map_flags Known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((Flags & ~Known) ||
      ((Flags & CL_MAP_WRITE_INVALIDATE_REGION) && (Flags & (CL_MAP_READ | CL_MAP_WRITE))) ||
      Size == 0 || Offset > M->Size || Size > M->Size - Offset)
    return Fail(CL_INVALID_VALUE);
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return Fail(E);
  BufferObject *B = M->Object;
  void *Ptr = static_cast<char *>(B->host()) + Offset;
  bool Writes = Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  bool Fetch = !(Flags & CL_MAP_WRITE_INVALIDATE_REGION);
  {
    std::lock_guard<std::mutex> Hold(M->MapLock);
    M->Maps.push_back({Ptr, Offset, Size, Writes});
  }
  cl_int E = enqueueJob(Q, CL_COMMAND_MAP_BUFFER, waitList(NWait, Wait), Blocking, Event,
                        [B, Offset, Size, Ptr, Fetch] {
                          if (!Fetch)
                            return Status::success();
                          return platformSession(nullptr)->readNow(*B, Offset, Size, Ptr);
                        },
                    holding({M}));
  if (E != CL_SUCCESS) {
    std::lock_guard<std::mutex> Hold(M->MapLock);
    M->Maps.pop_back();
    return Fail(E);
  }
  setError(Err, CL_SUCCESS);
  return Ptr;
}

CL_API_ENTRY cl_int CL_API_CALL enqueueUnmapMemObject(cl_command_queue Q, cl_mem M, void *Ptr,
                                                      cl_uint NWait, const cl_event *Wait,
                                                      cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  _cl_mem::Mapping Map;
  {
    std::lock_guard<std::mutex> Hold(M->MapLock);
    auto It = std::find_if(M->Maps.begin(), M->Maps.end(),
                           [&](const _cl_mem::Mapping &X) { return X.Ptr == Ptr; });
    if (It == M->Maps.end())
      return CL_INVALID_VALUE;
    Map = *It;
    M->Maps.erase(It);
  }
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_UNMAP_MEM_OBJECT, waitList(NWait, Wait), false, Event,
                    [B, Map] {
                      if (!Map.Writes)
                        return Status::success();
                      return platformSession(nullptr)->writeNow(*B, Map.Offset, Map.Size,
                                                                Map.Ptr);
                    },
                    holding({M}));
}

// ---- Migration -------------------------------------------------------------

// A placement hint. Toward the host, the buffers' newest bytes come back
// there (a later map or read finds them in place); toward the device, the
// launches that use the buffers move what they need where the plan puts
// them, so there is nothing to do before the plan is known. The bytes are
// kept either way, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED included.
CL_API_ENTRY cl_int CL_API_CALL enqueueMigrateMemObjects(cl_command_queue Q, cl_uint N,
                                                         const cl_mem *Mems,
                                                         cl_mem_migration_flags Flags,
                                                         cl_uint NWait, const cl_event *Wait,
                                                         cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (N == 0 || !Mems)
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I) {
    if (!Mems[I])
      return CL_INVALID_MEM_OBJECT;
    if (Mems[I]->Context != Q->Context)
      return CL_INVALID_CONTEXT;
  }
  const cl_mem_migration_flags Known =
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  if (Flags & ~Known)
    return CL_INVALID_VALUE;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  auto Uses = std::make_shared<Held>();
  std::vector<BufferObject *> Objects;
  for (cl_uint I = 0; I < N; ++I) {
    Uses->hold(Mems[I]);
    Objects.push_back(Mems[I]->Object);
  }
  bool ToHost = Flags & CL_MIGRATE_MEM_OBJECT_HOST;
  return enqueueJob(Q, CL_COMMAND_MIGRATE_MEM_OBJECTS, waitList(NWait, Wait), false, Event,
                    [Objects, ToHost] {
                      if (!ToHost)
                        return Status::success();
                      Session &S = *platformSession(nullptr);
                      for (BufferObject *B : Objects)
                        if (Status St = S.readNow(*B, 0, B->bytes(), B->host()); !St)
                          return St;
                      return Status::success();
                    },
                    std::move(Uses));
}

// ---- Rectangular transfers -----------------------------------------------

/// A rectangle's rows, as byte offsets in a buffer and in host memory
/// (OpenCL's origin, region and pitches, 0 pitches meaning packed).
struct RectRows {
  size_t Row = 0, BufferFirst = 0, HostFirst = 0;
  size_t BufferRowPitch = 0, BufferSlicePitch = 0, HostRowPitch = 0, HostSlicePitch = 0;
  size_t Rows = 0, Slices = 0;
  size_t bufferAt(size_t Y, size_t Z) const {
    return BufferFirst + Y * BufferRowPitch + Z * BufferSlicePitch;
  }
  size_t hostAt(size_t Y, size_t Z) const {
    return HostFirst + Y * HostRowPitch + Z * HostSlicePitch;
  }
};

cl_int rectRows(const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region,
                size_t BufferRowPitch, size_t BufferSlicePitch, size_t HostRowPitch,
                size_t HostSlicePitch, size_t BufferSize, RectRows &R) {
  if (!BufferOrigin || !HostOrigin || !Region || !Region[0] || !Region[1] || !Region[2])
    return CL_INVALID_VALUE;
  R.Row = Region[0];
  R.Rows = Region[1];
  R.Slices = Region[2];
  R.BufferRowPitch = BufferRowPitch ? BufferRowPitch : Region[0];
  R.BufferSlicePitch = BufferSlicePitch ? BufferSlicePitch : Region[1] * R.BufferRowPitch;
  R.HostRowPitch = HostRowPitch ? HostRowPitch : Region[0];
  R.HostSlicePitch = HostSlicePitch ? HostSlicePitch : Region[1] * R.HostRowPitch;
  if (R.BufferRowPitch < Region[0] || R.HostRowPitch < Region[0] ||
      R.BufferSlicePitch < Region[1] * R.BufferRowPitch ||
      R.HostSlicePitch < Region[1] * R.HostRowPitch ||
      (BufferSlicePitch && BufferSlicePitch % R.BufferRowPitch) ||
      (HostSlicePitch && HostSlicePitch % R.HostRowPitch))
    return CL_INVALID_VALUE;
  R.BufferFirst = BufferOrigin[2] * R.BufferSlicePitch + BufferOrigin[1] * R.BufferRowPitch +
                  BufferOrigin[0];
  R.HostFirst =
      HostOrigin[2] * R.HostSlicePitch + HostOrigin[1] * R.HostRowPitch + HostOrigin[0];
  size_t Last = R.bufferAt(R.Rows - 1, R.Slices - 1) + R.Row;
  return Last > BufferSize ? CL_INVALID_VALUE : CL_SUCCESS;
}

/// A rectangular read (\p Host is the destination) or write, row by row
/// in the command's turn.
cl_int enqueueRect(cl_command_queue Q, cl_mem M, bool Read, cl_bool Blocking,
                   const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region,
                   size_t BufferRowPitch, size_t BufferSlicePitch, size_t HostRowPitch,
                   size_t HostSlicePitch, char *Host, cl_uint NWait, const cl_event *Wait,
                   cl_event *Event) {
  if (cl_int E = checkTransfer(Q, M, 0, 0, Host, NWait, Wait); E != CL_SUCCESS)
    return E;
  if (!hostMay(M, Read))
    return CL_INVALID_OPERATION;
  RectRows R;
  if (cl_int E = rectRows(BufferOrigin, HostOrigin, Region, BufferRowPitch, BufferSlicePitch,
                          HostRowPitch, HostSlicePitch, M->Size, R);
      E != CL_SUCCESS)
    return E;
  BufferObject *B = M->Object;
  return enqueueJob(Q, Read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
                    waitList(NWait, Wait), Blocking, Event, [B, R, Host, Read] {
                      Session &S = *platformSession(nullptr);
                      for (size_t Z = 0; Z < R.Slices; ++Z)
                        for (size_t Y = 0; Y < R.Rows; ++Y) {
                          char *At = Host + R.hostAt(Y, Z);
                          Status St = Read ? S.readNow(*B, R.bufferAt(Y, Z), R.Row, At)
                                           : S.writeNow(*B, R.bufferAt(Y, Z), R.Row, At);
                          if (!St)
                            return St;
                        }
                      return Status::success();
                    },
                    holding({M}));
}

CL_API_ENTRY cl_int CL_API_CALL enqueueCopyBufferRect(
    cl_command_queue Q, cl_mem Src, cl_mem Dst, const size_t *SrcOrigin, const size_t *DstOrigin,
    const size_t *Region, size_t SrcRowPitch, size_t SrcSlicePitch, size_t DstRowPitch,
    size_t DstSlicePitch, cl_uint NWait, const cl_event *Wait, cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!Src || !Dst)
    return CL_INVALID_MEM_OBJECT;
  if (Src->Context != Q->Context || Dst->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  // The destination is rectRows' "host" side, checked against its size.
  RectRows R;
  if (cl_int E = rectRows(SrcOrigin, DstOrigin, Region, SrcRowPitch, SrcSlicePitch, DstRowPitch,
                          DstSlicePitch, Src->Size, R);
      E != CL_SUCCESS)
    return E;
  if (R.hostAt(R.Rows - 1, R.Slices - 1) + R.Row > Dst->Size)
    return CL_INVALID_VALUE;
  // The same buffer (or sub-buffers of one) with both pitch pairs equal
  // must not overlap at all (the specification); otherwise no source row
  // may share a byte with a destination row.
  if (root(Src) == root(Dst)) {
    if (Src == Dst && (R.BufferRowPitch != R.HostRowPitch &&
                       R.BufferSlicePitch != R.HostSlicePitch))
      return CL_INVALID_VALUE;
    IntervalSet From, To;
    for (size_t Z = 0; Z < R.Slices; ++Z)
      for (size_t Y = 0; Y < R.Rows; ++Y) {
        From.add(int64_t(Src->Origin + R.bufferAt(Y, Z)), int64_t(Src->Origin + R.bufferAt(Y, Z) + R.Row));
        To.add(int64_t(Dst->Origin + R.hostAt(Y, Z)), int64_t(Dst->Origin + R.hostAt(Y, Z) + R.Row));
      }
    if (!IntervalSet::intersect(From, To).empty())
      return CL_MEM_COPY_OVERLAP;
  }
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  BufferObject *From = Src->Object, *To = Dst->Object;
  return enqueueJob(Q, CL_COMMAND_COPY_BUFFER_RECT, waitList(NWait, Wait), false, Event,
                    [From, To, R] {
                      Session &S = *platformSession(nullptr);
                      std::vector<uint8_t> Row(R.Row);
                      for (size_t Z = 0; Z < R.Slices; ++Z)
                        for (size_t Y = 0; Y < R.Rows; ++Y) {
                          Status St = S.readNow(*From, R.bufferAt(Y, Z), R.Row, Row.data());
                          if (St)
                            St = S.writeNow(*To, R.hostAt(Y, Z), R.Row, Row.data());
                          if (!St)
                            return St;
                        }
                      return Status::success();
                    },
                    holding({Src, Dst}));
}

CL_API_ENTRY cl_int CL_API_CALL enqueueReadBufferRect(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *BufferOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufferRowPitch,
    size_t BufferSlicePitch, size_t HostRowPitch, size_t HostSlicePitch, void *Ptr,
    cl_uint NWait, const cl_event *Wait, cl_event *Event) {
  return enqueueRect(Q, M, true, Blocking, BufferOrigin, HostOrigin, Region, BufferRowPitch,
                     BufferSlicePitch, HostRowPitch, HostSlicePitch, static_cast<char *>(Ptr),
                     NWait, Wait, Event);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueWriteBufferRect(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *BufferOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufferRowPitch,
    size_t BufferSlicePitch, size_t HostRowPitch, size_t HostSlicePitch, const void *Ptr,
    cl_uint NWait, const cl_event *Wait, cl_event *Event) {
  // Only read from: the job writes the buffer from it.
  return enqueueRect(Q, M, false, Blocking, BufferOrigin, HostOrigin, Region, BufferRowPitch,
                     BufferSlicePitch, HostRowPitch, HostSlicePitch,
                     const_cast<char *>(static_cast<const char *>(Ptr)), NWait, Wait, Event);
}

} // namespace

void skmd::opencl::fillBufferEntries(cl_icd_dispatch &T) {
  T.clCreateBuffer = createBuffer;
  T.clReleaseMemObject = releaseMemObject;
  T.clCreateSubBuffer = createSubBuffer;
  T.clSetMemObjectDestructorCallback = setMemObjectDestructorCallback;
  T.clGetSupportedImageFormats = getSupportedImageFormats;
  T.clGetMemObjectInfo = getMemObjectInfo;
  T.clEnqueueReadBuffer = enqueueReadBuffer;
  T.clEnqueueMigrateMemObjects = enqueueMigrateMemObjects;
  T.clEnqueueWriteBuffer = enqueueWriteBuffer;
  T.clEnqueueCopyBuffer = enqueueCopyBuffer;
  T.clEnqueueFillBuffer = enqueueFillBuffer;
  T.clEnqueueMapBuffer = enqueueMapBuffer;
  T.clEnqueueUnmapMemObject = enqueueUnmapMemObject;
  T.clEnqueueReadBufferRect = enqueueReadBufferRect;
  T.clEnqueueWriteBufferRect = enqueueWriteBufferRect;
  T.clEnqueueCopyBufferRect = enqueueCopyBufferRect;
}
