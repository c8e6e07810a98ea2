//===- Events.cpp - Events, markers, barriers and waits ------------------ ===//
//
// Every event is the future of its command's job in the session's queue
// (a user event's, a promise the program keeps) and the command's state:
// profiling times, the status reached and the callbacks waiting for one.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "skmd/cl_skmd.h"

using namespace skmd;
using namespace skmd::opencl;

namespace {

/// A marker or barrier: with no wait list it waits for every command
/// before it; a barrier also holds back every command after it.
cl_int enqueueSync(cl_command_queue Q, cl_command_type Type, cl_uint NWait, const cl_event *Wait,
                   cl_event *Event, CommandStream::Ordering Order) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  if (NWait && Order == CommandStream::Ordering::Marker)
    Order = CommandStream::Ordering::Command;
  return enqueueJob(Q, Type, waitList(NWait, Wait), false, Event,
                    [] { return Status::success(); }, nullptr, nullptr, Order);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueMarkerWithWaitList(cl_command_queue Q, cl_uint NWait,
                                                          const cl_event *Wait,
                                                          cl_event *Event) {
  return enqueueSync(Q, CL_COMMAND_MARKER, NWait, Wait, Event,
                     CommandStream::Ordering::Marker);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueBarrierWithWaitList(cl_command_queue Q, cl_uint NWait,
                                                           const cl_event *Wait,
                                                           cl_event *Event) {
  return enqueueSync(Q, CL_COMMAND_BARRIER, NWait, Wait, Event,
                     CommandStream::Ordering::Barrier);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueMarker(cl_command_queue Q, cl_event *Event) {
  if (!Event)
    return CL_INVALID_VALUE;
  return enqueueMarkerWithWaitList(Q, 0, nullptr, Event);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueBarrier(cl_command_queue Q) {
  return enqueueBarrierWithWaitList(Q, 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueWaitForEvents(cl_command_queue Q, cl_uint N,
                                                     const cl_event *List) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (N == 0 || !List)
    return CL_INVALID_VALUE;
  if (cl_int E = checkWaitList(Q, N, List); E != CL_SUCCESS)
    return E == CL_INVALID_CONTEXT ? E : CL_INVALID_EVENT;
  // OpenCL 1.1's form of a barrier with a wait list.
  return enqueueJob(Q, CL_COMMAND_BARRIER, waitList(N, List), false, nullptr,
                    [] { return Status::success(); }, nullptr, nullptr,
                    CommandStream::Ordering::Barrier);
}

// ---- Events ------------------------------------------------------------

CL_API_ENTRY cl_int CL_API_CALL waitForEvents(cl_uint N, const cl_event *List) {
  if (N == 0 || !List)
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (!List[I])
      return CL_INVALID_EVENT;
  for (cl_uint I = 1; I < N; ++I)
    if (List[I]->Context != List[0]->Context)
      return CL_INVALID_CONTEXT;
  cl_int Result = CL_SUCCESS;
  for (cl_uint I = 0; I < N; ++I) {
    List[I]->Done.wait();
    if (eventStatus(List[I]) < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return Result;
}

} // namespace

cl_int CL_API_CALL skmd::opencl::releaseEvent(cl_event E) {
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

namespace {

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
  case CL_EVENT_SKMD_BYTES_TO_DEVICES:
  case CL_EVENT_SKMD_BYTES_FROM_DEVICES:
  case CL_EVENT_SKMD_PLAN: {
    // What the launch moved and where its groups ran (skmd/cl_skmd.h).
    if (!E->Record)
      return CL_INVALID_VALUE;
    if (eventStatus(E) > CL_COMPLETE)
      return CL_PROFILING_INFO_NOT_AVAILABLE;
    const LaunchReport &R = E->Record->Report;
    cl_ulong In = 0, Back = R.BytesToHost;
    std::string Plan;
    for (const PieceReport &P : R.Pieces) {
      In += P.BytesIn;
      Back += P.BytesOut;
      Plan += (Plan.empty() ? "" : " ") + P.Device + ":" + std::to_string(P.First) + "+" +
              std::to_string(P.Count);
    }
    if (Param == CL_EVENT_SKMD_PLAN)
      return answerString(Plan, Size, Out, SizeRet);
    return put(Param == CL_EVENT_SKMD_BYTES_TO_DEVICES ? In : Back, Size, Out, SizeRet);
  }
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
    return put(cl_ulong(E->State->Start), Size, Out, SizeRet);
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    return put(cl_ulong(E->State->End), Size, Out, SizeRet);
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
  if (E->UserStatusSet.exchange(true))
    return CL_INVALID_OPERATION;
  // Commands waiting on it go on (or fail), then its callbacks run.
  E->User->set_value(Status == CL_COMPLETE
                         ? skmd::Status::success()
                         : skmd::Status(Failure(ErrorCode::InvalidArgument,
                                                "the user event's status is " +
                                                    std::to_string(Status))));
  reach(*E->State, Status);
  // Commands that waited for it in their queues' streams go on.
  E->State->Handed = true;
  pumpStreams();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL setEventCallback(cl_event E, cl_int When,
                                                 void(CL_CALLBACK *Fn)(cl_event, cl_int,
                                                                       void *),
                                                 void *Data) {
  if (!E)
    return CL_INVALID_EVENT;
  if (!Fn || (When != CL_SUBMITTED && When != CL_RUNNING && When != CL_COMPLETE))
    return CL_INVALID_VALUE;
  // The event lives until its callback has run.
  E->retain();
  cl_int Now;
  {
    std::lock_guard<std::mutex> Hold(E->State->Lock);
    E->State->Callbacks.push_back({When, Fn, Data, E});
    Now = E->State->Reached;
  }
  if (Now <= When) // Already there: due at once (reach runs what is due).
    reach(*E->State, Now);
  return CL_SUCCESS;
}

} // namespace

void skmd::opencl::fillEventEntries(cl_icd_dispatch &T) {
  T.clEnqueueMarker = enqueueMarker;
  T.clEnqueueBarrier = enqueueBarrier;
  T.clEnqueueWaitForEvents = enqueueWaitForEvents;
  T.clEnqueueMarkerWithWaitList = enqueueMarkerWithWaitList;
  T.clEnqueueBarrierWithWaitList = enqueueBarrierWithWaitList;
  T.clWaitForEvents = waitForEvents;
  T.clReleaseEvent = releaseEvent;
  T.clGetEventInfo = getEventInfo;
  T.clGetEventProfilingInfo = getEventProfilingInfo;
  T.clCreateUserEvent = createUserEvent;
  T.clSetUserEventStatus = setUserEventStatus;
  T.clSetEventCallback = setEventCallback;
}
