//===- Objects.h - The OpenCL objects of the SKMD platform -------*- C++ -*-===//
//
// The ICD loader (ocl-icd, Khronos') finds a vendor's entry points through
// the dispatch table each object starts with: every cl_* handle SKMD hands
// out points to one of these structs, the table's address first. Each
// object is reference-counted as the specification says (retain/release,
// implicit retains of their parents), and wraps the runtime's own objects:
// a context the platform's Session, a cl_mem a BufferObject, a cl_program a
// bundle with its LoadedProgram, a cl_kernel a LoadedKernel and its
// arguments. No launcher of its own: launches are the session's.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_OBJECTS_H
#define SKMD_OPENCL_OBJECTS_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include "session/Session.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace skmd::opencl {

/// The one table every object points to.
cl_icd_dispatch *dispatchTable();

class CommandStream;

/// A command's progress, shared by its job and its event: profiling times,
/// the execution status reached, and the callbacks waiting for a status.
struct CommandState {
  std::atomic<cl_ulong> Start{0}, End{0};
  /// Whether the session has the command's job (or, for a user event,
  /// the program set its status): a command waiting only for such events
  /// may follow them into the session (Streams.h).
  std::atomic<bool> Handed{false};
  std::mutex Lock;
  cl_int Reached = CL_SUBMITTED;
  struct Callback {
    cl_int When;
    void(CL_CALLBACK *Fn)(cl_event, cl_int, void *);
    void *Data;
    cl_event Event; ///< Retained until the callback has run.
  };
  std::vector<Callback> Callbacks;
};

/// What every object starts with: the dispatch table, which the loader
/// reads at offset 0 of each handle, then the reference count.
struct Counted {
  cl_icd_dispatch *Dispatch = dispatchTable();
  std::atomic<cl_uint> Refs{1};
  void retain() { ++Refs; }
  /// True when this was the last reference.
  bool release() { return --Refs == 0; }
};

} // namespace skmd::opencl

struct _cl_platform_id {
  cl_icd_dispatch *Dispatch = skmd::opencl::dispatchTable();
};

struct _cl_device_id {
  cl_icd_dispatch *Dispatch = skmd::opencl::dispatchTable();
  /// The runtime device it is (SKMD_OPENCL_EXPOSE=each), or -1 for the
  /// device made of all of them.
  int Index = -1;
};

struct _cl_context : skmd::opencl::Counted {
  std::vector<cl_device_id> Devices;
  std::vector<cl_context_properties> Properties;
  void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *) = nullptr;
  void *NotifyData = nullptr;
};

struct _cl_command_queue : skmd::opencl::Counted {
  cl_context Context = nullptr;
  cl_device_id Device = nullptr;
  cl_command_queue_properties Properties = 0;
  /// Its commands not yet in the session's queue (Streams.h).
  std::shared_ptr<skmd::opencl::CommandStream> Stream;
};

struct _cl_mem : skmd::opencl::Counted {
  cl_context Context = nullptr;
  cl_mem_flags Flags = 0;
  size_t Size = 0;
  void *HostPtr = nullptr; ///< CL_MEM_USE_HOST_PTR's.
  skmd::BufferObject *Object = nullptr;
  /// A sub-buffer's: the buffer it is a region of (retained) and where.
  cl_mem Parent = nullptr;
  size_t Origin = 0;
  /// clSetMemObjectDestructorCallback's, run last registered first.
  std::vector<std::pair<void(CL_CALLBACK *)(cl_mem, void *), void *>> Destructors;
  /// Live mappings: the pointer handed out, its range and whether the
  /// program may write through it.
  struct Mapping {
    void *Ptr;
    size_t Offset, Size;
    bool Writes;
  };
  std::mutex MapLock;
  std::vector<Mapping> Maps;
};

struct _cl_program : skmd::opencl::Counted {
  cl_context Context = nullptr;
  /// The context's, or those a binary was given for.
  std::vector<cl_device_id> Devices;
  std::string Source;          ///< From clCreateProgramWithSource.
  bool FromSource = false;     ///< Made by it (its source may be empty).
  /// clCompileProgram's input headers: include name and text.
  std::vector<std::pair<std::string, std::string>> Included;
  /// CL_PROGRAM_BINARY_TYPE once built, compiled or linked.
  cl_program_binary_type BinaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  std::unique_ptr<skmd::Bundle> Bundle; ///< Built, or given as the binary.
  std::vector<uint8_t> Binary; ///< The bundle's bytes (CL_PROGRAM_BINARIES).
  skmd::LoadedProgram Loaded;
  cl_build_status Status = CL_BUILD_NONE;
  std::string Options, Log;
  std::atomic<cl_uint> Kernels{0}; ///< Attached kernels (no rebuild meanwhile).
};

struct _cl_kernel : skmd::opencl::Counted {
  cl_program Program = nullptr;
  skmd::LoadedKernel Loaded;
  std::vector<skmd::HostArg> Args;
  std::vector<bool> Set;
  /// The buffer set for each argument (null elsewhere): a launch holds
  /// them until it has run.
  std::vector<cl_mem> ArgMems;
};

struct _cl_event : skmd::opencl::Counted {
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr; ///< Null for a user event.
  cl_command_type Type = 0;
  /// The command's outcome, when its job in the session's queue is done
  /// (a user event's, when the program sets its status). Jobs waiting on
  /// the event hold this, not the event.
  std::shared_future<skmd::Status> Done;
  /// A user event's: what sets Done, and the status the program gave.
  std::shared_ptr<std::promise<skmd::Status>> User;
  std::atomic<bool> UserStatusSet{false};
  /// A launch's report (its timings for profiling).
  std::shared_ptr<skmd::LaunchRecord> Record;
  /// Profiling: nanoseconds on the steady clock.
  cl_ulong Queued = 0;
  std::shared_ptr<skmd::opencl::CommandState> State =
      std::make_shared<skmd::opencl::CommandState>();
};

#endif // SKMD_OPENCL_OBJECTS_H
