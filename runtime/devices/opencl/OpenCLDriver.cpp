//===- OpenCLDriver.cpp - The OpenCL ICD loader, opened at run time -------===//
#include "devices/opencl/OpenCLDriver.h"

#include "support/DynamicLibrary.h"

namespace skmd {

namespace {

struct Loaded {
  OpenCLDriver Driver{};
  std::string Error;
  bool Ok = false;
};

Loaded load() {
  Loaded L;
  DynamicLibrary Lib("libOpenCL.so.1", "OpenCL ICD loader", "a loader older than OpenCL 2.1?");
  OpenCLDriver &D = L.Driver;
  Lib.get(D.clGetPlatformIDs, "clGetPlatformIDs");
  Lib.get(D.clGetPlatformInfo, "clGetPlatformInfo");
  Lib.get(D.clGetDeviceIDs, "clGetDeviceIDs");
  Lib.get(D.clGetDeviceInfo, "clGetDeviceInfo");
  Lib.get(D.clCreateContext, "clCreateContext");
  Lib.get(D.clReleaseContext, "clReleaseContext");
  Lib.get(D.clCreateCommandQueue, "clCreateCommandQueue");
  Lib.get(D.clReleaseCommandQueue, "clReleaseCommandQueue");
  Lib.get(D.clCreateBuffer, "clCreateBuffer");
  Lib.get(D.clReleaseMemObject, "clReleaseMemObject");
  Lib.get(D.clEnqueueWriteBuffer, "clEnqueueWriteBuffer");
  Lib.get(D.clEnqueueReadBuffer, "clEnqueueReadBuffer");
  Lib.get(D.clEnqueueWriteBufferRect, "clEnqueueWriteBufferRect");
  Lib.get(D.clEnqueueReadBufferRect, "clEnqueueReadBufferRect");
  Lib.get(D.clFinish, "clFinish");
  Lib.get(D.clCreateProgramWithIL, "clCreateProgramWithIL");
  Lib.get(D.clCreateProgramWithSource, "clCreateProgramWithSource");
  Lib.get(D.clBuildProgram, "clBuildProgram");
  Lib.get(D.clGetProgramBuildInfo, "clGetProgramBuildInfo");
  Lib.get(D.clReleaseProgram, "clReleaseProgram");
  Lib.get(D.clCreateKernel, "clCreateKernel");
  Lib.get(D.clReleaseKernel, "clReleaseKernel");
  Lib.get(D.clSetKernelArg, "clSetKernelArg");
  Lib.get(D.clEnqueueNDRangeKernel, "clEnqueueNDRangeKernel");
  L.Ok = Lib.ok();
  L.Error = Lib.error();
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

namespace {
/// The string a clGet*Info call gives, without its terminator.
template <typename Fn, typename Obj>
std::string infoText(Fn Get, Obj O, cl_uint What) {
  size_t Size = 0;
  if (Get(O, What, 0, nullptr, &Size) != CL_SUCCESS || Size == 0)
    return "";
  std::string S(Size, '\0');
  if (Get(O, What, Size, S.data(), nullptr) != CL_SUCCESS)
    return "";
  S.resize(S.find('\0') == std::string::npos ? S.size() : S.find('\0'));
  return S;
}
} // namespace

std::string OpenCLDriver::platformText(cl_platform_id P, cl_uint What) const {
  return infoText(clGetPlatformInfo, P, What);
}

std::string OpenCLDriver::deviceText(cl_device_id Dev, cl_uint What) const {
  return infoText(clGetDeviceInfo, Dev, What);
}

std::vector<std::pair<cl_platform_id, cl_device_id>> OpenCLDriver::allDevices() const {
  cl_uint Platforms = 0;
  if (clGetPlatformIDs(0, nullptr, &Platforms) != CL_SUCCESS)
    Platforms = 0; // CL_PLATFORM_NOT_FOUND_KHR: no vendor driver installed.
  std::vector<cl_platform_id> Ids(Platforms);
  if (Platforms)
    clGetPlatformIDs(Platforms, Ids.data(), nullptr);
  std::vector<std::pair<cl_platform_id, cl_device_id>> Out;
  for (cl_platform_id P : Ids) {
    // SKMD's own platform (opencl/, registered with the loader) is made of
    // these devices: inside it, asking it for its devices would open it
    // again.
    if (platformText(P, CL_PLATFORM_NAME) == "SKMD")
      continue;
    cl_uint N = 0;
    if (clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &N) != CL_SUCCESS || N == 0)
      continue;
    std::vector<cl_device_id> Devs(N);
    clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, N, Devs.data(), nullptr);
    for (cl_device_id Dev : Devs)
      Out.push_back({P, Dev});
  }
  return Out;
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
