//===- Contexts.cpp - Contexts and command queues --------------------------- ===//
//
// A context is a handle on the platform's one Session; a command queue is
// a handle on the session's one FIFO queue (in order; an out-of-order
// queue is accepted and run in order).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"


using namespace skmd;
using namespace skmd::opencl;

namespace {

cl_context newContext(std::vector<cl_device_id> Devices, const cl_context_properties *Props,
                      void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
                      void *Data, cl_int *Err) {
  if (!Notify && Data) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  std::vector<cl_context_properties> Kept;
  for (const cl_context_properties *P = Props; P && *P; P += 2) {
    bool Again = false;
    for (size_t I = 0; I < Kept.size(); I += 2)
      Again |= Kept[I] == P[0];
    if ((P[0] != CL_CONTEXT_PLATFORM && P[0] != CL_CONTEXT_INTEROP_USER_SYNC) || Again) {
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
  C->Devices = std::move(Devices);
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
  std::vector<cl_device_id> List;
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(List, Devices[I]))
      List.push_back(Devices[I]);
  return newContext(std::move(List), Props, Notify, Data, Err);
}

CL_API_ENTRY cl_context CL_API_CALL
createContextFromType(const cl_context_properties *Props, cl_device_type Type,
                      void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
                      void *Data, cl_int *Err) {
  cl_uint Found = 0;
  cl_int E = getDeviceIDs(nullptr, Type, 0, nullptr, &Found);
  std::vector<cl_device_id> List(Found);
  if (E == CL_SUCCESS)
    E = getDeviceIDs(nullptr, Type, Found, List.data(), nullptr);
  if (E != CL_SUCCESS) {
    setError(Err, E);
    return nullptr;
  }
  return newContext(std::move(List), Props, Notify, Data, Err);
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
    return put(cl_uint(C->Devices.size()), Size, Out, SizeRet);
  case CL_CONTEXT_DEVICES:
    return answerBytes(C->Devices.data(), C->Devices.size() * sizeof(cl_device_id), Size, Out,
                       SizeRet);
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
  if (!hasDevice(C->Devices, D)) {
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
  Q->Device = D;
  Q->Properties = P;
  Q->Stream = std::make_shared<CommandStream>(!(P & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  C->retain();
  setError(Err, CL_SUCCESS);
  return Q;
}

CL_API_ENTRY cl_int CL_API_CALL finish(cl_command_queue Q) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  // A command that failed is reported here too: a program that checks
  // only clFinish's code learns that its results are not there.
  return waitForQueue(Q);
}

CL_API_ENTRY cl_int CL_API_CALL flush(cl_command_queue Q) {
  return Q ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

} // namespace

cl_int CL_API_CALL skmd::opencl::releaseCommandQueue(cl_command_queue Q) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (Q->release()) {
    // An implicit flush: the commands run on (the stream hands those
    // still waiting to the session when they may go), holding what they
    // use.
    releaseContext(Q->Context);
    delete Q;
  }
  return CL_SUCCESS;
}

namespace {

CL_API_ENTRY cl_int CL_API_CALL getCommandQueueInfo(cl_command_queue Q,
                                                    cl_command_queue_info Param, size_t Size,
                                                    void *Out, size_t *SizeRet) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return put(Q->Context, Size, Out, SizeRet);
  case CL_QUEUE_DEVICE:
    return put(Q->Device, Size, Out, SizeRet);
  case CL_QUEUE_REFERENCE_COUNT:
    return put(cl_uint(Q->Refs), Size, Out, SizeRet);
  case CL_QUEUE_PROPERTIES:
    return put(Q->Properties, Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

void skmd::opencl::fillContextEntries(cl_icd_dispatch &T) {
  T.clCreateContext = createContext;
  T.clCreateContextFromType = createContextFromType;
  T.clReleaseContext = releaseContextEntry;
  T.clGetContextInfo = getContextInfo;
  T.clCreateCommandQueue = createCommandQueue;
  T.clGetCommandQueueInfo = getCommandQueueInfo;
  T.clFinish = finish;
  T.clFlush = flush;
}
