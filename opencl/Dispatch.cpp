//===- Dispatch.cpp - The dispatch table every object points to ----------===//
//
// The ICD loader calls a vendor through the table at offset 0 of each
// handle. Each group of entry points fills its own (Contexts.cpp,
// Buffers.cpp, ...); what no group implements (images, samplers, pipes,
// SVM, OpenCL 2.0 and later, extensions) answers as a device without it:
// CL_INVALID_OPERATION, and null objects with that error.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <cstring>
#include <tuple>
#include <type_traits>

using namespace skmd::opencl;

namespace {

/// An entry point of a device without the feature: the specification's
/// error for it, and null objects with that error for those that return one.
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

cl_icd_dispatch *dispatchTable() {
  static cl_icd_dispatch Table = [] {
    cl_icd_dispatch T{};
#define SKMD_ICD_ENTRY(Name) T.Name = refused(T.Name);
#include "DispatchEntries.def"
#undef SKMD_ICD_ENTRY
    T.clGetPlatformIDs = getPlatformIDs;
    T.clGetPlatformInfo = getPlatformInfo;
    T.clGetDeviceIDs = getDeviceIDs;
    T.clGetDeviceInfo = getDeviceInfo;
    T.clRetainDevice = retainDevice;
    T.clReleaseDevice = retainDevice;
    T.clCreateSubDevices = createSubDevices;
    T.clRetainContext = retainObject<cl_context, CL_INVALID_CONTEXT>;
    T.clRetainCommandQueue = retainObject<cl_command_queue, CL_INVALID_COMMAND_QUEUE>;
    T.clReleaseCommandQueue = releaseCommandQueue;
    T.clRetainMemObject = retainObject<cl_mem, CL_INVALID_MEM_OBJECT>;
    T.clRetainProgram = retainObject<cl_program, CL_INVALID_PROGRAM>;
    T.clReleaseProgram = releaseProgram;
    T.clRetainKernel = retainObject<cl_kernel, CL_INVALID_KERNEL>;
    T.clRetainEvent = retainObject<cl_event, CL_INVALID_EVENT>;
    fillContextEntries(T);
    fillBufferEntries(T);
    fillProgramEntries(T);
    fillKernelEntries(T);
    fillEventEntries(T);
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
