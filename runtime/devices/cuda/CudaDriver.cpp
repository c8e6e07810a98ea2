//===- CudaDriver.cpp - The CUDA driver API, opened at run time -----------===//
#include "devices/cuda/CudaDriver.h"

#include <dlfcn.h>
#include <mutex>
#include <type_traits>

namespace skmd {

namespace {

struct Loaded {
  CudaDriver Driver{};
  std::string Error;
  bool Ok = false;
};

Loaded load() {
  Loaded L;
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Why = dlerror();
    L.Error = std::string("no CUDA driver (") + (Why ? Why : "libcuda.so.1") + ")";
    return L;
  }
  CudaDriver &D = L.Driver;
  bool Ok = true;
  auto Get = [&](auto &Slot, const char *Name) {
    Slot = reinterpret_cast<std::remove_reference_t<decltype(Slot)>>(dlsym(Lib, Name));
    if (!Slot && Ok) {
      L.Error = std::string("libcuda.so.1 lacks ") + Name + " (driver too old?)";
      Ok = false;
    }
  };
  Get(D.cuInit, "cuInit");
  Get(D.cuDeviceGetCount, "cuDeviceGetCount");
  Get(D.cuDeviceGet, "cuDeviceGet");
  Get(D.cuDeviceGetName, "cuDeviceGetName");
  Get(D.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  Get(D.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  Get(D.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  Get(D.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  Get(D.cuCtxSetCurrent, "cuCtxSetCurrent");
  Get(D.cuCtxSynchronize, "cuCtxSynchronize");
  Get(D.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  Get(D.cuModuleUnload, "cuModuleUnload");
  Get(D.cuModuleGetFunction, "cuModuleGetFunction");
  Get(D.cuFuncGetAttribute, "cuFuncGetAttribute");
  Get(D.cuMemAlloc, "cuMemAlloc_v2");
  Get(D.cuMemFree, "cuMemFree_v2");
  Get(D.cuMemHostAlloc, "cuMemHostAlloc");
  Get(D.cuMemFreeHost, "cuMemFreeHost");
  Get(D.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  Get(D.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  Get(D.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  Get(D.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  Get(D.cuMemsetD8, "cuMemsetD8_v2");
  Get(D.cuMemcpy2DAsync, "cuMemcpy2DAsync_v2");
  Get(D.cuLaunchKernel, "cuLaunchKernel");
  Get(D.cuStreamCreate, "cuStreamCreate");
  Get(D.cuStreamDestroy, "cuStreamDestroy_v2");
  Get(D.cuStreamSynchronize, "cuStreamSynchronize");
  Get(D.cuEventCreate, "cuEventCreate");
  Get(D.cuEventDestroy, "cuEventDestroy_v2");
  Get(D.cuEventRecord, "cuEventRecord");
  Get(D.cuEventSynchronize, "cuEventSynchronize");
  Get(D.cuEventElapsedTime, "cuEventElapsedTime");
  Get(D.cuGetErrorString, "cuGetErrorString");
  if (!Ok)
    return L;
  if (CUresult R = D.cuInit(0)) {
    L.Error = "cuInit failed: " + D.describe(R);
    return L;
  }
  L.Ok = true;
  return L;
}

} // namespace

const CudaDriver *CudaDriver::get(std::string &Error) {
  // The library stays loaded for the process: contexts and modules of
  // every device live in it.
  static const Loaded L = load();
  if (!L.Ok) {
    Error = L.Error;
    return nullptr;
  }
  return &L.Driver;
}

std::string CudaDriver::describe(CUresult R) const {
  const char *S = nullptr;
  if (cuGetErrorString && cuGetErrorString(R, &S) == 0 && S)
    return S;
  return "CUDA error " + std::to_string(R);
}

} // namespace skmd
