//===- Commands.h - What every entry point shares ----------------*- C++ -*-===//
//
// Commands are jobs in the platform's session queue, handed to it by their
// command queue's stream once what they wait for is there (Streams.h). A
// wait list waits in the stream and the session, not in the enqueuing
// call; every event is the future of its command's job. This header holds
// the checks, the enqueueing and the object lifetimes that the entry
// points of Contexts, Buffers, Programs, Kernels and Events share.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_COMMANDS_H
#define SKMD_OPENCL_COMMANDS_H

#include "Icd.h"
#include "Streams.h"

#include <functional>
#include <initializer_list>
#include <future>
#include <memory>
#include <vector>

namespace skmd::opencl {

/// Writes an info query's answer of a fixed-size type.
template <typename T> cl_int put(const T &V, size_t Size, void *Out, size_t *SizeRet) {
  return answerBytes(&V, sizeof V, Size, Out, SizeRet);
}

inline void setError(cl_int *Err, cl_int Code) {
  if (Err)
    *Err = Code;
}

/// Nanoseconds on the steady clock (profiling times).
cl_ulong nowNs();

/// The checks of a wait list for a command of \p Q: no null event, and
/// every event of \p Q's context.
cl_int checkWaitList(cl_command_queue Q, cl_uint N, const cl_event *List);
/// What a command's job waits for (copies: the events may be released
/// before the job runs).
WaitList waitList(cl_uint N, const cl_event *List);
/// CL_INVALID_VALUE or CL_INVALID_DEVICE unless \p Devices is the device.
cl_int checkDevices(cl_uint N, const cl_device_id *Devices);

/// Whether \p S is a command's success: a device that failed had its
/// groups re-run, so every output is there.
bool succeeded(const Status &S);
/// The OpenCL execution status of a finished command.
cl_int statusCode(const Status &S);
/// The event's execution status now.
cl_int eventStatus(cl_event E);

/// What an enqueued command uses, retained from the enqueueing call until
/// its job has run (the specification's implicit retains): the program may
/// release its objects at once, and no release waits for the queue, which
/// may be held back by a user event only the program sets.
class Held {
public:
  Held() = default;
  explicit Held(std::initializer_list<cl_mem> Mems);
  Held(const Held &) = delete;
  Held &operator=(const Held &) = delete;
  ~Held() { release(); }
  void hold(cl_mem M);
  void hold(cl_kernel K);
  /// Lets them go (on the session's worker, at the end of the job).
  void release();

private:
  std::vector<cl_mem> Mems;
  cl_kernel Kernel = nullptr;
};

/// A command's hold on the buffers \p Mems.
inline std::shared_ptr<Held> holding(std::initializer_list<cl_mem> Mems) {
  return std::make_shared<Held>(Mems);
}

/// Runs \p Job in the session's queue after the wait list \p W and what
/// \p Q's order puts before it, and gives the command's event (when
/// asked) and, for a blocking command, its outcome. \p Uses is released
/// when the job has run.
cl_int enqueueJob(cl_command_queue Q, cl_command_type Type, WaitList W, bool Blocking,
                  cl_event *Event, std::function<Status()> Job, std::shared_ptr<Held> Uses,
                  std::shared_ptr<LaunchRecord> Record = nullptr,
                  CommandStream::Ordering Order = CommandStream::Ordering::Command);
/// Waits for every command enqueued on \p Q so far: CL_SUCCESS, or
/// CL_OUT_OF_RESOURCES when one of the queue's commands failed since the
/// last such wait.
cl_int waitForQueue(cl_command_queue Q);

/// Runs \p Fn on the platform's callback thread (never the session's
/// worker: a callback may call a blocking entry point).
void postCallback(std::function<void()> Fn);

/// \p State reached the execution status \p Status (CL_RUNNING,
/// CL_COMPLETE or an error): the callbacks registered for it run, in
/// order, on the platform's callback thread.
void reach(CommandState &State, cl_int Status);

/// clRetain* of any object: \p Invalid for a null handle.
template <typename Handle, cl_int Invalid> cl_int CL_API_CALL retainObject(Handle H) {
  if (!H)
    return Invalid;
  H->retain();
  return CL_SUCCESS;
}

/// The last release of each object frees it and releases what it holds.
void releaseContext(cl_context C);
cl_int CL_API_CALL releaseCommandQueue(cl_command_queue Q);
cl_int CL_API_CALL releaseProgram(cl_program P);
cl_int CL_API_CALL releaseEvent(cl_event E);
cl_int CL_API_CALL releaseMemObject(cl_mem M);
cl_int CL_API_CALL releaseKernel(cl_kernel K);

/// Each group's entry points into the dispatch table.
void fillContextEntries(cl_icd_dispatch &T);
void fillBufferEntries(cl_icd_dispatch &T);
void fillProgramEntries(cl_icd_dispatch &T);
void fillKernelEntries(cl_icd_dispatch &T);
void fillEventEntries(cl_icd_dispatch &T);

} // namespace skmd::opencl

#endif // SKMD_OPENCL_COMMANDS_H
