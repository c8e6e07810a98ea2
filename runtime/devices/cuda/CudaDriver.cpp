//===- CudaDriver.cpp - The CUDA driver API, opened at run time -----------===//
#include "devices/cuda/CudaDriver.h"

#include "support/DynamicLibrary.h"

#include <mutex>

namespace skmd {

namespace {

struct Loaded {
  CudaDriver Driver{};
  std::string Error;
  bool Ok = false;
};

Loaded load() {
  Loaded L;
  DynamicLibrary Lib("libcuda.so.1", "CUDA driver", "driver too old?");
  CudaDriver &D = L.Driver;
  Lib.get(D.cuInit, "cuInit");
  Lib.get(D.cuDeviceGetCount, "cuDeviceGetCount");
  Lib.get(D.cuDeviceGet, "cuDeviceGet");
  Lib.get(D.cuDeviceGetName, "cuDeviceGetName");
  Lib.get(D.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  Lib.get(D.cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
  Lib.get(D.cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute");
  Lib.get(D.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  Lib.get(D.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  Lib.get(D.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  Lib.get(D.cuDevicePrimaryCtxSetFlags, "cuDevicePrimaryCtxSetFlags_v2");
  Lib.get(D.cuCtxSetCurrent, "cuCtxSetCurrent");
  Lib.get(D.cuCtxSynchronize, "cuCtxSynchronize");
  Lib.get(D.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  Lib.get(D.cuModuleUnload, "cuModuleUnload");
  Lib.get(D.cuModuleGetFunction, "cuModuleGetFunction");
  Lib.get(D.cuMemAlloc, "cuMemAlloc_v2");
  Lib.get(D.cuMemFree, "cuMemFree_v2");
  Lib.get(D.cuMemHostAlloc, "cuMemHostAlloc");
  Lib.get(D.cuMemFreeHost, "cuMemFreeHost");
  Lib.get(D.cuMemHostRegister, "cuMemHostRegister_v2");
  Lib.get(D.cuMemHostUnregister, "cuMemHostUnregister");
  Lib.get(D.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  Lib.get(D.cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
  Lib.get(D.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
  Lib.get(D.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  Lib.get(D.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  Lib.get(D.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  Lib.get(D.cuMemsetD8, "cuMemsetD8_v2");
  Lib.get(D.cuMemcpy2DAsync, "cuMemcpy2DAsync_v2");
  Lib.get(D.cuLaunchKernel, "cuLaunchKernel");
  Lib.get(D.cuStreamCreate, "cuStreamCreate");
  Lib.get(D.cuStreamDestroy, "cuStreamDestroy_v2");
  Lib.get(D.cuStreamSynchronize, "cuStreamSynchronize");
  Lib.get(D.cuEventCreate, "cuEventCreate");
  Lib.get(D.cuEventDestroy, "cuEventDestroy_v2");
  Lib.get(D.cuEventRecord, "cuEventRecord");
  Lib.get(D.cuEventSynchronize, "cuEventSynchronize");
  Lib.get(D.cuStreamWaitEvent, "cuStreamWaitEvent");
  Lib.get(D.cuEventElapsedTime, "cuEventElapsedTime");
  Lib.get(D.cuGetErrorString, "cuGetErrorString");
  if (!Lib.ok()) {
    L.Error = Lib.error();
    return L;
  }
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
