//===- CudaDriver.cpp - The few CUDA driver calls the GPU checks use ------===//
#include "CudaDriver.h"

#include <dlfcn.h>

namespace skmd::test {

bool CudaDriver::load(CudaDriver &D, std::string &Error) {
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    Error = std::string("no CUDA driver (") + dlerror() + ")";
    return false;
  }
  bool Ok = true;
  auto Get = [&](auto &Slot, const char *Name) {
    Slot = reinterpret_cast<std::remove_reference_t<decltype(Slot)>>(dlsym(Lib, Name));
    if (!Slot) {
      Error = std::string("libcuda.so.1 lacks ") + Name;
      Ok = false;
    }
  };
  Get(D.cuInit, "cuInit");
  Get(D.cuDeviceGet, "cuDeviceGet");
  Get(D.cuDeviceGetName, "cuDeviceGetName");
  Get(D.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  Get(D.cuCtxSetCurrent, "cuCtxSetCurrent");
  Get(D.cuCtxSynchronize, "cuCtxSynchronize");
  Get(D.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  Get(D.cuModuleGetFunction, "cuModuleGetFunction");
  Get(D.cuMemAlloc, "cuMemAlloc_v2");
  Get(D.cuMemFree, "cuMemFree_v2");
  Get(D.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  Get(D.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  Get(D.cuMemsetD8, "cuMemsetD8_v2");
  Get(D.cuLaunchKernel, "cuLaunchKernel");
  Get(D.cuEventCreate, "cuEventCreate");
  Get(D.cuEventRecord, "cuEventRecord");
  Get(D.cuEventSynchronize, "cuEventSynchronize");
  Get(D.cuEventElapsedTime, "cuEventElapsedTime");
  Get(D.cuGetErrorString, "cuGetErrorString");
  return Ok;
}

std::string CudaDriver::describe(CUresult R) const {
  const char *S = nullptr;
  if (cuGetErrorString && cuGetErrorString(R, &S) == 0 && S)
    return S;
  return "CUDA error " + std::to_string(R);
}

} // namespace skmd::test
