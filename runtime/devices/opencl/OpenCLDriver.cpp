//===- OpenCLDriver.cpp - The OpenCL ICD loader, opened at run time -------===//
#include "devices/opencl/OpenCLDriver.h"

#include <dlfcn.h>
#include <type_traits>

namespace skmd {

namespace {

struct Loaded {
  OpenCLDriver Driver{};
  std::string Error;
  bool Ok = false;
};

Loaded load() {
  Loaded L;
  void *Lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Why = dlerror();
    L.Error = std::string("no OpenCL ICD loader (") + (Why ? Why : "libOpenCL.so.1") + ")";
    return L;
  }
  OpenCLDriver &D = L.Driver;
  bool Ok = true;
  auto Get = [&](auto &Slot, const char *Name) {
    Slot = reinterpret_cast<std::remove_reference_t<decltype(Slot)>>(dlsym(Lib, Name));
    if (!Slot && Ok) {
      L.Error = std::string("libOpenCL.so.1 lacks ") + Name + " (a loader older than OpenCL 2.1?)";
      Ok = false;
    }
  };
  Get(D.clGetPlatformIDs, "clGetPlatformIDs");
  Get(D.clGetPlatformInfo, "clGetPlatformInfo");
  Get(D.clGetDeviceIDs, "clGetDeviceIDs");
  Get(D.clGetDeviceInfo, "clGetDeviceInfo");
  Get(D.clCreateContext, "clCreateContext");
  Get(D.clReleaseContext, "clReleaseContext");
  Get(D.clCreateCommandQueue, "clCreateCommandQueue");
  Get(D.clReleaseCommandQueue, "clReleaseCommandQueue");
  Get(D.clCreateBuffer, "clCreateBuffer");
  Get(D.clReleaseMemObject, "clReleaseMemObject");
  Get(D.clEnqueueWriteBuffer, "clEnqueueWriteBuffer");
  Get(D.clEnqueueReadBuffer, "clEnqueueReadBuffer");
  Get(D.clEnqueueWriteBufferRect, "clEnqueueWriteBufferRect");
  Get(D.clEnqueueReadBufferRect, "clEnqueueReadBufferRect");
  Get(D.clFinish, "clFinish");
  Get(D.clCreateProgramWithIL, "clCreateProgramWithIL");
  Get(D.clBuildProgram, "clBuildProgram");
  Get(D.clGetProgramBuildInfo, "clGetProgramBuildInfo");
  Get(D.clReleaseProgram, "clReleaseProgram");
  Get(D.clCreateKernel, "clCreateKernel");
  Get(D.clReleaseKernel, "clReleaseKernel");
  Get(D.clSetKernelArg, "clSetKernelArg");
  Get(D.clEnqueueNDRangeKernel, "clEnqueueNDRangeKernel");
  L.Ok = Ok;
  return L;
}

} // namespace

const OpenCLDriver *OpenCLDriver::get(std::string &Error) {
  // The loader and the vendors' drivers stay loaded for the process.
  static const Loaded L = load();
  if (!L.Ok) {
    Error = L.Error;
    return nullptr;
  }
  return &L.Driver;
}

std::string OpenCLDriver::describe(cl_int R) {
  const char *Name = nullptr;
  switch (R) {
  case -1: Name = "CL_DEVICE_NOT_FOUND"; break;
  case -2: Name = "CL_DEVICE_NOT_AVAILABLE"; break;
  case -3: Name = "CL_COMPILER_NOT_AVAILABLE"; break;
  case -4: Name = "CL_MEM_OBJECT_ALLOCATION_FAILURE"; break;
  case -5: Name = "CL_OUT_OF_RESOURCES"; break;
  case -6: Name = "CL_OUT_OF_HOST_MEMORY"; break;
  case -11: Name = "CL_BUILD_PROGRAM_FAILURE"; break;
  case -30: Name = "CL_INVALID_VALUE"; break;
  case -33: Name = "CL_INVALID_DEVICE"; break;
  case -36: Name = "CL_INVALID_COMMAND_QUEUE"; break;
  case -38: Name = "CL_INVALID_MEM_OBJECT"; break;
  case -42: Name = "CL_INVALID_BINARY"; break;
  case -44: Name = "CL_INVALID_PROGRAM"; break;
  case -46: Name = "CL_INVALID_KERNEL_NAME"; break;
  case -48: Name = "CL_INVALID_KERNEL"; break;
  case -49: Name = "CL_INVALID_ARG_INDEX"; break;
  case -50: Name = "CL_INVALID_ARG_VALUE"; break;
  case -51: Name = "CL_INVALID_ARG_SIZE"; break;
  case -52: Name = "CL_INVALID_KERNEL_ARGS"; break;
  case -53: Name = "CL_INVALID_WORK_DIMENSION"; break;
  case -54: Name = "CL_INVALID_WORK_GROUP_SIZE"; break;
  case -55: Name = "CL_INVALID_WORK_ITEM_SIZE"; break;
  case -61: Name = "CL_INVALID_BUFFER_SIZE"; break;
  case -63: Name = "CL_INVALID_GLOBAL_WORK_SIZE"; break;
  }
  std::string Code = "(" + std::to_string(R) + ")";
  return Name ? std::string(Name) + " " + Code : "OpenCL error " + Code;
}

} // namespace skmd
