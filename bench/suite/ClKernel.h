//===- ClKernel.h - One kernel built on one OpenCL device -------*- C++ -*-===//
//
// A context, an in-order queue, a program built from source and one of its
// kernels on one device the ICD loader lists, released however a run ends;
// for the benchmarks whose host code is plain OpenCL (opencl-iterative,
// launch-overhead). Only built where OpenCL is found.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BENCH_SUITE_CLKERNEL_H
#define SKMD_BENCH_SUITE_CLKERNEL_H

#include "OpenCL.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

namespace skmd::bench {

struct ClKernel {
  cl_context Ctx = nullptr;
  cl_command_queue Q = nullptr;
  cl_program Prog = nullptr;
  cl_kernel K = nullptr;

  ClKernel() = default;
  ClKernel(const ClKernel &) = delete;
  ClKernel &operator=(const ClKernel &) = delete;
  ~ClKernel() {
    if (K)
      clReleaseKernel(K);
    if (Prog)
      clReleaseProgram(Prog);
    if (Q)
      clReleaseCommandQueue(Q);
    if (Ctx)
      clReleaseContext(Ctx);
  }

  /// Builds \p Source with \p Options on \p D and makes its kernel \p Name;
  /// the error (the build log with it) or "".
  std::string build(const ClDeviceInfo &D, const std::string &Source, const char *Options,
                    const char *Name) {
    cl_device_id Dev = static_cast<cl_device_id>(D.DeviceId);
    cl_int E;
    Ctx = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &E);
    if (E != CL_SUCCESS)
      return "clCreateContext failed: " + std::to_string(E);
    Q = clCreateCommandQueue(Ctx, Dev, 0, &E);
    if (E != CL_SUCCESS)
      return "clCreateCommandQueue failed: " + std::to_string(E);
    const char *Text = Source.c_str();
    Prog = clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &E);
    if (E == CL_SUCCESS)
      E = clBuildProgram(Prog, 1, &Dev, Options, nullptr, nullptr);
    if (E != CL_SUCCESS) {
      size_t Size = 0;
      clGetProgramBuildInfo(Prog, Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
      std::string Log(Size, '\0');
      clGetProgramBuildInfo(Prog, Dev, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
      return "clBuildProgram failed: " + std::to_string(E) + ": " + Log;
    }
    K = clCreateKernel(Prog, Name, &E);
    if (E != CL_SUCCESS)
      return "clCreateKernel failed: " + std::to_string(E);
    return "";
  }
};

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_CLKERNEL_H
