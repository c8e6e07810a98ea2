//===- Api.cpp - Contexts, queues, buffers, programs, kernels, events -----===//
//
// OpenCL 1.2's object entry points over the platform's Session. Commands
// go through the session's FIFO queue, so a command runs after every one
// enqueued before it (in-order; an out-of-order queue is accepted and run
// in order). Reads, writes and copies are carried out before they return;
// kernel launches return at once with an event that completes when the
// launch is done. Error codes are the specification's for each check.
//
//===----------------------------------------------------------------------===//
#include "Icd.h"

#include "buffers/BufferObject.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <tuple>
#include <type_traits>

using namespace skmd;
using namespace skmd::opencl;

namespace {

template <typename T> cl_int put(const T &V, size_t Size, void *Out, size_t *SizeRet) {
  return answerBytes(&V, sizeof V, Size, Out, SizeRet);
}

void setError(cl_int *Err, cl_int Code) {
  if (Err)
    *Err = Code;
}

cl_ulong nowNs() {
  return cl_ulong(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

/// What a command's job waits for: the futures of its wait list's events
/// (copies: the events may be released before the job runs).
using WaitList = std::vector<std::shared_future<Status>>;

/// The failure of a command whose wait list held a failed event.
const char *const WaitListFailed = "an event in the wait list failed";

cl_int checkWaitList(cl_uint N, const cl_event *List) {
  if ((N == 0) != (List == nullptr))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint I = 0; I < N; ++I)
    if (!List[I])
      return CL_INVALID_EVENT_WAIT_LIST;
  return CL_SUCCESS;
}

WaitList waitList(cl_uint N, const cl_event *List) {
  WaitList W;
  for (cl_uint I = 0; I < N; ++I)
    W.push_back(List[I]->Done);
  return W;
}

/// Whether \p S is a command's success: a device that failed had its
/// groups re-run, so every output is there.
bool succeeded(const Status &S) { return S || S.error().code() == ErrorCode::DeviceFailed; }

Status waitAll(const WaitList &W) {
  bool Failed = false;
  for (const auto &F : W)
    Failed |= !succeeded(F.get());
  return Failed ? Status(Failure(ErrorCode::InvalidArgument, WaitListFailed))
                : Status::success();
}

/// The OpenCL status of a finished command.
cl_int statusCode(const Status &S) {
  if (succeeded(S))
    return CL_COMPLETE;
  return S.error().message() == WaitListFailed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                               : CL_OUT_OF_RESOURCES;
}

/// The event's status now.
cl_int eventStatus(cl_event E) {
  if (E->User)
    return E->UserStatus;
  if (E->Done.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return E->Start && *E->Start ? CL_RUNNING : CL_QUEUED;
  return statusCode(E->Done.get());
}

cl_int waitFor(cl_uint N, const cl_event *List) {
  cl_int Result = CL_SUCCESS;
  for (cl_uint I = 0; I < N; ++I) {
    List[I]->Done.wait();
    if (eventStatus(List[I]) < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return Result;
}

/// Runs \p Job in the session's queue after the wait list \p W, and gives
/// the command's event (when asked) and, for a blocking command, its
/// outcome.
cl_int enqueueJob(cl_command_queue Q, cl_command_type Type, WaitList W, bool Blocking,
                  cl_event *Event, std::function<Status()> Job,
                  std::shared_ptr<LaunchRecord> Record = nullptr) {
  auto Start = std::make_shared<std::atomic<cl_ulong>>(0);
  auto End = std::make_shared<std::atomic<cl_ulong>>(0);
  cl_ulong Queued = nowNs();
  std::shared_future<Status> Done =
      platformSession(nullptr)
          ->enqueue([W = std::move(W), Job = std::move(Job), Start, End]() -> Status {
            Status S = waitAll(W);
            *Start = nowNs();
            if (S)
              S = Job();
            *End = nowNs();
            return S;
          })
          .share();
  if (Event) {
    auto *E = new _cl_event();
    E->Context = Q->Context;
    E->Queue = Q;
    Q->retain();
    Q->Context->retain();
    E->Type = Type;
    E->Done = Done;
    E->Record = std::move(Record);
    E->Queued = Queued;
    E->Start = Start;
    E->End = End;
    *Event = E;
  }
  if (!Blocking)
    return CL_SUCCESS;
  // A failed command's status is the error the blocking call returns.
  cl_int Code = statusCode(Done.get());
  return Code == CL_COMPLETE ? CL_SUCCESS : Code;
}

/// clRetain* of any object: \p Invalid for a null handle.
template <typename Handle, cl_int Invalid> cl_int CL_API_CALL retainObject(Handle H) {
  if (!H)
    return Invalid;
  H->retain();
  return CL_SUCCESS;
}

void releaseContext(cl_context C) {
  if (C->release())
    delete C;
}

CL_API_ENTRY cl_int CL_API_CALL releaseEvent(cl_event E);

// ---- Contexts ----------------------------------------------------------

cl_int checkDevices(cl_uint N, const cl_device_id *Devices) {
  if (N == 0 || !Devices)
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (Devices[I] != &TheDevice)
      return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

cl_context newContext(const cl_context_properties *Props,
                      void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
                      void *Data, cl_int *Err) {
  if (!Notify && Data) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  std::vector<cl_context_properties> Kept;
  for (const cl_context_properties *P = Props; P && *P; P += 2) {
    if (P[0] != CL_CONTEXT_PLATFORM && P[0] != CL_CONTEXT_INTEROP_USER_SYNC) {
      setError(Err, CL_INVALID_PROPERTY);
      return nullptr;
    }
    if (P[0] == CL_CONTEXT_PLATFORM && reinterpret_cast<cl_platform_id>(P[1]) != &ThePlatform) {
      setError(Err, CL_INVALID_PLATFORM);
      return nullptr;
    }
    Kept.push_back(P[0]);
    Kept.push_back(P[1]);
  }
  std::string Why;
  if (!platformSession(&Why)) {
    if (Notify)
      Notify(Why.c_str(), nullptr, 0, Data);
    setError(Err, CL_DEVICE_NOT_AVAILABLE);
    return nullptr;
  }
  if (!Kept.empty())
    Kept.push_back(0);
  auto *C = new _cl_context();
  C->Properties = std::move(Kept);
  C->Notify = Notify;
  C->NotifyData = Data;
  setError(Err, CL_SUCCESS);
  return C;
}

CL_API_ENTRY cl_context CL_API_CALL
createContext(const cl_context_properties *Props, cl_uint N, const cl_device_id *Devices,
              void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
              void *Data, cl_int *Err) {
  if (cl_int E = checkDevices(N, Devices); E != CL_SUCCESS) {
    setError(Err, E);
    return nullptr;
  }
  return newContext(Props, Notify, Data, Err);
}

CL_API_ENTRY cl_context CL_API_CALL
createContextFromType(const cl_context_properties *Props, cl_device_type Type,
                      void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
                      void *Data, cl_int *Err) {
  cl_uint Found = 0;
  cl_int E = getDeviceIDs(nullptr, Type, 0, nullptr, &Found);
  if (E != CL_SUCCESS) {
    setError(Err, E);
    return nullptr;
  }
  return newContext(Props, Notify, Data, Err);
}

CL_API_ENTRY cl_int CL_API_CALL releaseContextEntry(cl_context C) {
  if (!C)
    return CL_INVALID_CONTEXT;
  releaseContext(C);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL getContextInfo(cl_context C, cl_context_info Param,
                                               size_t Size, void *Out, size_t *SizeRet) {
  if (!C)
    return CL_INVALID_CONTEXT;
  switch (Param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return put(cl_uint(C->Refs), Size, Out, SizeRet);
  case CL_CONTEXT_NUM_DEVICES:
    return put(cl_uint(1), Size, Out, SizeRet);
  case CL_CONTEXT_DEVICES:
    return put(static_cast<cl_device_id>(&TheDevice), Size, Out, SizeRet);
  case CL_CONTEXT_PROPERTIES:
    return answerBytes(C->Properties.data(),
                       C->Properties.size() * sizeof(cl_context_properties), Size, Out,
                       SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

// ---- Command queues ----------------------------------------------------

CL_API_ENTRY cl_command_queue CL_API_CALL createCommandQueue(cl_context C, cl_device_id D,
                                                             cl_command_queue_properties P,
                                                             cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (D != &TheDevice) {
    setError(Err, CL_INVALID_DEVICE);
    return nullptr;
  }
  if (P & ~cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE |
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  auto *Q = new _cl_command_queue();
  Q->Context = C;
  Q->Properties = P;
  C->retain();
  setError(Err, CL_SUCCESS);
  return Q;
}

CL_API_ENTRY cl_int CL_API_CALL finish(cl_command_queue Q) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  platformSession(nullptr)->drain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL flush(cl_command_queue Q) {
  return Q ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL releaseCommandQueue(cl_command_queue Q) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (Q->release()) {
    // Releasing a queue flushes it; its commands finish first.
    platformSession(nullptr)->drain();
    releaseContext(Q->Context);
    delete Q;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL getCommandQueueInfo(cl_command_queue Q,
                                                    cl_command_queue_info Param, size_t Size,
                                                    void *Out, size_t *SizeRet) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return put(Q->Context, Size, Out, SizeRet);
  case CL_QUEUE_DEVICE:
    return put(static_cast<cl_device_id>(&TheDevice), Size, Out, SizeRet);
  case CL_QUEUE_REFERENCE_COUNT:
    return put(cl_uint(Q->Refs), Size, Out, SizeRet);
  case CL_QUEUE_PROPERTIES:
    return put(Q->Properties, Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

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

CL_API_ENTRY cl_int CL_API_CALL releaseMemObject(cl_mem M) {
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->release()) {
    // After the commands enqueued before that use it.
    platformSession(nullptr)->releaseBuffer(M->Object);
    releaseContext(M->Context);
    delete M;
  }
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
    return put(cl_mem(nullptr), Size, Out, SizeRet);
  case CL_MEM_OFFSET:
    return put(size_t(0), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
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
  return checkWaitList(NWait, Wait);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueReadBuffer(cl_command_queue Q, cl_mem M,
                                                  cl_bool Blocking, size_t Offset, size_t Size,
                                                  void *Ptr, cl_uint NWait,
                                                  const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkTransfer(Q, M, Offset, Size, Ptr, NWait, Wait); E != CL_SUCCESS)
    return E;
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_READ_BUFFER, waitList(NWait, Wait), Blocking, Event,
                    [B, Offset, Size, Ptr] {
                      return platformSession(nullptr)->readNow(*B, Offset, Size, Ptr);
                    });
}

CL_API_ENTRY cl_int CL_API_CALL enqueueWriteBuffer(cl_command_queue Q, cl_mem M,
                                                   cl_bool Blocking, size_t Offset,
                                                   size_t Size, const void *Ptr,
                                                   cl_uint NWait, const cl_event *Wait,
                                                   cl_event *Event) {
  if (cl_int E = checkTransfer(Q, M, Offset, Size, Ptr, NWait, Wait); E != CL_SUCCESS)
    return E;
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_WRITE_BUFFER, waitList(NWait, Wait), Blocking, Event,
                    [B, Offset, Size, Ptr] {
                      return platformSession(nullptr)->writeNow(*B, Offset, Size, Ptr);
                    });
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
  if (Src == Dst && SrcOffset < DstOffset + Size && DstOffset < SrcOffset + Size)
    return CL_MEM_COPY_OVERLAP;
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
    return E;
  BufferObject *From = Src->Object, *To = Dst->Object;
  // Through the host: the source's current bytes, then the destination's.
  return enqueueJob(Q, CL_COMMAND_COPY_BUFFER, waitList(NWait, Wait), false, Event,
                    [From, To, SrcOffset, DstOffset, Size] {
                      std::vector<uint8_t> Bytes(Size);
                      Session &S = *platformSession(nullptr);
                      Status R = S.readNow(*From, SrcOffset, Size, Bytes.data());
                      return R ? S.writeNow(*To, DstOffset, Size, Bytes.data()) : R;
                    });
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
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
    return E;
  std::vector<uint8_t> Bytes(Size);
  for (size_t I = 0; I < Size; I += PatternSize)
    std::memcpy(Bytes.data() + I, Pattern, PatternSize);
  BufferObject *B = M->Object;
  return enqueueJob(Q, CL_COMMAND_FILL_BUFFER, waitList(NWait, Wait), false, Event,
                    [B, Offset, Bytes = std::move(Bytes)] {
                      return platformSession(nullptr)->writeNow(*B, Offset, Bytes.size(),
                                                                Bytes.data());
                    });
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
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
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
                        });
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
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
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
                    });
}

// ---- Programs ----------------------------------------------------------

cl_program newProgram(cl_context C) {
  auto *P = new _cl_program();
  P->Context = C;
  C->retain();
  P->Loaded.Source = nullptr;
  return P;
}

cl_int adoptBundle(cl_program P, std::vector<uint8_t> Bytes) {
  P->Binary = Bytes;
  auto B = Bundle::fromBytes(std::move(Bytes));
  if (!B) {
    P->Log = B.error().message();
    return CL_INVALID_BINARY;
  }
  P->Bundle = std::make_unique<Bundle>(std::move(*B));
  P->Loaded = LoadedProgram();
  P->Loaded.Source = P->Bundle.get();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL createProgramWithSource(cl_context C, cl_uint Count,
                                                            const char **Strings,
                                                            const size_t *Lengths,
                                                            cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (Count == 0 || !Strings) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  std::string Source;
  for (cl_uint I = 0; I < Count; ++I) {
    if (!Strings[I]) {
      setError(Err, CL_INVALID_VALUE);
      return nullptr;
    }
    Source += Lengths && Lengths[I] ? std::string(Strings[I], Lengths[I])
                                    : std::string(Strings[I]);
  }
  cl_program P = newProgram(C);
  P->Source = std::move(Source);
  setError(Err, CL_SUCCESS);
  return P;
}

CL_API_ENTRY cl_program CL_API_CALL
createProgramWithBinary(cl_context C, cl_uint N, const cl_device_id *Devices,
                        const size_t *Lengths, const unsigned char **Binaries,
                        cl_int *BinaryStatus, cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (cl_int E = checkDevices(N, Devices); E != CL_SUCCESS) {
    setError(Err, E);
    return nullptr;
  }
  if (N != 1 || !Lengths || !Binaries || !Binaries[0] || !Lengths[0]) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  cl_program P = newProgram(C);
  cl_int E = adoptBundle(P, std::vector<uint8_t>(Binaries[0], Binaries[0] + Lengths[0]));
  if (BinaryStatus)
    BinaryStatus[0] = E;
  if (E != CL_SUCCESS) {
    releaseContext(C);
    delete P;
    setError(Err, E);
    return nullptr;
  }
  setError(Err, CL_SUCCESS);
  return P;
}

CL_API_ENTRY cl_int CL_API_CALL releaseProgram(cl_program P) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (P->release()) {
    platformSession(nullptr)->drain();
    releaseContext(P->Context);
    delete P;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL buildProgram(cl_program P, cl_uint N,
                                             const cl_device_id *Devices, const char *Options,
                                             void(CL_CALLBACK *Notify)(cl_program, void *),
                                             void *Data) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if ((N == 0) != (Devices == nullptr) || (!Notify && Data))
    return CL_INVALID_VALUE;
  if (N && checkDevices(N, Devices) != CL_SUCCESS)
    return CL_INVALID_DEVICE;
  if (P->Kernels)
    return CL_INVALID_OPERATION;
  P->Options = Options ? Options : "";
  cl_int Result = CL_SUCCESS;
  if (!P->Source.empty()) {
    // Without the compiler module this fails with CL_COMPILER_NOT_AVAILABLE
    // and the log says why.
    std::vector<uint8_t> Bytes;
    Result = compileSource(P->Source, P->Options, Bytes, P->Log);
    if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
      Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (!P->Bundle) {
    Result = CL_INVALID_PROGRAM;
  }
  P->Status = Result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (Notify)
    Notify(P, Data);
  return Result;
}

CL_API_ENTRY cl_int CL_API_CALL getProgramInfo(cl_program P, cl_program_info Param,
                                               size_t Size, void *Out, size_t *SizeRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return put(cl_uint(P->Refs), Size, Out, SizeRet);
  case CL_PROGRAM_CONTEXT:
    return put(P->Context, Size, Out, SizeRet);
  case CL_PROGRAM_NUM_DEVICES:
    return put(cl_uint(1), Size, Out, SizeRet);
  case CL_PROGRAM_DEVICES:
    return put(static_cast<cl_device_id>(&TheDevice), Size, Out, SizeRet);
  case CL_PROGRAM_SOURCE:
    return answerString(P->Source, Size, Out, SizeRet);
  case CL_PROGRAM_BINARY_SIZES:
    return put(size_t(P->Binary.size()), Size, Out, SizeRet);
  case CL_PROGRAM_BINARIES: {
    if (Out && Size < sizeof(unsigned char *))
      return CL_INVALID_VALUE;
    if (Out && *static_cast<unsigned char **>(Out) && !P->Binary.empty())
      std::memcpy(*static_cast<unsigned char **>(Out), P->Binary.data(), P->Binary.size());
    if (SizeRet)
      *SizeRet = sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!P->Bundle)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    const auto &Kernels = P->Bundle->metadata().Kernels;
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return put(size_t(Kernels.size()), Size, Out, SizeRet);
    std::string Names;
    for (const KernelInfo &K : Kernels)
      Names += (Names.empty() ? "" : ";") + K.Name;
    return answerString(Names, Size, Out, SizeRet);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getProgramBuildInfo(cl_program P, cl_device_id D,
                                                    cl_program_build_info Param, size_t Size,
                                                    void *Out, size_t *SizeRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (D != &TheDevice)
    return CL_INVALID_DEVICE;
  switch (Param) {
  case CL_PROGRAM_BUILD_STATUS:
    return put(P->Status, Size, Out, SizeRet);
  case CL_PROGRAM_BUILD_OPTIONS:
    return answerString(P->Options, Size, Out, SizeRet);
  case CL_PROGRAM_BUILD_LOG:
    return answerString(P->Log, Size, Out, SizeRet);
  case CL_PROGRAM_BINARY_TYPE:
    return put(cl_program_binary_type(P->Bundle ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                                : CL_PROGRAM_BINARY_TYPE_NONE),
               Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL unloadCompiler() { return CL_SUCCESS; }
CL_API_ENTRY cl_int CL_API_CALL unloadPlatformCompiler(cl_platform_id P) {
  return P == &ThePlatform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

// ---- Kernels -----------------------------------------------------------

cl_kernel newKernel(cl_program P, const KernelInfo &Info) {
  auto *K = new _cl_kernel();
  K->Program = P;
  P->retain();
  ++P->Kernels;
  K->Loaded.Source = P->Bundle.get();
  K->Loaded.Info = &Info;
  K->Loaded.Program = &P->Loaded;
  K->Args.resize(Info.Args.size());
  K->Set.assign(Info.Args.size(), false);
  return K;
}

CL_API_ENTRY cl_kernel CL_API_CALL createKernel(cl_program P, const char *Name, cl_int *Err) {
  if (!P) {
    setError(Err, CL_INVALID_PROGRAM);
    return nullptr;
  }
  if (!Name) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  if (!P->Bundle || P->Status == CL_BUILD_ERROR) {
    setError(Err, CL_INVALID_PROGRAM_EXECUTABLE);
    return nullptr;
  }
  const KernelInfo *Info = P->Bundle->metadata().findKernel(Name);
  if (!Info) {
    setError(Err, CL_INVALID_KERNEL_NAME);
    return nullptr;
  }
  setError(Err, CL_SUCCESS);
  return newKernel(P, *Info);
}

CL_API_ENTRY cl_int CL_API_CALL createKernelsInProgram(cl_program P, cl_uint N,
                                                       cl_kernel *Kernels, cl_uint *NumRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (!P->Bundle || P->Status == CL_BUILD_ERROR)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const auto &All = P->Bundle->metadata().Kernels;
  if (Kernels && N < All.size())
    return CL_INVALID_VALUE;
  if (Kernels)
    for (size_t I = 0; I < All.size(); ++I)
      Kernels[I] = newKernel(P, All[I]);
  if (NumRet)
    *NumRet = cl_uint(All.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL releaseKernel(cl_kernel K) {
  if (!K)
    return CL_INVALID_KERNEL;
  if (K->release()) {
    // Launches enqueued with it run first.
    platformSession(nullptr)->drain();
    cl_program P = K->Program;
    --P->Kernels;
    delete K;
    releaseProgram(P);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL setKernelArg(cl_kernel K, cl_uint Index, size_t Size,
                                             const void *Value) {
  if (!K)
    return CL_INVALID_KERNEL;
  const KernelInfo &Info = *K->Loaded.Info;
  if (Index >= Info.Args.size())
    return CL_INVALID_ARG_INDEX;
  const KernelArg &Want = Info.Args[Index];
  HostArg A;
  switch (Want.Kind) {
  case ArgKind::GlobalBuffer:
  case ArgKind::ConstantBuffer: {
    if (Size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    cl_mem M = Value ? *static_cast<const cl_mem *>(Value) : nullptr;
    A.K = HostArg::Buffer;
    if (M) {
      if (M->Context != K->Program->Context)
        return CL_INVALID_MEM_OBJECT;
      A.Data = M->Object->host();
      A.Bytes = M->Object->bytes();
      A.Object = M->Object;
    }
    break;
  }
  case ArgKind::LocalBuffer:
    if (Value)
      return CL_INVALID_ARG_VALUE;
    if (Size == 0)
      return CL_INVALID_ARG_SIZE;
    A.K = HostArg::Local;
    A.LocalBytes = Size;
    break;
  case ArgKind::Sampler:
    return CL_INVALID_SAMPLER;
  case ArgKind::Scalar:
    if (Size != Want.Size)
      return CL_INVALID_ARG_SIZE;
    if (!Value)
      return CL_INVALID_ARG_VALUE;
    A.K = HostArg::Scalar;
    A.Value.assign(static_cast<const uint8_t *>(Value),
                   static_cast<const uint8_t *>(Value) + Size);
    break;
  default:
    return CL_INVALID_ARG_VALUE;
  }
  K->Args[Index] = std::move(A);
  K->Set[Index] = true;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL getKernelInfo(cl_kernel K, cl_kernel_info Param, size_t Size,
                                              void *Out, size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  switch (Param) {
  case CL_KERNEL_FUNCTION_NAME:
    return answerString(K->Loaded.Info->Name, Size, Out, SizeRet);
  case CL_KERNEL_NUM_ARGS:
    return put(cl_uint(K->Loaded.Info->Args.size()), Size, Out, SizeRet);
  case CL_KERNEL_REFERENCE_COUNT:
    return put(cl_uint(K->Refs), Size, Out, SizeRet);
  case CL_KERNEL_CONTEXT:
    return put(K->Program->Context, Size, Out, SizeRet);
  case CL_KERNEL_PROGRAM:
    return put(K->Program, Size, Out, SizeRet);
  case CL_KERNEL_ATTRIBUTES:
    return answerString("", Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getKernelWorkGroupInfo(cl_kernel K, cl_device_id D,
                                                       cl_kernel_work_group_info Param,
                                                       size_t Size, void *Out,
                                                       size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  if (D && D != &TheDevice)
    return CL_INVALID_DEVICE;
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return put(size_t(1024), Size, Out, SizeRet);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t None[3] = {0, 0, 0};
    return answerBytes(None, sizeof None, Size, Out, SizeRet);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return put(cl_ulong(0), Size, Out, SizeRet);
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return put(size_t(32), Size, Out, SizeRet);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return put(cl_ulong(0), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getKernelArgInfo(cl_kernel K, cl_uint Index,
                                                 cl_kernel_arg_info Param, size_t Size,
                                                 void *Out, size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  const KernelInfo &Info = *K->Loaded.Info;
  if (Index >= Info.Args.size())
    return CL_INVALID_ARG_INDEX;
  const KernelArg &A = Info.Args[Index];
  switch (Param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier Q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (A.Kind == ArgKind::GlobalBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    else if (A.Kind == ArgKind::ConstantBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    else if (A.Kind == ArgKind::LocalBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_LOCAL;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier Q = CL_KERNEL_ARG_ACCESS_NONE;
    if (A.AccessQualifier == "read_only")
      Q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
    else if (A.AccessQualifier == "write_only")
      Q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    else if (A.AccessQualifier == "read_write")
      Q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    return answerString(A.TypeName, Size, Out, SizeRet);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier Q = CL_KERNEL_ARG_TYPE_NONE;
    if (A.IsConst || A.Kind == ArgKind::ConstantBuffer)
      Q |= CL_KERNEL_ARG_TYPE_CONST;
    if (A.IsRestrict)
      Q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (A.IsVolatile)
      Q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_NAME:
    return answerString(A.Name, Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
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
                    });
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

// ---- Launches ----------------------------------------------------------

/// A local size for \p Global when the program gives none: in each
/// dimension the largest divisor within what every device takes (the
/// product at most 256, x preferred).
std::array<size_t, 3> pickLocal(cl_uint Dims, const size_t *Global) {
  std::array<size_t, 3> Local{1, 1, 1};
  size_t Budget = 256;
  for (cl_uint D = 0; D < Dims; ++D) {
    size_t Best = 1;
    for (size_t L = std::min(Budget, Global[D]); L >= 1; --L)
      if (Global[D] % L == 0) {
        Best = L;
        break;
      }
    Local[D] = Best;
    Budget /= Best;
  }
  return Local;
}

CL_API_ENTRY cl_int CL_API_CALL enqueueNDRangeKernel(cl_command_queue Q, cl_kernel K,
                                                     cl_uint Dims, const size_t *Offset,
                                                     const size_t *Global,
                                                     const size_t *LocalIn, cl_uint NWait,
                                                     const cl_event *Wait, cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!K)
    return CL_INVALID_KERNEL;
  if (K->Program->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  if (Dims < 1 || Dims > 3)
    return CL_INVALID_WORK_DIMENSION;
  if (!Global)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint D = 0; D < Dims; ++D)
    if (Global[D] == 0)
      return CL_INVALID_GLOBAL_WORK_SIZE;
  if (std::find(K->Set.begin(), K->Set.end(), false) != K->Set.end())
    return CL_INVALID_KERNEL_ARGS;
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
    return E;
  std::array<size_t, 3> Local{1, 1, 1};
  if (LocalIn) {
    size_t Items = 1;
    for (cl_uint D = 0; D < Dims; ++D) {
      if (LocalIn[D] == 0 || Global[D] % LocalIn[D])
        return CL_INVALID_WORK_GROUP_SIZE;
      Local[D] = LocalIn[D];
      Items *= LocalIn[D];
    }
    if (Items > 1024)
      return CL_INVALID_WORK_GROUP_SIZE;
  } else {
    Local = pickLocal(Dims, Global);
  }
  NDRange Range;
  Range.WorkDim = Dims;
  for (cl_uint D = 0; D < Dims; ++D) {
    Range.GlobalOffset[D] = Offset ? Offset[D] : 0;
    Range.LocalSize[D] = Local[D];
    Range.NumGroups[D] = Global[D] / Local[D];
  }
  if (Status S = checkArgs(*K->Loaded.Info, K->Args); !S)
    return CL_INVALID_KERNEL_ARGS;
  // The arguments as they are now; the kernel's loaded forms live until
  // its release, which waits for the launches enqueued with it.
  auto Record = std::make_shared<LaunchRecord>();
  LoadedKernel *Loaded = &K->Loaded;
  return enqueueJob(Q, CL_COMMAND_NDRANGE_KERNEL, waitList(NWait, Wait), false, Event,
                    [Loaded, Args = K->Args, Range, Record] {
                      return platformSession(nullptr)->launchNow(*Loaded, Args, Range, "",
                                                                 *Record);
                    },
                    Record);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueTask(cl_command_queue Q, cl_kernel K, cl_uint NWait,
                                            const cl_event *Wait, cl_event *Event) {
  size_t One = 1;
  return enqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, NWait, Wait, Event);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueMarkerWithWaitList(cl_command_queue Q, cl_uint NWait,
                                                          const cl_event *Wait,
                                                          cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (cl_int E = checkWaitList(NWait, Wait); E != CL_SUCCESS)
    return E;
  // In order: everything before it is done when it is.
  return enqueueJob(Q, CL_COMMAND_MARKER, waitList(NWait, Wait), false, Event,
                    [] { return Status::success(); });
}

CL_API_ENTRY cl_int CL_API_CALL enqueueBarrierWithWaitList(cl_command_queue Q, cl_uint NWait,
                                                           const cl_event *Wait,
                                                           cl_event *Event) {
  return enqueueMarkerWithWaitList(Q, NWait, Wait, Event);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueMarker(cl_command_queue Q, cl_event *Event) {
  if (!Event)
    return CL_INVALID_VALUE;
  return enqueueMarkerWithWaitList(Q, 0, nullptr, Event);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueBarrier(cl_command_queue Q) {
  return enqueueMarkerWithWaitList(Q, 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueWaitForEvents(cl_command_queue Q, cl_uint N,
                                                     const cl_event *List) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (N == 0 || !List)
    return CL_INVALID_VALUE;
  if (cl_int E = checkWaitList(N, List); E != CL_SUCCESS)
    return CL_INVALID_EVENT;
  return enqueueJob(Q, CL_COMMAND_MARKER, waitList(N, List), false, nullptr,
                    [] { return Status::success(); });
}

// ---- Events ------------------------------------------------------------

CL_API_ENTRY cl_int CL_API_CALL waitForEvents(cl_uint N, const cl_event *List) {
  if (N == 0 || !List)
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (!List[I])
      return CL_INVALID_EVENT;
  return waitFor(N, List);
}

CL_API_ENTRY cl_int CL_API_CALL releaseEvent(cl_event E) {
  if (!E)
    return CL_INVALID_EVENT;
  if (E->release()) {
    if (E->Queue)
      releaseCommandQueue(E->Queue);
    releaseContext(E->Context);
    delete E;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL getEventInfo(cl_event E, cl_event_info Param, size_t Size,
                                             void *Out, size_t *SizeRet) {
  if (!E)
    return CL_INVALID_EVENT;
  switch (Param) {
  case CL_EVENT_COMMAND_QUEUE:
    return put(E->Queue, Size, Out, SizeRet);
  case CL_EVENT_CONTEXT:
    return put(E->Context, Size, Out, SizeRet);
  case CL_EVENT_COMMAND_TYPE:
    return put(E->Type, Size, Out, SizeRet);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return put(eventStatus(E), Size, Out, SizeRet);
  case CL_EVENT_REFERENCE_COUNT:
    return put(cl_uint(E->Refs), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getEventProfilingInfo(cl_event E, cl_profiling_info Param,
                                                      size_t Size, void *Out,
                                                      size_t *SizeRet) {
  if (!E)
    return CL_INVALID_EVENT;
  if (!E->Queue || !(E->Queue->Properties & CL_QUEUE_PROFILING_ENABLE) ||
      eventStatus(E) != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (Param) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
    return put(E->Queued, Size, Out, SizeRet);
  case CL_PROFILING_COMMAND_START:
    return put(cl_ulong(*E->Start), Size, Out, SizeRet);
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    return put(cl_ulong(*E->End), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_event CL_API_CALL createUserEvent(cl_context C, cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  auto *E = new _cl_event();
  E->Context = C;
  C->retain();
  E->Type = CL_COMMAND_USER;
  E->User = std::make_shared<std::promise<Status>>();
  E->Done = E->User->get_future().share();
  E->Queued = nowNs();
  setError(Err, CL_SUCCESS);
  return E;
}

CL_API_ENTRY cl_int CL_API_CALL setUserEventStatus(cl_event E, cl_int Status) {
  if (!E || !E->User)
    return CL_INVALID_EVENT;
  if (Status > CL_COMPLETE)
    return CL_INVALID_VALUE;
  cl_int Was = CL_SUBMITTED;
  if (!E->UserStatus.compare_exchange_strong(Was, Status))
    return CL_INVALID_OPERATION;
  E->User->set_value(Status == CL_COMPLETE
                         ? skmd::Status::success()
                         : skmd::Status(Failure(ErrorCode::InvalidArgument,
                                                "the user event's status is " +
                                                    std::to_string(Status))));
  return CL_SUCCESS;
}

/// Entry points of OpenCL 2.0 and later, images, sub-buffers and maps (not
/// yet): the specification's error for a device without them, and null
/// objects with that error for those that return one.
template <typename F> struct Refused;
template <typename... A> struct Refused<cl_int(CL_API_CALL *)(A...)> {
  static cl_int CL_API_CALL fn(A...) { return CL_INVALID_OPERATION; }
};
template <typename R, typename... A> struct Refused<R *(CL_API_CALL *)(A...)> {
  static R *CL_API_CALL fn(A... Args) {
    if constexpr (sizeof...(A) > 0) {
      auto Last = std::get<sizeof...(A) - 1>(std::tuple<A...>(Args...));
      if constexpr (std::is_same_v<decltype(Last), cl_int *>)
        setError(Last, CL_INVALID_OPERATION);
    }
    return nullptr;
  }
};
template <typename... A> struct Refused<void(CL_API_CALL *)(A...)> {
  static void CL_API_CALL fn(A...) {}
};
template <typename F> F refused(F) { return &Refused<F>::fn; }
inline void *refused(void *) { return nullptr; }

} // namespace

namespace skmd::opencl {

void fillDispatch(cl_icd_dispatch &T) {
#define SKMD_ICD_ENTRY(Name) T.Name = refused(T.Name);
#include "DispatchEntries.def"
#undef SKMD_ICD_ENTRY
  T.clGetPlatformIDs = getPlatformIDs;
  T.clGetPlatformInfo = getPlatformInfo;
  T.clGetDeviceIDs = getDeviceIDs;
  T.clGetDeviceInfo = getDeviceInfo;
  T.clRetainDevice = retainDevice;
  T.clReleaseDevice = retainDevice;
  T.clCreateContext = createContext;
  T.clCreateContextFromType = createContextFromType;
  T.clRetainContext = retainObject<cl_context, CL_INVALID_CONTEXT>;
  T.clReleaseContext = releaseContextEntry;
  T.clGetContextInfo = getContextInfo;
  T.clCreateCommandQueue = createCommandQueue;
  T.clRetainCommandQueue = retainObject<cl_command_queue, CL_INVALID_COMMAND_QUEUE>;
  T.clReleaseCommandQueue = releaseCommandQueue;
  T.clGetCommandQueueInfo = getCommandQueueInfo;
  T.clFinish = finish;
  T.clFlush = flush;
  T.clCreateBuffer = createBuffer;
  T.clRetainMemObject = retainObject<cl_mem, CL_INVALID_MEM_OBJECT>;
  T.clReleaseMemObject = releaseMemObject;
  T.clGetMemObjectInfo = getMemObjectInfo;
  T.clEnqueueReadBuffer = enqueueReadBuffer;
  T.clEnqueueWriteBuffer = enqueueWriteBuffer;
  T.clEnqueueCopyBuffer = enqueueCopyBuffer;
  T.clEnqueueFillBuffer = enqueueFillBuffer;
  T.clEnqueueMapBuffer = enqueueMapBuffer;
  T.clEnqueueUnmapMemObject = enqueueUnmapMemObject;
  T.clCreateProgramWithSource = createProgramWithSource;
  T.clCreateProgramWithBinary = createProgramWithBinary;
  T.clRetainProgram = retainObject<cl_program, CL_INVALID_PROGRAM>;
  T.clReleaseProgram = releaseProgram;
  T.clBuildProgram = buildProgram;
  T.clGetProgramInfo = getProgramInfo;
  T.clGetProgramBuildInfo = getProgramBuildInfo;
  T.clUnloadCompiler = unloadCompiler;
  T.clUnloadPlatformCompiler = unloadPlatformCompiler;
  T.clCreateKernel = createKernel;
  T.clCreateKernelsInProgram = createKernelsInProgram;
  T.clRetainKernel = retainObject<cl_kernel, CL_INVALID_KERNEL>;
  T.clReleaseKernel = releaseKernel;
  T.clSetKernelArg = setKernelArg;
  T.clGetKernelInfo = getKernelInfo;
  T.clGetKernelWorkGroupInfo = getKernelWorkGroupInfo;
  T.clGetKernelArgInfo = getKernelArgInfo;
  T.clEnqueueReadBufferRect = enqueueReadBufferRect;
  T.clEnqueueWriteBufferRect = enqueueWriteBufferRect;
  T.clEnqueueNDRangeKernel = enqueueNDRangeKernel;
  T.clEnqueueTask = enqueueTask;
  T.clEnqueueMarker = enqueueMarker;
  T.clEnqueueBarrier = enqueueBarrier;
  T.clEnqueueWaitForEvents = enqueueWaitForEvents;
  T.clEnqueueMarkerWithWaitList = enqueueMarkerWithWaitList;
  T.clEnqueueBarrierWithWaitList = enqueueBarrierWithWaitList;
  T.clWaitForEvents = waitForEvents;
  T.clRetainEvent = retainObject<cl_event, CL_INVALID_EVENT>;
  T.clReleaseEvent = releaseEvent;
  T.clGetEventInfo = getEventInfo;
  T.clGetEventProfilingInfo = getEventProfilingInfo;
  T.clCreateUserEvent = createUserEvent;
  T.clSetUserEventStatus = setUserEventStatus;
}

cl_icd_dispatch *dispatchTable() {
  static cl_icd_dispatch Table = [] {
    cl_icd_dispatch T{};
    fillDispatch(T);
    return T;
  }();
  return &Table;
}

} // namespace skmd::opencl

SKMD_ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *Name) {
  if (Name && std::strcmp(Name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  return nullptr;
}

