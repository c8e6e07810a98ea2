//===- CudaDriver.h - The few CUDA driver calls the GPU checks use -*- C++ -*-===//
//
// libcuda.so.1 is opened with dlopen, so this builds and runs (and reports
// "no CUDA driver") on machines without CUDA, as the runtime will.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_GPU_CUDADRIVER_H
#define SKMD_TEST_GPU_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace skmd::test {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = struct CUevent_st *;
using CUstream = struct CUstream_st *;

struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorString)(CUresult, const char **);

  /// Loads libcuda.so.1 and every entry point; the error says what failed.
  static bool load(CudaDriver &D, std::string &Error);
  std::string describe(CUresult R) const;
};

} // namespace skmd::test

#endif // SKMD_TEST_GPU_CUDADRIVER_H
