//===- OpenCLTest.h - A context and queue on the SKMD platform --*- C++ -*-===//
//
// The fixture of the OpenCL tests: plain OpenCL calls through the ICD
// loader, pointed at the build tree's SKMD platform (ctest sets
// OCL_ICD_VENDORS and SKMD_DEVICES).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_OPENCL_OPENCLTEST_H
#define SKMD_TEST_OPENCL_OPENCLTEST_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <gtest/gtest.h>

#include <string>

namespace skmd::test {

class OpenCL : public ::testing::Test {
protected:
  void SetUp() override {
    cl_platform_id Platforms[16];
    cl_uint N = 0;
    ASSERT_EQ(clGetPlatformIDs(16, Platforms, &N), CL_SUCCESS);
    for (cl_uint I = 0; I < N; ++I) {
      char Name[64] = {0};
      clGetPlatformInfo(Platforms[I], CL_PLATFORM_NAME, sizeof Name, Name, nullptr);
      if (std::string(Name) == "SKMD")
        P = Platforms[I];
    }
    ASSERT_NE(P, nullptr) << "no SKMD platform: is OCL_ICD_VENDORS set?";
    ASSERT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr), CL_SUCCESS);
    cl_int E;
    Ctx = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &E);
    ASSERT_EQ(E, CL_SUCCESS);
    Q = clCreateCommandQueue(Ctx, D, CL_QUEUE_PROFILING_ENABLE, &E);
    ASSERT_EQ(E, CL_SUCCESS);
  }
  void TearDown() override {
    if (Q)
      clReleaseCommandQueue(Q);
    if (Ctx)
      clReleaseContext(Ctx);
  }
  cl_program build(const char *Source, const char *Options = nullptr) {
    cl_int E;
    cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Source, nullptr, &E);
    EXPECT_EQ(E, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(Prog, 1, &D, Options, nullptr, nullptr), CL_SUCCESS)
        << log(Prog);
    return Prog;
  }
  std::string log(cl_program Prog) {
    size_t Size = 0;
    clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
    return Log;
  }
  cl_platform_id P = nullptr;
  cl_device_id D = nullptr;
  cl_context Ctx = nullptr;
  cl_command_queue Q = nullptr;
};

} // namespace skmd::test

#endif // SKMD_TEST_OPENCL_OPENCLTEST_H
