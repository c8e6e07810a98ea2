//===- OpenCLDriver.h - The OpenCL ICD loader, opened at run time -*- C++ -*-===//
//
// libOpenCL.so.1 (the ICD loader, which finds every vendor's driver) is
// opened with dlopen, as libcuda.so.1 is: libskmd builds and runs without
// OpenCL, and says "no OpenCL ICD loader" when asked for an OpenCL device.
// Only the entry points SKMD calls are declared, with OpenCL's types
// reduced to what they are at the ABI (CL/cl.h's values).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_OPENCL_OPENCLDRIVER_H
#define SKMD_DEVICES_OPENCL_OPENCLDRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace skmd {

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bitfield = uint64_t;
using cl_platform_id = struct _cl_platform_id *;
using cl_device_id = struct _cl_device_id *;
using cl_context = struct _cl_context *;
using cl_command_queue = struct _cl_command_queue *;
using cl_mem = struct _cl_mem *;
using cl_program = struct _cl_program *;
using cl_kernel = struct _cl_kernel *;
using cl_event = struct _cl_event *;

/// The constants SKMD uses (CL/cl.h's values).
enum : cl_uint {
  CL_PLATFORM_VERSION = 0x0901,
  CL_PLATFORM_NAME = 0x0902,
  CL_DEVICE_TYPE = 0x1000,
  CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002,
  CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F,
  CL_DEVICE_NAME = 0x102B,
  CL_DEVICE_VERSION = 0x102F,
  CL_DEVICE_EXTENSIONS = 0x1030,
  CL_DEVICE_IL_VERSION = 0x105B,
  CL_PROGRAM_BUILD_LOG = 0x1183,
};
enum : cl_bitfield {
  CL_DEVICE_TYPE_CPU = 1 << 1,
  CL_DEVICE_TYPE_ALL = 0xFFFFFFFF,
  CL_MEM_READ_WRITE = 1 << 0,
  CL_MEM_COPY_HOST_PTR = 1 << 5,
};
enum : cl_int {
  CL_SUCCESS = 0,
  CL_DEVICE_NOT_FOUND = -1,
  CL_FALSE = 0,
  CL_TRUE = 1,
};

struct OpenCLDriver {
  cl_int (*clGetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
  cl_int (*clGetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
  cl_int (*clGetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *);
  cl_int (*clGetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_context (*clCreateContext)(const intptr_t *, cl_uint, const cl_device_id *,
                                void (*)(const char *, const void *, size_t, void *), void *,
                                cl_int *);
  cl_int (*clReleaseContext)(cl_context);
  cl_command_queue (*clCreateCommandQueue)(cl_context, cl_device_id, cl_bitfield, cl_int *);
  cl_int (*clReleaseCommandQueue)(cl_command_queue);
  cl_mem (*clCreateBuffer)(cl_context, cl_bitfield, size_t, void *, cl_int *);
  cl_int (*clReleaseMemObject)(cl_mem);
  cl_int (*clEnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t,
                                 const void *, cl_uint, const cl_event *, cl_event *);
  cl_int (*clEnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *,
                                cl_uint, const cl_event *, cl_event *);
  cl_int (*clEnqueueWriteBufferRect)(cl_command_queue, cl_mem, cl_uint, const size_t *,
                                     const size_t *, const size_t *, size_t, size_t, size_t,
                                     size_t, const void *, cl_uint, const cl_event *,
                                     cl_event *);
  cl_int (*clEnqueueReadBufferRect)(cl_command_queue, cl_mem, cl_uint, const size_t *,
                                    const size_t *, const size_t *, size_t, size_t, size_t,
                                    size_t, void *, cl_uint, const cl_event *, cl_event *);
  cl_int (*clFinish)(cl_command_queue);
  cl_program (*clCreateProgramWithIL)(cl_context, const void *, size_t, cl_int *);
  cl_program (*clCreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *,
                                          cl_int *);
  cl_int (*clBuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *,
                           void (*)(cl_program, void *), void *);
  cl_int (*clGetProgramBuildInfo)(cl_program, cl_device_id, cl_uint, size_t, void *,
                                  size_t *);
  cl_int (*clReleaseProgram)(cl_program);
  cl_kernel (*clCreateKernel)(cl_program, const char *, cl_int *);
  cl_int (*clReleaseKernel)(cl_kernel);
  cl_int (*clSetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
  cl_int (*clEnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                   const size_t *, const size_t *, cl_uint, const cl_event *,
                                   cl_event *);

  /// A platform's or a device's string property; empty where the driver
  /// has none.
  std::string platformText(cl_platform_id P, cl_uint What) const;
  std::string deviceText(cl_device_id Dev, cl_uint What) const;
  /// Every device of every installed driver, with its platform, in the
  /// loader's order (empty where no driver is installed).
  std::vector<std::pair<cl_platform_id, cl_device_id>> allDevices() const;

  /// The loader, opened once per process; null with the reason in
  /// \p Error when there is none (or it lacks an entry point: a loader
  /// older than OpenCL 2.1 has no clCreateProgramWithIL).
  static const OpenCLDriver *get(std::string &Error);
  /// An error code as CL/cl.h names it, e.g. "CL_OUT_OF_RESOURCES (-5)".
  static std::string describe(cl_int R);
};

} // namespace skmd

#endif // SKMD_DEVICES_OPENCL_OPENCLDRIVER_H
