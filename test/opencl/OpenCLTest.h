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

} // namespace skmd::test

#endif // SKMD_TEST_OPENCL_OPENCLTEST_H
