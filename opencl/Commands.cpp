//===- Commands.cpp - Enqueueing, wait lists, event status, callbacks -----===//
//
// A command is a job in the session's queue. Its event holds the job's
// future and a CommandState that the job updates (start, end, status
// reached); callbacks registered on an event run on one callback thread of
// the platform's, never on the session's worker (a callback that enqueues a
// blocking read would otherwise wait for itself).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <thread>
#include <utility>

using namespace skmd;

namespace skmd::opencl {

namespace {

/// The message of a command whose wait list held a failed event.
const char *const WaitListFailed = "an event in the wait list failed";

Status waitAll(const WaitList &W) {
  bool Failed = false;
  for (const Dependency &D : W)
    Failed |= !succeeded(D.Done.get()) && !D.OrderOnly;
  return Failed ? Status(Failure(ErrorCode::InvalidArgument, WaitListFailed))
                : Status::success();
}

/// Runs event callbacks in the order their statuses were reached, on a
/// thread of its own. Never destroyed: the session's worker may complete
/// commands while the process exits.
class CallbackThread {
public:
  static CallbackThread &get() {
    static CallbackThread *Runner = new CallbackThread();
    return *Runner;
  }
  void post(std::function<void()> Fn) {
    {
      std::lock_guard<std::mutex> Hold(Lock);
      Ready.push_back(std::move(Fn));
    }
    Wake.notify_one();
  }

private:
  CallbackThread() {
    std::thread([this] {
      for (;;) {
        std::function<void()> Fn;
        {
          std::unique_lock<std::mutex> Hold(Lock);
          Wake.wait(Hold, [&] { return !Ready.empty(); });
          Fn = std::move(Ready.front());
          Ready.pop_front();
        }
        Fn();
      }
    }).detach();
  }
  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<std::function<void()>> Ready;
};

/// The command type's name, for messages.
std::string commandName(cl_command_type Type) {
  switch (Type) {
  case CL_COMMAND_NDRANGE_KERNEL:
    return "a kernel launch";
  case CL_COMMAND_TASK:
    return "a task";
  case CL_COMMAND_READ_BUFFER:
  case CL_COMMAND_READ_BUFFER_RECT:
    return "a buffer read";
  case CL_COMMAND_WRITE_BUFFER:
  case CL_COMMAND_WRITE_BUFFER_RECT:
    return "a buffer write";
  case CL_COMMAND_COPY_BUFFER:
  case CL_COMMAND_COPY_BUFFER_RECT:
    return "a buffer copy";
  case CL_COMMAND_FILL_BUFFER:
    return "a buffer fill";
  case CL_COMMAND_MAP_BUFFER:
    return "a buffer map";
  case CL_COMMAND_UNMAP_MEM_OBJECT:
    return "an unmap";
  default:
    return "a command";
  }
}

} // namespace

void postCallback(std::function<void()> Fn) { CallbackThread::get().post(std::move(Fn)); }

cl_ulong nowNs() {
  return cl_ulong(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

cl_int checkWaitList(cl_command_queue Q, cl_uint N, const cl_event *List) {
  if ((N == 0) != (List == nullptr))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint I = 0; I < N; ++I)
    if (!List[I])
      return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint I = 0; I < N; ++I)
    if (List[I]->Context != Q->Context)
      return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

WaitList waitList(cl_uint N, const cl_event *List) {
  WaitList W;
  for (cl_uint I = 0; I < N; ++I)
    W.push_back({List[I]->Done, List[I]->State});
  return W;
}

cl_int checkDevices(cl_uint N, const cl_device_id *Devices) {
  if (N == 0 || !Devices)
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(platformDevices(), Devices[I]))
      return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

bool succeeded(const Status &S) { return S || S.error().code() == ErrorCode::DeviceFailed; }

cl_int statusCode(const Status &S) {
  if (succeeded(S))
    return CL_COMPLETE;
  return S.error().message() == WaitListFailed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                               : CL_OUT_OF_RESOURCES;
}

cl_int eventStatus(cl_event E) {
  std::lock_guard<std::mutex> Hold(E->State->Lock);
  return E->State->Reached;
}

void reach(CommandState &State, cl_int Status) {
  std::vector<CommandState::Callback> Due;
  {
    std::lock_guard<std::mutex> Hold(State.Lock);
    // Statuses only move forward (a late call for an earlier one changes
    // nothing).
    State.Reached = Status = std::min(State.Reached, Status);
    // Statuses count down (CL_SUBMITTED 2, CL_RUNNING 1, CL_COMPLETE 0, an
    // error below): a callback is due once its status or a later one is.
    auto Keep = State.Callbacks.begin();
    for (auto &C : State.Callbacks)
      if (Status <= C.When)
        Due.push_back(C);
      else
        *Keep++ = C;
    State.Callbacks.erase(Keep, State.Callbacks.end());
  }
  for (const CommandState::Callback &C : Due)
    CallbackThread::get().post([C, Status] {
      // The status the callback was registered for, or the error.
      C.Fn(C.Event, Status < 0 ? Status : C.When, C.Data);
      releaseEvent(C.Event);
    });
}

Held::Held(std::initializer_list<cl_mem> List) {
  for (cl_mem M : List)
    hold(M);
}

void Held::hold(cl_mem M) {
  if (!M)
    return;
  M->retain();
  Mems.push_back(M);
}

void Held::hold(cl_kernel K) {
  K->retain();
  Kernel = K;
}

void Held::release() {
  for (cl_mem M : Mems)
    releaseMemObject(M);
  Mems.clear();
  if (Kernel)
    releaseKernel(std::exchange(Kernel, nullptr));
}

cl_int enqueueJob(cl_command_queue Q, cl_command_type Type, WaitList W, bool Blocking,
                  cl_event *Event, std::function<Status()> Job, std::shared_ptr<Held> Uses,
                  std::shared_ptr<LaunchRecord> Record, CommandStream::Ordering Order) {
  auto State = std::make_shared<CommandState>();
  cl_ulong Queued = nowNs();
  auto Notify = Q->Context->Notify;
  void *NotifyData = Q->Context->NotifyData;
  auto Outcome = std::make_shared<std::promise<Status>>();
  std::shared_future<Status> Done = Outcome->get_future().share();
  auto Run = [Job = std::move(Job), State, Type, Notify, NotifyData, Uses, Outcome,
              Stream = Q->Stream](const WaitList &W) -> Status {
    Status S = waitAll(W);
    State->Start = nowNs();
    reach(*State, CL_RUNNING);
    if (S) {
      S = Job();
      // The event gives only a code: the reason goes to the context's
      // callback (the specification's channel for errors at run time) and
      // to stderr.
      if (!succeeded(S)) {
        std::string Why = "skmd: " + commandName(Type) + " failed: " + S.error().message();
        std::fprintf(stderr, "%s\n", Why.c_str());
        if (Notify)
          Notify(Why.c_str(), nullptr, 0, NotifyData);
      }
    }
    State->End = nowNs();
    if (!succeeded(S))
      Stream->failed();
    if (Uses)
      Uses->release();
    // The status first: a wait that returns sees it.
    reach(*State, statusCode(S));
    Outcome->set_value(S);
    return S;
  };
  Q->Stream->add(std::move(W), Order, {Done, State}, [Run = std::move(Run)](const WaitList &W) {
    platformSession(nullptr)->enqueue([W, Run] { return Run(W); });
  });
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
    E->State = State;
    *Event = E;
  }
  if (!Blocking)
    return CL_SUCCESS;
  // A failed command's status is the error the blocking call returns.
  cl_int Code = statusCode(Done.get());
  return Code == CL_COMPLETE ? CL_SUCCESS : Code;
}

cl_int waitForQueue(cl_command_queue Q) {
  for (const Dependency &D : Q->Stream->everything())
    D.Done.wait();
  return Q->Stream->takeFailures() ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

void releaseContext(cl_context C) {
  if (C->release())
    delete C;
}

} // namespace skmd::opencl
