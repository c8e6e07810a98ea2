//===- ApiTest.cpp - The SKMD platform through the ICD loader -------------===//
//
// Plain OpenCL calls, linked against the system's libOpenCL, with the
// loader pointed at the build tree's SKMD platform (ctest sets
// OCL_ICD_VENDORS and SKMD_DEVICES=cpu,discrete,discrete): each group of
// entry points, the error codes the specification names, and results
// checked against the host.
//
//===----------------------------------------------------------------------===//
#include "OpenCLTest.h"

#include "skmd/cl_skmd.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using skmd::test::OpenCL;

const char *VectorAdd =
    "__kernel void vector_add(__global const float *a, __global const float *b,\n"
    "                         __global float *c, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void scale(__global float *x, float f, __local float *tmp) {\n"
    "  int i = get_global_id(0);\n"
    "  tmp[get_local_id(0)] = x[i] * f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  x[i] = tmp[get_local_id(0)];\n"
    "}\n";

TEST_F(OpenCL, PlatformAndDeviceAnswerAsTheSpecificationSays) {
  char Suffix[16];
  ASSERT_EQ(clGetPlatformInfo(P, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof Suffix, Suffix, nullptr),
            CL_SUCCESS);
  EXPECT_STREQ(Suffix, "SKMD");
  char Tiny[2];
  EXPECT_EQ(clGetPlatformInfo(P, CL_PLATFORM_VERSION, sizeof Tiny, Tiny, nullptr),
            CL_INVALID_VALUE);
  // The device's type is what it spans: here (the CPU and two HostDiscrete
  // devices, both on the host's cores) a CPU, found as one and no GPU.
  for (cl_device_type T : {cl_device_type(CL_DEVICE_TYPE_CPU),
                           cl_device_type(CL_DEVICE_TYPE_DEFAULT),
                           cl_device_type(CL_DEVICE_TYPE_ALL)}) {
    cl_uint N = 0;
    EXPECT_EQ(clGetDeviceIDs(P, T, 0, nullptr, &N), CL_SUCCESS) << T;
    EXPECT_EQ(N, 1u);
  }
  cl_device_type Type = 0;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_TYPE, sizeof Type, &Type, nullptr), CL_SUCCESS);
  // A server's devices are not the host's cores: GPU too where they take
  // part (opencl-icd-remote).
  const char *Devices = std::getenv("SKMD_DEVICES");
  bool Remote = Devices && std::string(Devices).find("remote:") != std::string::npos;
  EXPECT_EQ(Type, cl_device_type(Remote ? CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU
                                        : CL_DEVICE_TYPE_CPU));
  cl_uint N = 7;
  for (cl_device_type T : {cl_device_type(CL_DEVICE_TYPE_GPU),
                           cl_device_type(CL_DEVICE_TYPE_ACCELERATOR)}) {
    bool Spans = Type & T;
    EXPECT_EQ(clGetDeviceIDs(P, T, 0, nullptr, &N), Spans ? CL_SUCCESS : CL_DEVICE_NOT_FOUND)
        << T;
    EXPECT_EQ(N, Spans ? 1u : 0u);
  }
  EXPECT_EQ(clGetDeviceIDs(P, cl_device_type(1) << 40, 0, nullptr, &N), CL_INVALID_DEVICE_TYPE);
  cl_bool Images = CL_TRUE;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_IMAGE_SUPPORT, sizeof Images, &Images, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Images, CL_FALSE);
  size_t Group = 0;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof Group, &Group, nullptr),
            CL_SUCCESS);
  EXPECT_GE(Group, 256u);
  char Name[256];
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_NAME, sizeof Name, Name, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::string(Name).rfind("SKMD (cpu", 0), 0u) << Name;
  EXPECT_EQ(clGetDeviceInfo(D, 0x7fff, sizeof Name, Name, nullptr), CL_INVALID_VALUE);
  // Images are refused with the specification's code for a device without.
  cl_int E = CL_SUCCESS;
  cl_image_format Format{CL_RGBA, CL_FLOAT};
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = Desc.image_height = 4;
  EXPECT_EQ(clCreateImage(Ctx, CL_MEM_READ_ONLY, &Format, &Desc, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_OPERATION);
  cl_uint Formats = 7;
  EXPECT_EQ(clGetSupportedImageFormats(Ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                       &Formats),
            CL_SUCCESS);
  EXPECT_EQ(Formats, 0u);
  EXPECT_EQ(clCreateSampler(Ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_OPERATION);
}

TEST_F(OpenCL, BuffersRefuseBadFlagsAndSizes) {
  cl_int E;
  float X[4] = {0};
  EXPECT_EQ(clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 0, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, 16, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 16, X, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(Ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, X, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_VALUE);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 16, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 8, 16, X, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, 16, X, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // Zero-filled, then a pattern, then copied.
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, 16, X, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(X[3], 0.0f);
  float Two = 2.0f;
  ASSERT_EQ(clEnqueueFillBuffer(Q, M, &Two, sizeof Two, 4, 12, 0, nullptr, nullptr), CL_SUCCESS);
  cl_mem Copy = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 16, nullptr, &E);
  ASSERT_EQ(clEnqueueCopyBuffer(Q, M, Copy, 0, 0, 16, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(Q, M, M, 0, 4, 8, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  ASSERT_EQ(clEnqueueReadBuffer(Q, Copy, CL_TRUE, 0, 16, X, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(X[0], 0.0f);
  EXPECT_EQ(X[1], 2.0f);
  EXPECT_EQ(X[3], 2.0f);
  size_t Size = 0;
  ASSERT_EQ(clGetMemObjectInfo(M, CL_MEM_SIZE, sizeof Size, &Size, nullptr), CL_SUCCESS);
  EXPECT_EQ(Size, 16u);
  clReleaseMemObject(Copy);
  clReleaseMemObject(M);
}

TEST_F(OpenCL, ProgramsReportBuildErrorsAndTakeTheirOwnBinary) {
  const char *Broken = "__kernel void k(__global int *x) { x[0] = undefined_name; }\n";
  cl_int E;
  cl_program Bad = clCreateProgramWithSource(Ctx, 1, &Broken, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(Bad, 1, &D, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  std::string Log = log(Bad);
  EXPECT_NE(Log.find("undefined_name"), std::string::npos) << Log;
  EXPECT_NE(Log.find("error"), std::string::npos) << Log;
  cl_build_status Status;
  clGetProgramBuildInfo(Bad, D, CL_PROGRAM_BUILD_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, CL_BUILD_ERROR);
  EXPECT_EQ(clCreateKernel(Bad, "k", &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clBuildProgram(Bad, 1, &D, "-fno-such-option", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(Bad);

  // A warning is in the log; -Werror makes it an error, -w hides it.
  const char *Warns = "#pragma OPENCL EXTENSION made_up_extension : enable\n"
                      "__kernel void k(__global int *x) { x[0] = 1; }\n";
  for (const char *Options : {"", "-Werror", "-w"}) {
    SCOPED_TRACE(Options);
    cl_program P = clCreateProgramWithSource(Ctx, 1, &Warns, nullptr, &E);
    cl_int Built = clBuildProgram(P, 1, &D, Options, nullptr, nullptr);
    std::string Said = log(P);
    bool Fails = std::string(Options) == "-Werror";
    EXPECT_EQ(Built, Fails ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS) << Said;
    EXPECT_EQ(Said.find("made_up_extension") != std::string::npos, Options[0] != '-' || Fails)
        << Said;
    clReleaseProgram(P);
  }

  cl_program Prog = build(VectorAdd, "-cl-std=CL1.2 -DUNUSED=1 -w");
  EXPECT_EQ(clCreateKernel(Prog, "nope", &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_KERNEL_NAME);
  size_t Kernels = 0;
  ASSERT_EQ(clGetProgramInfo(Prog, CL_PROGRAM_NUM_KERNELS, sizeof Kernels, &Kernels, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Kernels, 2u);
  // Its binary (a bundle) makes the same program again.
  size_t Bytes = 0;
  ASSERT_EQ(clGetProgramInfo(Prog, CL_PROGRAM_BINARY_SIZES, sizeof Bytes, &Bytes, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> Binary(Bytes);
  unsigned char *Into = Binary.data();
  ASSERT_EQ(clGetProgramInfo(Prog, CL_PROGRAM_BINARIES, sizeof Into, &Into, nullptr),
            CL_SUCCESS);
  const unsigned char *From = Binary.data();
  cl_int BinaryStatus;
  cl_program Again =
      clCreateProgramWithBinary(Ctx, 1, &D, &Bytes, &From, &BinaryStatus, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  EXPECT_EQ(BinaryStatus, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(Again, 1, &D, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel K = clCreateKernel(Again, "vector_add", &E);
  EXPECT_EQ(E, CL_SUCCESS);
  clReleaseKernel(K);
  Binary[20] ^= 0xff;
  EXPECT_EQ(clCreateProgramWithBinary(Ctx, 1, &D, &Bytes, &From, &BinaryStatus, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_BINARY);
  clReleaseProgram(Again);
  clReleaseProgram(Prog);
}

TEST_F(OpenCL, KernelArgumentsAndLaunchesAreChecked) {
  cl_program Prog = build(VectorAdd);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "scale", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const int N = 4096;
  std::vector<float> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = float(I);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, X.data(), &E);
  ASSERT_EQ(E, CL_SUCCESS);
  float F = 3.0f;
  EXPECT_EQ(clSetKernelArg(K, 3, sizeof F, &F), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(K, 1, sizeof(double), &F), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(K, 2, 256, &F), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(K, 2, 0, nullptr), CL_INVALID_ARG_SIZE);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof M, &M), CL_SUCCESS);
  size_t Global = N, Local = 64, Odd = 100;
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof F, &F), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, 64 * sizeof(float), nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Odd, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 4, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_INVALID_WORK_DIMENSION);
  cl_event Ev;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, &Ev),
            CL_SUCCESS);
  // No local size: the platform picks one (the kernel's __local array is
  // sized for 64; the pick divides 4096 and stays within 256).
  ASSERT_EQ(clWaitForEvents(1, &Ev), CL_SUCCESS);
  cl_ulong Start = 0, End = 0;
  ASSERT_EQ(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_START, sizeof Start, &Start,
                                    nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_END, sizeof End, &End, nullptr),
            CL_SUCCESS);
  EXPECT_GE(End, Start);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * 4, X.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(X[I], float(I) * 3.0f) << I;
  clReleaseEvent(Ev);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// Mapping brings a resident buffer's current bytes to the host (here the
// results of a launch split over the devices); writing through a mapping
// and unmapping makes the next launch see the new bytes.
TEST_F(OpenCL, MappedBuffersSeeLaunchesAndLaunchesSeeUnmappedWrites) {
  cl_program Prog = build(VectorAdd);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "scale", &E);
  const int N = 2048;
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * 4, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  auto *P = static_cast<float *>(clEnqueueMapBuffer(Q, M, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                    0, N * 4, 0, nullptr, nullptr, &E));
  ASSERT_EQ(E, CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    P[I] = float(I);
  cl_uint Maps = 0;
  clGetMemObjectInfo(M, CL_MEM_MAP_COUNT, sizeof Maps, &Maps, nullptr);
  EXPECT_EQ(Maps, 1u);
  ASSERT_EQ(clEnqueueUnmapMemObject(Q, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(Q, M, P, 0, nullptr, nullptr), CL_INVALID_VALUE);
  float F = 2.0f;
  clSetKernelArg(K, 0, sizeof M, &M);
  clSetKernelArg(K, 1, sizeof F, &F);
  clSetKernelArg(K, 2, 64 * 4, nullptr);
  size_t Global = N, Local = 64;
  for (int Round = 0; Round < 2; ++Round)
    ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
              CL_SUCCESS);
  P = static_cast<float *>(clEnqueueMapBuffer(Q, M, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                              N * 2, N * 2, 0, nullptr, nullptr, &E));
  ASSERT_EQ(E, CL_SUCCESS);
  for (int I = 0; I < N / 2; ++I)
    ASSERT_EQ(P[I], float(N / 2 + I) * 4.0f) << I;
  P[0] = -1.0f;
  ASSERT_EQ(clEnqueueUnmapMemObject(Q, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  float Back[2];
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, (N / 2 - 1) * 4, 8, Back, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Back[0], float(N / 2 - 1) * 8.0f);
  EXPECT_EQ(Back[1], -2.0f);
  EXPECT_EQ(clEnqueueMapBuffer(Q, M, CL_TRUE, CL_MAP_READ, N * 4, 4, 0, nullptr, nullptr, &E),
            nullptr);
  EXPECT_EQ(E, CL_INVALID_VALUE);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// Argument descriptions (for a source build, with -cl-kernel-arg-info
// only), and a 2-D window written and read back by rows.
TEST_F(OpenCL, ArgumentInfoAndRectangularTransfers) {
  cl_program Without = build(VectorAdd);
  cl_int E;
  cl_kernel Plain = clCreateKernel(Without, "scale", &E);
  char Name[32];
  EXPECT_EQ(clGetKernelArgInfo(Plain, 1, CL_KERNEL_ARG_NAME, sizeof Name, Name, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(Plain);
  clReleaseProgram(Without);
  // An empty source is compiled, not taken for a binary, into a program
  // without kernels, as OpenCL allows.
  const char *Empty = "";
  cl_program None = clCreateProgramWithSource(Ctx, 1, &Empty, nullptr, &E);
  EXPECT_EQ(clBuildProgram(None, 1, &D, nullptr, nullptr, nullptr), CL_SUCCESS) << log(None);
  size_t Count = 1;
  EXPECT_EQ(clGetProgramInfo(None, CL_PROGRAM_NUM_KERNELS, sizeof Count, &Count, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Count, 0u);
  cl_uint Made = 1;
  EXPECT_EQ(clCreateKernelsInProgram(None, 0, nullptr, &Made), CL_SUCCESS);
  EXPECT_EQ(Made, 0u);
  clCreateKernel(None, "scale", &E);
  EXPECT_EQ(E, CL_INVALID_KERNEL_NAME);
  clReleaseProgram(None);
  cl_program Prog = build(VectorAdd, "-cl-kernel-arg-info");
  cl_kernel K = clCreateKernel(Prog, "scale", &E);
  ASSERT_EQ(clGetKernelArgInfo(K, 1, CL_KERNEL_ARG_NAME, sizeof Name, Name, nullptr), CL_SUCCESS);
  EXPECT_STREQ(Name, "f");
  cl_kernel_arg_address_qualifier Space;
  ASSERT_EQ(clGetKernelArgInfo(K, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof Space, &Space,
                               nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Space, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(clGetKernelArgInfo(K, 3, CL_KERNEL_ARG_NAME, sizeof Name, Name, nullptr),
            CL_INVALID_ARG_INDEX);
  // An 8 x 6 grid of ints; a 3 x 2 window at (2, 1) written from a packed
  // host array, then the grid read back whole.
  const size_t W = 8, H = 6;
  std::vector<int> Zero(W * H, 0), Grid(W * H, -1);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, W * H * 4, Zero.data(), &E);
  int Window[6] = {1, 2, 3, 4, 5, 6};
  size_t BufferOrigin[3] = {2 * 4, 1, 0}, HostOrigin[3] = {0, 0, 0}, Region[3] = {3 * 4, 2, 1};
  ASSERT_EQ(clEnqueueWriteBufferRect(Q, M, CL_TRUE, BufferOrigin, HostOrigin, Region, W * 4, 0,
                                     0, 0, Window, 0, nullptr, nullptr),
            CL_SUCCESS);
  size_t All[3] = {W * 4, H, 1};
  ASSERT_EQ(clEnqueueReadBufferRect(Q, M, CL_TRUE, HostOrigin, HostOrigin, All, W * 4, 0, 0, 0,
                                    Grid.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X) {
      bool In = Y >= 1 && Y < 3 && X >= 2 && X < 5;
      ASSERT_EQ(Grid[Y * W + X], In ? Window[(Y - 1) * 3 + (X - 2)] : 0) << X << "," << Y;
    }
  size_t TooTall[3] = {W * 4, H + 1, 1};
  EXPECT_EQ(clEnqueueReadBufferRect(Q, M, CL_TRUE, HostOrigin, HostOrigin, TooTall, W * 4, 0, 0,
                                    0, Grid.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// A command waiting on a user event waits in the queue, not in the call;
// setting the event lets it run, and a failed user event fails it.
TEST_F(OpenCL, UserEventsHoldCommandsBackWithoutBlockingTheCaller) {
  cl_int E;
  cl_event Gate = clCreateUserEvent(Ctx, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  float Value = 5.0f, Back = 0.0f;
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 4, nullptr, &E);
  cl_event Write;
  ASSERT_EQ(clEnqueueWriteBuffer(Q, M, CL_FALSE, 0, 4, &Value, 1, &Gate, &Write), CL_SUCCESS);
  cl_int Status;
  clGetEventInfo(Write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_GT(Status, CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_INVALID_OPERATION);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, 4, &Back, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(Back, 5.0f);
  clGetEventInfo(Write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, CL_COMPLETE);

  cl_event Failing = clCreateUserEvent(Ctx, &E);
  cl_event Read;
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_FALSE, 0, 4, &Back, 1, &Failing, &Read), CL_SUCCESS);
  std::thread Later([&] { clSetUserEventStatus(Failing, -42); });
  EXPECT_EQ(clWaitForEvents(1, &Read), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  Later.join();
  clGetEventInfo(Read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clGetEventInfo(Failing, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, -42);
  for (cl_event Ev : {Gate, Write, Failing, Read})
    clReleaseEvent(Ev);
  clReleaseMemObject(M);
}

// CL_MEM_USE_HOST_PTR: the program's memory is the buffer; after the
// launch and a finish, the results are in it. Objects keep their context
// alive past the program's release of it.
TEST_F(OpenCL, UseHostPtrBuffersAndLifetimes) {
  cl_program Prog = build(VectorAdd);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "vector_add", &E);
  const int N = 1000;
  std::vector<float> A(N, 1.0f), B(N, 2.5f), C(N, 0.0f);
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_USE_HOST_PTR, N * 4, A.data(), &E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_USE_HOST_PTR, N * 4, B.data(), &E);
  cl_mem MC = clCreateBuffer(Ctx, CL_MEM_USE_HOST_PTR, N * 4, C.data(), &E);
  ASSERT_EQ(E, CL_SUCCESS);
  clSetKernelArg(K, 0, sizeof MA, &MA);
  clSetKernelArg(K, 1, sizeof MB, &MB);
  clSetKernelArg(K, 2, sizeof MC, &MC);
  clSetKernelArg(K, 3, sizeof N, &N);
  size_t Global = 1024;
  // The context goes first; the queue, buffers and kernel still hold it.
  clReleaseContext(Ctx);
  Ctx = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(Q), CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(C[I], 3.5f) << I;
  for (cl_mem M : {MA, MB, MC})
    clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// A host without the compiler module (ctest runs this with
// SKMD_OPENCL_COMPILER pointing nowhere): the device says so, a build from
// source fails with CL_COMPILER_NOT_AVAILABLE and a log naming the module,
// and a bundle still loads and runs.
// Programs live at once each run their own kernels (their x86 variants
// are loaded side by side; one once shadowed the next in dlopen).
TEST_F(OpenCL, ProgramsLiveAtOnceRunTheirOwnKernels) {
  const char *Twice = "__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2; }";
  const char *Thrice = "__kernel void thrice(__global int *x) { x[get_global_id(0)] *= 3; }";
  cl_program P1 = build(Twice), P2 = build(Thrice);
  cl_int E;
  cl_kernel K1 = clCreateKernel(P1, "twice", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_kernel K2 = clCreateKernel(P2, "thrice", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  std::vector<int> X(1024, 1);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, X.size() * 4, X.data(), &E);
  clSetKernelArg(K1, 0, sizeof M, &M);
  clSetKernelArg(K2, 0, sizeof M, &M);
  size_t Global = X.size();
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K1, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K2, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, X.size() * 4, X.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < X.size(); ++I)
    ASSERT_EQ(X[I], 6) << I;
  clReleaseMemObject(M);
  for (cl_kernel K : {K1, K2})
    clReleaseKernel(K);
  for (cl_program Prog : {P1, P2})
    clReleaseProgram(Prog);
}

/// The groups each device ran in the launch of \p E (skmd/cl_skmd.h).
std::string planOf(cl_event E) {
  char Plan[512] = {0};
  EXPECT_EQ(clGetEventInfo(E, CL_EVENT_SKMD_PLAN, sizeof Plan, Plan, nullptr), CL_SUCCESS);
  return Plan;
}

// SKMD_OPENCL_EXPOSE=each (ctest opencl-expose-each): each runtime device
// is a device of its own after the one made of all, found by its type; a
// queue on one runs its launches there alone.
TEST_F(OpenCL, EachDeviceOnItsOwn) {
  const char *Expose = std::getenv("SKMD_OPENCL_EXPOSE");
  if (!Expose || std::string(Expose) != "each")
    GTEST_SKIP() << "run with SKMD_OPENCL_EXPOSE=each (ctest opencl-expose-each)";
  cl_uint N = 0;
  ASSERT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &N), CL_SUCCESS);
  ASSERT_EQ(N, 4u); // all, cpu, discrete0, discrete1
  std::vector<cl_device_id> All(N);
  ASSERT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, N, All.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(All[0], D);
  cl_uint Defaults = 0;
  ASSERT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &Defaults), CL_SUCCESS);
  EXPECT_EQ(Defaults, 1u);
  cl_uint Cpus = 0, Gpus = 7;
  ASSERT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 0, nullptr, &Cpus), CL_SUCCESS);
  EXPECT_EQ(Cpus, 4u); // HostDiscrete devices are CPUs, and so all of them
  EXPECT_EQ(clGetDeviceIDs(P, CL_DEVICE_TYPE_GPU, 0, nullptr, &Gpus), CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(Gpus, 0u);
  cl_int E;
  cl_context Each = clCreateContext(nullptr, N, All.data(), nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_uint InContext = 0;
  clGetContextInfo(Each, CL_CONTEXT_NUM_DEVICES, sizeof InContext, &InContext, nullptr);
  EXPECT_EQ(InContext, N);
  const char *Source = VectorAdd;
  cl_program Prog = clCreateProgramWithSource(Each, 1, &Source, nullptr, &E);
  ASSERT_EQ(clBuildProgram(Prog, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  size_t Sizes[4] = {0, 0, 0, 0};
  ASSERT_EQ(clGetProgramInfo(Prog, CL_PROGRAM_BINARY_SIZES, sizeof Sizes, Sizes, nullptr),
            CL_SUCCESS);
  for (size_t S : Sizes)
    EXPECT_EQ(S, Sizes[0]);
  cl_kernel K = clCreateKernel(Prog, "vector_add", &E);
  size_t Group = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof Group, &Group,
                                     nullptr),
            CL_INVALID_VALUE); // several devices: name one
  const int Items = 4096;
  std::vector<float> A(Items, 1.5f), B(Items, 2.0f), C(Items);
  cl_mem MA = clCreateBuffer(Each, CL_MEM_COPY_HOST_PTR, Items * 4, A.data(), &E);
  cl_mem MB = clCreateBuffer(Each, CL_MEM_COPY_HOST_PTR, Items * 4, B.data(), &E);
  cl_mem MC = clCreateBuffer(Each, CL_MEM_READ_WRITE, Items * 4, nullptr, &E);
  clSetKernelArg(K, 0, sizeof MA, &MA);
  clSetKernelArg(K, 1, sizeof MB, &MB);
  clSetKernelArg(K, 2, sizeof MC, &MC);
  clSetKernelArg(K, 3, sizeof Items, &Items);
  for (cl_uint I = 0; I < N; ++I) {
    char Name[128] = {0};
    clGetDeviceInfo(All[I], CL_DEVICE_NAME, sizeof Name, Name, nullptr);
    cl_command_queue On = clCreateCommandQueue(Each, All[I], 0, &E);
    ASSERT_EQ(E, CL_SUCCESS) << Name;
    cl_device_id Back = nullptr;
    clGetCommandQueueInfo(On, CL_QUEUE_DEVICE, sizeof Back, &Back, nullptr);
    EXPECT_EQ(Back, All[I]);
    float Zero = 0;
    clEnqueueFillBuffer(On, MC, &Zero, 4, 0, Items * 4, 0, nullptr, nullptr);
    size_t Global = Items, Local = 64;
    cl_event Launch = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(On, K, 1, nullptr, &Global, &Local, 0, nullptr, &Launch),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(On, MC, CL_TRUE, 0, Items * 4, C.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (int X = 0; X < Items; ++X)
      ASSERT_EQ(C[X], 3.5f) << Name << " " << X;
    std::string Plan = planOf(Launch);
    if (I == 0) {
      EXPECT_NE(Plan.find(' '), std::string::npos) << Plan; // split
    } else {
      // One device, every group: "SKMD cpu (...)" runs "cpu:0+64".
      std::string Device = std::string(Name).substr(5);
      Device = Device.substr(0, Device.find(' '));
      EXPECT_EQ(Plan, Device + ":0+64") << Name;
    }
    clReleaseEvent(Launch);
    clReleaseCommandQueue(On);
  }
  for (cl_mem M : {MA, MB, MC})
    clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
  clReleaseContext(Each);
}

// An iterative stencil's buffers stay on the devices between launches:
// after the first two, each Jacobi step moves the rows at the pieces' borders
// (the halo), not the grid (issue 21), and the result equals the host's.
TEST_F(OpenCL, IterativeStencilMovesHalosNotGrids) {
  const char *Jacobi =
      "__kernel void jacobi(__global const float *in, __global float *out, int w, int h) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  float v = in[y * w + x];\n"
      "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
      "    v = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +\n"
      "                 in[(y + 1) * w + x]);\n"
      "  out[y * w + x] = v;\n"
      "}\n";
  cl_program Prog = build(Jacobi);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "jacobi", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const int W = 256, H = 256, Steps = 10;
  std::vector<float> Grid(W * H);
  for (int I = 0; I < W * H; ++I)
    Grid[I] = float((I * 37) % 101);
  cl_mem Bufs[2] = {
      clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, Grid.size() * 4, Grid.data(), &E),
      clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Grid.size() * 4, nullptr, &E)};
  clSetKernelArg(K, 2, sizeof W, &W);
  clSetKernelArg(K, 3, sizeof H, &H);
  size_t Global[2] = {W, H}, Local[2] = {16, 16};
  const cl_ulong RowBytes = W * 4;
  for (int S = 0; S < Steps; ++S) {
    clSetKernelArg(K, 0, sizeof(cl_mem), &Bufs[S % 2]);
    clSetKernelArg(K, 1, sizeof(cl_mem), &Bufs[(S + 1) % 2]);
    cl_event Launch = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 2, nullptr, Global, Local, 0, nullptr, &Launch),
              CL_SUCCESS);
    clWaitForEvents(1, &Launch);
    cl_ulong In = 0, Back = 0;
    clGetEventInfo(Launch, CL_EVENT_SKMD_BYTES_TO_DEVICES, sizeof In, &In, nullptr);
    clGetEventInfo(Launch, CL_EVENT_SKMD_BYTES_FROM_DEVICES, sizeof Back, &Back, nullptr);
    std::string Plan = planOf(Launch);
    clReleaseEvent(Launch);
    ASSERT_NE(Plan.find("discrete"), std::string::npos) << Plan;
    // The first step brings each piece its rows; the second grows each
    // device's copy of the first step's output to hold the halo too (its
    // rows make that trip through the host once). From then on only
    // halos move.
    if (S < 2)
      continue;
    // Two borders between three pieces; a row each way across each, at
    // most, to and from the devices (a row is 16 groups' edge).
    EXPECT_GT(In, 0u) << "step " << S << ", plan " << Plan;
    EXPECT_LE(In, 4 * RowBytes) << "step " << S << ", plan " << Plan;
    EXPECT_LE(Back, 4 * RowBytes) << "step " << S << ", plan " << Plan;
  }
  std::vector<float> Got(W * H), Ref = Grid, Next(W * H);
  ASSERT_EQ(clEnqueueReadBuffer(Q, Bufs[Steps % 2], CL_TRUE, 0, Got.size() * 4, Got.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (int S = 0; S < Steps; ++S) {
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        float V = Ref[Y * W + X];
        if (X > 0 && Y > 0 && X < W - 1 && Y < H - 1)
          V = 0.25f * (Ref[Y * W + X - 1] + Ref[Y * W + X + 1] + Ref[(Y - 1) * W + X] +
                       Ref[(Y + 1) * W + X]);
        Next[Y * W + X] = V;
      }
    std::swap(Ref, Next);
  }
  for (int I = 0; I < W * H; ++I)
    ASSERT_EQ(Got[I], Ref[I]) << I;
  for (cl_mem M : Bufs)
    clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// reqd_work_group_size is the local size: queried, taken when the launch
// gives none, and a launch that gives another is refused.
TEST_F(OpenCL, RequiredWorkGroupSizes) {
  const char *Source =
      "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
      "void sizes(__global int *out) {\n"
      "  __local int tile[64];\n"
      "  tile[get_local_id(0)] = (int)get_local_size(0);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(0)] = tile[63 - get_local_id(0)];\n"
      "}\n";
  cl_program Prog = build(Source);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "sizes", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  size_t Compile[3] = {0, 0, 0}, Group = 0;
  cl_ulong Local = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(K, D, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof Compile,
                                     Compile, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Compile[0], 64u);
  EXPECT_EQ(Compile[1], 1u);
  clGetKernelWorkGroupInfo(K, D, CL_KERNEL_WORK_GROUP_SIZE, sizeof Group, &Group, nullptr);
  EXPECT_EQ(Group, 64u);
  clGetKernelWorkGroupInfo(K, D, CL_KERNEL_LOCAL_MEM_SIZE, sizeof Local, &Local, nullptr);
  EXPECT_GE(Local, 256u);
  std::vector<int> Out(1024, 0);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Out.size() * 4, nullptr, &E);
  clSetKernelArg(K, 0, sizeof M, &M);
  size_t Global = Out.size(), Wrong = 32;
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Out.size() * 4, Out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (int V : Out)
    ASSERT_EQ(V, 64);
  size_t TooDeep[3] = {64, 1, 128};
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 3, nullptr, TooDeep, TooDeep, 0, nullptr, nullptr),
            CL_INVALID_WORK_ITEM_SIZE);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// Separate compilation: a program compiled with an input header, linked
// alone and with a second program whose function it calls.
TEST_F(OpenCL, CompileWithHeadersAndLink) {
  cl_int E;
  const char *HeaderText = "#define SCALE 3\nfloat twice(float x);\n";
  const char *Main = "#include \"lib/scale.h\"\n"
                     "__kernel void apply(__global float *x) {\n"
                     "  size_t i = get_global_id(0);\n"
                     "  x[i] = twice(x[i]) * SCALE;\n"
                     "}\n";
  const char *Helper = "float twice(float x) { return 2.0f * x; }\n";
  cl_program Header = clCreateProgramWithSource(Ctx, 1, &HeaderText, nullptr, &E);
  cl_program MainProg = clCreateProgramWithSource(Ctx, 1, &Main, nullptr, &E);
  cl_program HelperProg = clCreateProgramWithSource(Ctx, 1, &Helper, nullptr, &E);
  const char *Names[] = {"lib/scale.h"};
  // Without the header the include fails, with the compiler's message.
  EXPECT_EQ(clCompileProgram(MainProg, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(log(MainProg).find("scale.h"), std::string::npos) << log(MainProg);
  // With it the unit compiles: the call to twice, declared there, is
  // resolved by the link.
  ASSERT_EQ(clCompileProgram(MainProg, 0, nullptr, "", 1, &Header, Names, nullptr, nullptr),
            CL_SUCCESS)
      << log(MainProg);
  ASSERT_EQ(clCompileProgram(HelperProg, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_SUCCESS)
      << log(HelperProg);
  cl_program_binary_type Type = 0;
  clGetProgramBuildInfo(HelperProg, D, CL_PROGRAM_BINARY_TYPE, sizeof Type, &Type, nullptr);
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  EXPECT_EQ(clCreateKernel(HelperProg, "apply", &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_PROGRAM_EXECUTABLE);
  // The helper as a library, then linked with the main unit.
  cl_program Lib = clLinkProgram(Ctx, 0, nullptr, "-create-library", 1, &HelperProg, nullptr,
                                 nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS) << (Lib ? log(Lib) : "");
  clGetProgramBuildInfo(Lib, D, CL_PROGRAM_BINARY_TYPE, sizeof Type, &Type, nullptr);
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program Inputs[] = {MainProg, Lib};
  cl_program Linked = clLinkProgram(Ctx, 0, nullptr, "", 2, Inputs, nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS) << (Linked ? log(Linked) : "");
  clGetProgramBuildInfo(Linked, D, CL_PROGRAM_BINARY_TYPE, sizeof Type, &Type, nullptr);
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  cl_kernel K = clCreateKernel(Linked, "apply", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  std::vector<float> X(256, 1.5f);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, X.size() * 4, X.data(), &E);
  clSetKernelArg(K, 0, sizeof M, &M);
  size_t Global = X.size();
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, X.size() * 4, X.data(), 0, nullptr, nullptr);
  for (float V : X)
    ASSERT_EQ(V, 9.0f);
  // Units compiled with other options are units all the same.
  ASSERT_EQ(clCompileProgram(HelperProg, 0, nullptr, "-DUNUSED=1", 0, nullptr, nullptr, nullptr,
                             nullptr),
            CL_SUCCESS);
  cl_program Pair[] = {MainProg, HelperProg};
  cl_program Other = clLinkProgram(Ctx, 0, nullptr, "", 2, Pair, nullptr, nullptr, &E);
  EXPECT_EQ(E, CL_SUCCESS) << (Other ? log(Other) : "");
  EXPECT_EQ(clLinkProgram(Ctx, 0, nullptr, "-bogus", 1, Inputs, nullptr, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_LINKER_OPTIONS);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  for (cl_program Prog : {Other, Linked, Lib, Header, MainProg, HelperProg})
    clReleaseProgram(Prog);
}

/// \p Source compiled as one unit with \p Options; null (a failure added)
/// where it does not compile.
cl_program compileUnit(cl_context Ctx, const char *Source, const char *Options) {
  cl_int E;
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Source, nullptr, &E);
  if (E != CL_SUCCESS)
    return nullptr;
  E = clCompileProgram(Prog, 0, nullptr, Options, 0, nullptr, nullptr, nullptr, nullptr);
  if (E != CL_SUCCESS) {
    ADD_FAILURE() << "clCompileProgram: " << E;
    clReleaseProgram(Prog);
    return nullptr;
  }
  return Prog;
}

/// Runs kernel \p Name of \p Prog over \p N work-items on one int
/// buffer; its contents after.
std::vector<int> runIntKernel(cl_context Ctx, cl_command_queue Q, cl_program Prog,
                              const char *Name, size_t N) {
  cl_int E;
  std::vector<int> Out(N, -1);
  cl_kernel K = clCreateKernel(Prog, Name, &E);
  if (E != CL_SUCCESS) {
    ADD_FAILURE() << "clCreateKernel(" << Name << "): " << E;
    return Out;
  }
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * 4, nullptr, &E);
  clSetKernelArg(K, 0, sizeof M, &M);
  EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * 4, Out.data(), 0, nullptr, nullptr);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  return Out;
}

// Separate compilation as OpenCL means it: each unit its own static
// helper of one name, a function one unit defines and another declares
// (compiled with other options), an inline function both define, each
// unit's kernels in the program.
TEST_F(OpenCL, LinkedUnitsKeepTheirOwnStaticsAndShareTheirFunctions) {
  // Both units define the plain inline function a shared header would.
  const char *First = "static int helper(int x) { return x + OFFSET; }\n"
                      "inline int plus(int x, int y) { return x + y; }\n"
                      "int scaled(int x);\n"
                      "__kernel void first(__global int *o) {\n"
                      "  int i = get_global_id(0);\n"
                      "  o[i] = plus(scaled(helper(i)), 0);\n"
                      "}\n";
  const char *Second = "static int helper(int x) { return x * SCALE; }\n"
                       "inline int plus(int x, int y) { return x + y; }\n"
                       "int scaled(int x) { return helper(x); }\n"
                       "__kernel void second(__global int *o) {\n"
                       "  int i = get_global_id(0);\n"
                       "  o[i] = plus(helper(i), 7);\n"
                       "}\n";
  cl_program Units[] = {compileUnit(Ctx, First, "-DOFFSET=1"),
                        compileUnit(Ctx, Second, "-D SCALE=3")};
  ASSERT_TRUE(Units[0] && Units[1]);
  cl_int E;
  cl_program Linked = clLinkProgram(Ctx, 0, nullptr, nullptr, 2, Units, nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS) << (Linked ? log(Linked) : "");
  size_t Kernels = 0;
  ASSERT_EQ(clGetProgramInfo(Linked, CL_PROGRAM_NUM_KERNELS, sizeof Kernels, &Kernels, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Kernels, 2u);
  std::vector<int> A = runIntKernel(Ctx, Q, Linked, "first", 300);
  std::vector<int> B = runIntKernel(Ctx, Q, Linked, "second", 300);
  for (int I = 0; I < 300; ++I) {
    ASSERT_EQ(A[I], (I + 1) * 3) << I;
    ASSERT_EQ(B[I], I * 3 + 7) << I;
  }
  clReleaseProgram(Linked);
  for (cl_program U : Units)
    clReleaseProgram(U);
}

// A compiled object is a binary: its size and bytes, loaded again by
// clCreateProgramWithBinary as a compiled object, linked, or built alone.
TEST_F(OpenCL, CompiledObjectsRoundTripAsBinaries) {
  const char *Source = "int twice(int x) { return 2 * x; }\n"
                       "__kernel void doubled(__global int *o) {\n"
                       "  int i = get_global_id(0);\n"
                       "  o[i] = twice(i);\n"
                       "}\n";
  cl_program Unit = compileUnit(Ctx, Source, "");
  ASSERT_NE(Unit, nullptr);
  size_t Size = 0;
  ASSERT_EQ(clGetProgramInfo(Unit, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size, nullptr),
            CL_SUCCESS);
  ASSERT_GT(Size, 0u);
  std::vector<unsigned char> Bytes(Size);
  unsigned char *To = Bytes.data();
  ASSERT_EQ(clGetProgramInfo(Unit, CL_PROGRAM_BINARIES, sizeof To, &To, nullptr), CL_SUCCESS);
  const unsigned char *From = Bytes.data();
  cl_int E, Status = CL_INVALID_VALUE;
  cl_program Loaded = clCreateProgramWithBinary(Ctx, 1, &D, &Size, &From, &Status, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  EXPECT_EQ(Status, CL_SUCCESS);
  cl_program_binary_type Type = 0;
  clGetProgramBuildInfo(Loaded, D, CL_PROGRAM_BINARY_TYPE, sizeof Type, &Type, nullptr);
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_program Linked = clLinkProgram(Ctx, 1, &D, "", 1, &Loaded, nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS) << (Linked ? log(Linked) : "");
  std::vector<int> Out = runIntKernel(Ctx, Q, Linked, "doubled", 100);
  for (int I = 0; I < 100; ++I)
    ASSERT_EQ(Out[I], 2 * I) << I;
  // A library's binary loads as a library.
  cl_program Lib = clLinkProgram(Ctx, 0, nullptr, "-create-library -enable-link-options", 1,
                                 &Unit, nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS) << (Lib ? log(Lib) : "");
  ASSERT_EQ(clGetProgramInfo(Lib, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size, nullptr),
            CL_SUCCESS);
  Bytes.assign(Size, 0);
  To = Bytes.data();
  ASSERT_EQ(clGetProgramInfo(Lib, CL_PROGRAM_BINARIES, sizeof To, &To, nullptr), CL_SUCCESS);
  From = Bytes.data();
  cl_program LoadedLib = clCreateProgramWithBinary(Ctx, 1, &D, &Size, &From, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  clGetProgramBuildInfo(LoadedLib, D, CL_PROGRAM_BINARY_TYPE, sizeof Type, &Type, nullptr);
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  // clBuildProgram makes an executable of a compiled object alone.
  ASSERT_EQ(clBuildProgram(Loaded, 1, &D, nullptr, nullptr, nullptr), CL_SUCCESS) << log(Loaded);
  Out = runIntKernel(Ctx, Q, Loaded, "doubled", 10);
  EXPECT_EQ(Out[9], 18);
  for (cl_program Prog : {LoadedLib, Lib, Linked, Loaded, Unit})
    clReleaseProgram(Prog);
}

// The specification's codes: bad options, a program not compiled, and a
// link that fails (a function defined twice, one defined nowhere) with a
// log that says why.
TEST_F(OpenCL, SeparateCompilationRefusesWithTheSpecificationsCodes) {
  cl_int E;
  const char *Source = "int twice(int x) { return 2 * x; }\n";
  cl_program Plain = clCreateProgramWithSource(Ctx, 1, &Source, nullptr, &E);
  EXPECT_EQ(clCompileProgram(Plain, 0, nullptr, "-bogus", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_COMPILER_OPTIONS);
  EXPECT_EQ(clLinkProgram(Ctx, 0, nullptr, "", 1, &Plain, nullptr, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_OPERATION);
  cl_program Unit = compileUnit(Ctx, Source, "");
  ASSERT_NE(Unit, nullptr);
  for (const char *Bad : {"-bogus", "-enable-link-options", "-cl-std=CL1.2"}) {
    EXPECT_EQ(clLinkProgram(Ctx, 0, nullptr, Bad, 1, &Unit, nullptr, nullptr, &E), nullptr);
    EXPECT_EQ(E, CL_INVALID_LINKER_OPTIONS) << Bad;
  }
  cl_program Twice[] = {Unit, compileUnit(Ctx, Source, "-DAGAIN")};
  cl_program Failed = clLinkProgram(Ctx, 0, nullptr, "", 2, Twice, nullptr, nullptr, &E);
  EXPECT_EQ(E, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(Failed, nullptr);
  EXPECT_NE(log(Failed).find("twice"), std::string::npos) << log(Failed);
  cl_build_status Status = CL_BUILD_NONE;
  clGetProgramBuildInfo(Failed, D, CL_PROGRAM_BUILD_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, CL_BUILD_ERROR);
  const char *Caller = "int missing(int x);\n"
                       "__kernel void calls(__global int *o) { o[0] = missing(1); }\n";
  cl_program Calls = compileUnit(Ctx, Caller, "");
  ASSERT_NE(Calls, nullptr);
  cl_program Unresolved = clLinkProgram(Ctx, 0, nullptr, "", 1, &Calls, nullptr, nullptr, &E);
  EXPECT_EQ(E, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(Unresolved, nullptr);
  EXPECT_NE(log(Unresolved).find("missing"), std::string::npos) << log(Unresolved);
  for (cl_program Prog : {Unresolved, Calls, Failed, Twice[1], Unit, Plain})
    clReleaseProgram(Prog);
}

// n-body time steps: every piece reads every body's position, so a step
// moves the positions the other pieces wrote (at most two buffers' worth
// over the two HostDiscrete devices), never the velocities, which each
// piece reads and writes for its own bodies; the bodies end where the
// host's steps put them.
TEST_F(OpenCL, NBodyStepsMoveOnlyOtherPiecesPositions) {
  const char *Source =
      "__kernel void step(__global const float4 *pos, __global const float4 *vel,\n"
      "                   __global float4 *npos, __global float4 *nvel, uint n) {\n"
      "  uint i = get_global_id(0);\n"
      "  float4 p = pos[i];\n"
      "  float3 a = (float3)(0.0f);\n"
      "  for (uint j = 0; j < n; ++j) {\n"
      "    float3 d = pos[j].xyz - p.xyz;\n"
      "    float r2 = dot(d, d) + 0.01f;\n"
      "    a += d * (pos[j].w / (r2 * sqrt(r2)));\n"
      "  }\n"
      "  float4 v = vel[i];\n"
      "  v.xyz += a * 0.01f;\n"
      "  nvel[i] = v;\n"
      "  npos[i] = (float4)(p.xyz + v.xyz * 0.01f, p.w);\n"
      "}\n";
  cl_program Prog = build(Source);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "step", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const cl_uint N = 1024;
  const size_t Bytes = N * 4 * sizeof(float);
  std::vector<float> Pos(N * 4), Vel(N * 4, 0.0f);
  for (cl_uint I = 0; I < N; ++I) {
    Pos[4 * I] = float(I % 32);
    Pos[4 * I + 1] = float(I / 32);
    Pos[4 * I + 2] = float((I * 7) % 13);
    Pos[4 * I + 3] = 1.0f + float(I % 3);
  }
  cl_mem B[4];
  B[0] = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, Bytes, Pos.data(), &E);
  B[1] = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, Bytes, Vel.data(), &E);
  B[2] = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &E);
  B[3] = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &E);
  clSetKernelArg(K, 4, sizeof N, &N);
  const int Steps = 5;
  size_t Global = N, Local = 64;
  for (int S = 0; S < Steps; ++S) {
    int From = S % 2 ? 2 : 0, To = S % 2 ? 0 : 2;
    clSetKernelArg(K, 0, sizeof(cl_mem), &B[From]);
    clSetKernelArg(K, 1, sizeof(cl_mem), &B[From + 1]);
    clSetKernelArg(K, 2, sizeof(cl_mem), &B[To]);
    clSetKernelArg(K, 3, sizeof(cl_mem), &B[To + 1]);
    cl_event Launch = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, &Launch),
              CL_SUCCESS);
    clWaitForEvents(1, &Launch);
    cl_ulong In = 0, Back = 0;
    clGetEventInfo(Launch, CL_EVENT_SKMD_BYTES_TO_DEVICES, sizeof In, &In, nullptr);
    clGetEventInfo(Launch, CL_EVENT_SKMD_BYTES_FROM_DEVICES, sizeof Back, &Back, nullptr);
    std::string Plan = planOf(Launch);
    clReleaseEvent(Launch);
    ASSERT_NE(Plan.find("discrete"), std::string::npos) << Plan;
    if (S < 2)
      continue;
    EXPECT_GT(In, 0u) << "step " << S << ", plan " << Plan;
    EXPECT_LE(In, 2 * Bytes) << "step " << S << ", plan " << Plan;
    EXPECT_LE(Back, Bytes) << "step " << S << ", plan " << Plan;
  }
  std::vector<float> Got(N * 4);
  ASSERT_EQ(clEnqueueReadBuffer(Q, B[Steps % 2 ? 2 : 0], CL_TRUE, 0, Bytes, Got.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  // The host's steps, in double precision.
  std::vector<double> P(Pos.begin(), Pos.end()), V(Vel.begin(), Vel.end());
  for (int S = 0; S < Steps; ++S) {
    std::vector<double> NP = P, NV = V;
    for (cl_uint I = 0; I < N; ++I) {
      double A[3] = {0, 0, 0};
      for (cl_uint J = 0; J < N; ++J) {
        double D[3] = {P[4 * J] - P[4 * I], P[4 * J + 1] - P[4 * I + 1],
                       P[4 * J + 2] - P[4 * I + 2]};
        double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + 0.01;
        for (int C = 0; C < 3; ++C)
          A[C] += D[C] * (P[4 * J + 3] / (R2 * std::sqrt(R2)));
      }
      for (int C = 0; C < 3; ++C) {
        NV[4 * I + C] = V[4 * I + C] + A[C] * 0.01;
        NP[4 * I + C] = P[4 * I + C] + NV[4 * I + C] * 0.01;
      }
    }
    P.swap(NP);
    V.swap(NV);
  }
  for (cl_uint I = 0; I < N * 4; ++I)
    ASSERT_NEAR(Got[I], P[I], 1e-3 * (1 + std::fabs(P[I]))) << I;
  for (cl_mem M : B)
    clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// A program may release what it enqueued with at once: the commands hold
// their kernel and buffers. Releasing must not wait for the queue, which a
// user event only the program sets holds back (it waited, and deadlocked).
TEST_F(OpenCL, ReleasingObjectsDoesNotWaitForHeldBackCommands) {
  cl_program Prog = build(VectorAdd);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "vector_add", &E);
  const int N = 4096;
  std::vector<float> A(N, 1.0f), B(N, 2.0f), C(N, 0.0f);
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, A.data(), &E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, B.data(), &E);
  cl_mem MC = clCreateBuffer(Ctx, CL_MEM_USE_HOST_PTR, N * 4, C.data(), &E);
  clSetKernelArg(K, 0, sizeof MA, &MA);
  clSetKernelArg(K, 1, sizeof MB, &MB);
  clSetKernelArg(K, 2, sizeof MC, &MC);
  clSetKernelArg(K, 3, sizeof N, &N);
  std::atomic<int> Destroyed{0};
  clSetMemObjectDestructorCallback(
      MA, [](cl_mem, void *D) { ++*static_cast<std::atomic<int> *>(D); }, &Destroyed);
  cl_event Gate = clCreateUserEvent(Ctx, &E);
  cl_event Launch = nullptr;
  size_t Global = N, Local = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 1, &Gate, &Launch),
            CL_SUCCESS);
  // Every release returns at once (the test would hang here).
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(Prog), CL_SUCCESS);
  for (cl_mem M : {MA, MB, MC})
    EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(5));
  EXPECT_EQ(Destroyed.load(), 0); // the launch holds it
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Launch), CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(C[I], 3.0f) << I;
  // Released at the end of the launch; its destructor callback follows.
  for (int Wait = 0; Wait < 500 && Destroyed.load() == 0; ++Wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Destroyed.load(), 1);
  clReleaseEvent(Launch);
  clReleaseEvent(Gate);
}

// Every object kind's retain and release through the loader, with the
// reference counts its info query gives.
TEST_F(OpenCL, RetainAndReleaseEveryObject) {
  cl_int E;
  auto Count = [](auto Info, auto Object, cl_uint Param) {
    cl_uint N = 0;
    EXPECT_EQ(Info(Object, Param, sizeof N, &N, nullptr), CL_SUCCESS);
    return N;
  };
  EXPECT_EQ(clRetainContext(Ctx), CL_SUCCESS);
  EXPECT_EQ(Count(clGetContextInfo, Ctx, CL_CONTEXT_REFERENCE_COUNT), 3u); // + the queue's
  EXPECT_EQ(clReleaseContext(Ctx), CL_SUCCESS);
  EXPECT_EQ(clRetainCommandQueue(Q), CL_SUCCESS);
  EXPECT_EQ(Count(clGetCommandQueueInfo, Q, CL_QUEUE_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 256, nullptr, &E);
  EXPECT_EQ(clRetainMemObject(M), CL_SUCCESS);
  EXPECT_EQ(Count(clGetMemObjectInfo, M, CL_MEM_REFERENCE_COUNT), 2u);
  cl_program Prog = build(VectorAdd);
  EXPECT_EQ(clRetainProgram(Prog), CL_SUCCESS);
  EXPECT_EQ(Count(clGetProgramInfo, Prog, CL_PROGRAM_REFERENCE_COUNT), 2u);
  cl_kernel K = clCreateKernel(Prog, "scale", &E);
  EXPECT_EQ(clRetainKernel(K), CL_SUCCESS);
  EXPECT_EQ(Count(clGetKernelInfo, K, CL_KERNEL_REFERENCE_COUNT), 2u);
  cl_event Ev = nullptr;
  EXPECT_EQ(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &Ev), CL_SUCCESS);
  EXPECT_EQ(clRetainEvent(Ev), CL_SUCCESS);
  EXPECT_EQ(Count(clGetEventInfo, Ev, CL_EVENT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clRetainDevice(D), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(D), CL_SUCCESS);
  for (int I = 0; I < 2; ++I) {
    EXPECT_EQ(clReleaseEvent(Ev), CL_SUCCESS);
    EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(Prog), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  }
  EXPECT_EQ(clRetainContext(nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clRetainCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clReleaseCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clRetainMemObject(nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clRetainProgram(nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(clReleaseProgram(nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(clRetainKernel(nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(clRetainEvent(nullptr), CL_INVALID_EVENT);
}

// Sub-buffers are regions of one buffer: a launch on a sub-buffer split
// over the devices, then reads through the parent and a sibling, each see
// the others' writes (the platform keeps the family coherent).
TEST_F(OpenCL, SubBuffersSeeEachOthersWrites) {
  cl_program Prog = build(VectorAdd);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "vector_add", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const size_t N = 4096, Half = N / 2;
  std::vector<float> A(N), B(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = float(I);
    B[I] = float(2 * I);
  }
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, A.data(), &E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, B.data(), &E);
  cl_mem MC = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * 4, nullptr, &E);
  float Zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(Q, MC, &Zero, 4, 0, N * 4, 0, nullptr, nullptr), CL_SUCCESS);
  // The specification's refusals.
  cl_buffer_region Bad{4, 64};
  EXPECT_EQ(clCreateSubBuffer(MC, 0, CL_BUFFER_CREATE_TYPE_REGION, &Bad, &E), nullptr);
  EXPECT_EQ(E, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  cl_buffer_region Outside{N * 4 - 128, 256};
  EXPECT_EQ(clCreateSubBuffer(MC, 0, CL_BUFFER_CREATE_TYPE_REGION, &Outside, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_VALUE);
  cl_buffer_region Empty{0, 0};
  EXPECT_EQ(clCreateSubBuffer(MC, 0, CL_BUFFER_CREATE_TYPE_REGION, &Empty, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(clCreateSubBuffer(MC, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &Bad, &E),
            nullptr);
  EXPECT_EQ(E, CL_INVALID_VALUE);

  // Halves of each buffer; the kernel adds the second halves into the
  // second half of C.
  cl_buffer_region Second{Half * 4, Half * 4}, First{0, Half * 4};
  cl_mem SA = clCreateSubBuffer(MA, 0, CL_BUFFER_CREATE_TYPE_REGION, &Second, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_mem SB = clCreateSubBuffer(MB, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &Second, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_mem SC = clCreateSubBuffer(MC, 0, CL_BUFFER_CREATE_TYPE_REGION, &Second, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_mem SCFirst = clCreateSubBuffer(MC, 0, CL_BUFFER_CREATE_TYPE_REGION, &First, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  EXPECT_EQ(clCreateSubBuffer(SC, 0, CL_BUFFER_CREATE_TYPE_REGION, &First, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_MEM_OBJECT);
  cl_mem Parent = nullptr;
  size_t Offset = 0;
  clGetMemObjectInfo(SC, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof Parent, &Parent, nullptr);
  clGetMemObjectInfo(SC, CL_MEM_OFFSET, sizeof Offset, &Offset, nullptr);
  EXPECT_EQ(Parent, MC);
  EXPECT_EQ(Offset, Half * 4);
  cl_mem_flags Flags = 0;
  clGetMemObjectInfo(SB, CL_MEM_FLAGS, sizeof Flags, &Flags, nullptr);
  EXPECT_EQ(Flags, cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));

  clSetKernelArg(K, 0, sizeof SA, &SA);
  clSetKernelArg(K, 1, sizeof SB, &SB);
  clSetKernelArg(K, 2, sizeof SC, &SC);
  cl_int Count = cl_int(Half);
  clSetKernelArg(K, 3, sizeof Count, &Count);
  size_t Global = Half, Local = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  // Through the parent: the second half written, the first still zero.
  std::vector<float> C(N, -1.0f);
  ASSERT_EQ(clEnqueueReadBuffer(Q, MC, CL_TRUE, 0, N * 4, C.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(C[I], I < Half ? 0.0f : float(3 * I)) << I;
  // A write through the parent is what the sub-buffer's next launch reads:
  // C's second half becomes its input.
  std::vector<float> Ones(Half, 1.0f);
  ASSERT_EQ(clEnqueueWriteBuffer(Q, MA, CL_TRUE, Half * 4, Half * 4, Ones.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  clSetKernelArg(K, 1, sizeof SC, &SC);
  clSetKernelArg(K, 2, sizeof SCFirst, &SCFirst);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, MC, CL_TRUE, 0, N * 4, C.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(C[I], I < Half ? 1.0f + float(3 * (I + Half)) : float(3 * I)) << I;
  // Copies between sibling regions that overlap are refused.
  EXPECT_EQ(clEnqueueCopyBuffer(Q, SC, MC, 0, Half * 4 + 8, 64, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(Q, SC, SCFirst, 0, 0, Half * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, MC, CL_TRUE, 0, N * 4, C.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(C[I], float(3 * (I % Half + Half))) << I;
  // The parent lives while its sub-buffers do.
  clReleaseMemObject(MC);
  std::vector<float> Tail(Half);
  ASSERT_EQ(clEnqueueReadBuffer(Q, SC, CL_TRUE, 0, Half * 4, Tail.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Tail[5], float(3 * (5 + Half)));
  for (cl_mem M : {SA, SB, SC, SCFirst, MA, MB})
    EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

TEST_F(OpenCL, RectangularCopiesBetweenBuffers) {
  cl_int E;
  // A 16x8 grid of ints; copy the 5x3 window at (2, 1) to (9, 4) in another
  // grid and to (0, 0) of a packed one.
  const size_t W = 16, H = 8;
  std::vector<int> Grid(W * H);
  for (size_t I = 0; I < W * H; ++I)
    Grid[I] = int(I);
  cl_mem From = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, Grid.size() * 4, Grid.data(), &E);
  cl_mem To = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Grid.size() * 4, nullptr, &E);
  cl_mem Packed = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 5 * 3 * 4, nullptr, &E);
  int Zero = 0;
  clEnqueueFillBuffer(Q, To, &Zero, 4, 0, Grid.size() * 4, 0, nullptr, nullptr);
  size_t SrcOrigin[3] = {2 * 4, 1, 0}, DstOrigin[3] = {9 * 4, 4, 0}, Region[3] = {5 * 4, 3, 1};
  size_t Origin0[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueCopyBufferRect(Q, From, To, SrcOrigin, DstOrigin, Region, W * 4, 0, W * 4,
                                    0, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBufferRect(Q, From, Packed, SrcOrigin, Origin0, Region, W * 4, 0, 0, 0,
                                    0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<int> Out(W * H), Small(15);
  clEnqueueReadBuffer(Q, To, CL_TRUE, 0, Out.size() * 4, Out.data(), 0, nullptr, nullptr);
  clEnqueueReadBuffer(Q, Packed, CL_TRUE, 0, 60, Small.data(), 0, nullptr, nullptr);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X) {
      bool In = X >= 9 && X < 14 && Y >= 4 && Y < 7;
      ASSERT_EQ(Out[Y * W + X], In ? Grid[(Y - 3) * W + X - 7] : 0) << X << "," << Y;
    }
  for (size_t I = 0; I < 15; ++I)
    ASSERT_EQ(Small[I], Grid[(1 + I / 5) * W + 2 + I % 5]) << I;
  // Outside the destination, and overlapping within one buffer.
  size_t Far[3] = {14 * 4, 4, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(Q, From, To, SrcOrigin, Far, Region, W * 4, 0, W * 4, 0, 0,
                                    nullptr, nullptr),
            CL_SUCCESS); // rows wrap into the next row: still inside
  size_t Last[3] = {14 * 4, 6, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(Q, From, To, SrcOrigin, Last, Region, W * 4, 0, W * 4, 0, 0,
                                    nullptr, nullptr),
            CL_INVALID_VALUE);
  size_t Near[3] = {4 * 4, 2, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(Q, From, From, SrcOrigin, Near, Region, W * 4, 0, W * 4, 0,
                                    0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  size_t Beside[3] = {8 * 4, 1, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(Q, From, From, SrcOrigin, Beside, Region, W * 4, 0, W * 4,
                                    0, 0, nullptr, nullptr),
            CL_SUCCESS);
  clFinish(Q);
  for (cl_mem M : {From, To, Packed})
    clReleaseMemObject(M);
}

struct Seen {
  std::vector<cl_int> Statuses;
  std::mutex Lock;
  std::condition_variable Done;
};

void CL_CALLBACK record(cl_event, cl_int Status, void *Data) {
  auto *S = static_cast<Seen *>(Data);
  std::lock_guard<std::mutex> Hold(S->Lock);
  S->Statuses.push_back(Status);
  S->Done.notify_all();
}

// Callbacks run once their status is reached, off the caller's thread, even
// when the program has released the event; a failed user event gives its
// error to the callbacks of the commands that waited on it.
TEST_F(OpenCL, EventCallbacksRunWhenTheirStatusIsReached) {
  cl_int E;
  cl_event Gate = clCreateUserEvent(Ctx, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_event Marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Q, 1, &Gate, &Marker), CL_SUCCESS);
  Seen S;
  EXPECT_EQ(clSetEventCallback(Marker, CL_QUEUED, record, &S), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(Marker, CL_COMPLETE, nullptr, &S), CL_INVALID_VALUE);
  ASSERT_EQ(clSetEventCallback(Marker, CL_SUBMITTED, record, &S), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(Marker, CL_COMPLETE, record, &S), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(Gate, CL_COMPLETE, record, &S), CL_SUCCESS);
  clReleaseEvent(Marker);
  {
    std::unique_lock<std::mutex> Hold(S.Lock);
    ASSERT_TRUE(S.Done.wait_for(Hold, std::chrono::seconds(10),
                                [&] { return S.Statuses.size() == 1; }));
    EXPECT_EQ(S.Statuses[0], CL_SUBMITTED);
  }
  ASSERT_EQ(clSetUserEventStatus(Gate, -42), CL_SUCCESS);
  {
    std::unique_lock<std::mutex> Hold(S.Lock);
    ASSERT_TRUE(S.Done.wait_for(Hold, std::chrono::seconds(10),
                                [&] { return S.Statuses.size() == 3; }));
    std::sort(S.Statuses.begin() + 1, S.Statuses.end());
    EXPECT_EQ(S.Statuses[1], -42);
    EXPECT_EQ(S.Statuses[2], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
  // Registered after the status was reached: runs at once.
  cl_event Done = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &Done), CL_SUCCESS);
  clWaitForEvents(1, &Done);
  ASSERT_EQ(clSetEventCallback(Done, CL_RUNNING, record, &S), CL_SUCCESS);
  {
    std::unique_lock<std::mutex> Hold(S.Lock);
    ASSERT_TRUE(S.Done.wait_for(Hold, std::chrono::seconds(10),
                                [&] { return S.Statuses.size() == 4; }));
    EXPECT_EQ(S.Statuses[3], CL_RUNNING);
  }
  clReleaseEvent(Done);
  clReleaseEvent(Gate);
}

/// Two units compiled and linked, then run; the link's log goes to \p Log.
/// With a build cache and no compiler, the compiles and the link come from
/// entries a run with the compiler stored (keyed by source, then by the
/// objects' bytes).
cl_int linkCachedAndRun(cl_context Ctx, cl_command_queue Q, std::string &Log) {
  const char *Units[] = {"int offset(int x);\n"
                         "__kernel void shifted(__global int *o) {\n"
                         "  int i = get_global_id(0);\n"
                         "  o[i] = offset(i);\n"
                         "}\n",
                         "static int by(void) { return 11; }\n"
                         "int offset(int x) { return x + by(); }\n"};
  cl_program Compiled[2];
  for (int I = 0; I < 2; ++I) {
    cl_int E;
    Compiled[I] = clCreateProgramWithSource(Ctx, 1, &Units[I], nullptr, &E);
    if (cl_int C = clCompileProgram(Compiled[I], 0, nullptr, "-DCACHED", 0, nullptr, nullptr,
                                    nullptr, nullptr);
        C != CL_SUCCESS)
      return C;
  }
  cl_int E;
  cl_program Linked = clLinkProgram(Ctx, 0, nullptr, "", 2, Compiled, nullptr, nullptr, &E);
  if (Linked) {
    size_t Size = 0;
    cl_device_id D;
    clGetProgramInfo(Linked, CL_PROGRAM_DEVICES, sizeof D, &D, nullptr);
    clGetProgramBuildInfo(Linked, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    Log.assign(Size, '\0');
    clGetProgramBuildInfo(Linked, D, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
  }
  if (E == CL_SUCCESS) {
    std::vector<int> Out = runIntKernel(Ctx, Q, Linked, "shifted", 64);
    for (int I = 0; I < 64; ++I)
      if (Out[I] != I + 11) {
        ADD_FAILURE() << "o[" << I << "] = " << Out[I];
        break;
      }
  }
  for (cl_program P : {Linked, Compiled[0], Compiled[1]})
    if (P)
      clReleaseProgram(P);
  return E;
}

/// Builds test/opencl/cached.cl (SKMD_CACHE_TEST_SOURCE) with \p Options
/// and checks c = a + Scale * b; the build log goes to \p Log.
cl_int buildCachedAndRun(cl_context Ctx, cl_device_id D, cl_command_queue Q,
                         const std::string &Text, const char *Options, float Scale,
                         std::string &Log) {
  const char *Source = Text.c_str();
  cl_int E;
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Source, nullptr, &E);
  cl_int Built = clBuildProgram(Prog, 1, &D, Options, nullptr, nullptr);
  size_t Size = 0;
  clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
  Log.assign(Size, '\0');
  clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
  if (Built == CL_SUCCESS) {
    cl_kernel K = clCreateKernel(Prog, "scaled_add", &E);
    EXPECT_EQ(E, CL_SUCCESS);
    const size_t N = 1024;
    std::vector<float> A(N, 1.0f), B(N, 2.0f), C(N);
    cl_mem MA = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, A.data(), &E);
    cl_mem MB = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, B.data(), &E);
    cl_mem MC = clCreateBuffer(Ctx, CL_MEM_WRITE_ONLY, N * 4, nullptr, &E);
    clSetKernelArg(K, 0, sizeof MA, &MA);
    clSetKernelArg(K, 1, sizeof MB, &MB);
    clSetKernelArg(K, 2, sizeof MC, &MC);
    size_t Global = N;
    EXPECT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clEnqueueReadBuffer(Q, MC, CL_TRUE, 0, N * 4, C.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t I = 0; I < N; ++I)
      if (C[I] != 1.0f + Scale * 2.0f) {
        ADD_FAILURE() << "c[" << I << "] = " << C[I];
        break;
      }
    for (cl_mem M : {MA, MB, MC})
      clReleaseMemObject(M);
    clReleaseKernel(K);
  }
  clReleaseProgram(Prog);
  return Built;
}

// A kernel sees a macro for exactly the extensions the device lists (clang
// predefined cl_khr_fp16 and more on x86), __OPENCL_VERSION__ as the
// device's version, __OPENCL_C_VERSION__ as -cl-std's; -cl-std beyond the
// device's OpenCL C is refused.
TEST_F(OpenCL, KernelMacrosAreTheDevicesExtensionsAndVersions) {
  const char *Names[] = {"cl_khr_fp16",        "cl_khr_fp64",
                         "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
                         "cl_khr_3d_image_writes",    "cl_khr_depth_images",
                         "cl_intel_subgroups",        "cl_khr_global_int32_base_atomics",
                         "cl_khr_byte_addressable_store", "__IMAGE_SUPPORT__"};
  std::string Source = "__kernel void probe(__global int *out) {\n"
                       "  out[0] = __OPENCL_VERSION__;\n"
                       "  out[1] = __OPENCL_C_VERSION__;\n";
  for (size_t I = 0; I < std::size(Names); ++I)
    Source += "#ifdef " + std::string(Names[I]) + "\n  out[" + std::to_string(I + 2) +
              "] = 1;\n#else\n  out[" + std::to_string(I + 2) + "] = 0;\n#endif\n";
  Source += "}\n";
  char Text[4096];
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_EXTENSIONS, sizeof Text, Text, nullptr), CL_SUCCESS);
  std::string Extensions = " " + std::string(Text) + " ";
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_VERSION, sizeof Text, Text, nullptr), CL_SUCCESS);
  ASSERT_EQ(std::string(Text).rfind("OpenCL 1.2 ", 0), 0u) << Text;
  // Programs that keep binaries by driver version see the binary format's
  // (the bundle metadata's schema, 5 when work_dim became an argument).
  ASSERT_EQ(clGetDeviceInfo(D, CL_DRIVER_VERSION, sizeof Text, Text, nullptr), CL_SUCCESS);
  ASSERT_EQ(std::string(Text).rfind("1.", 0), 0u) << Text;
  EXPECT_GE(std::atoi(Text + 2), 5) << Text;
  for (auto [Options, CVersion] : {std::pair<const char *, int>{nullptr, 120},
                                   {"-cl-std=CL1.1", 110},
                                   {"-cl-std=CL1.2", 120}}) {
    cl_program Prog = build(Source.c_str(), Options);
    cl_int E;
    cl_kernel K = clCreateKernel(Prog, "probe", &E);
    ASSERT_EQ(E, CL_SUCCESS);
    std::vector<int> Out(2 + std::size(Names), -1);
    cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Out.size() * 4, nullptr, &E);
    clSetKernelArg(K, 0, sizeof M, &M);
    size_t One = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, 0, nullptr, nullptr),
              CL_SUCCESS);
    clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Out.size() * 4, Out.data(), 0, nullptr, nullptr);
    EXPECT_EQ(Out[0], 120);
    EXPECT_EQ(Out[1], CVersion) << (Options ? Options : "");
    for (size_t I = 0; I < std::size(Names); ++I)
      EXPECT_EQ(Out[I + 2] == 1, Extensions.find(" " + std::string(Names[I]) + " ") !=
                                     std::string::npos)
          << Names[I] << " in '" << Extensions << "'";
    clReleaseMemObject(M);
    clReleaseKernel(K);
    clReleaseProgram(Prog);
  }
  for (const char *Newer : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    cl_int E;
    const char *Text0 = Source.c_str();
    cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Text0, nullptr, &E);
    EXPECT_EQ(clBuildProgram(Prog, 1, &D, Newer, nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
    EXPECT_NE(log(Prog).find("OpenCL C 1.2"), std::string::npos) << log(Prog);
    clReleaseProgram(Prog);
  }
}

// clGetKernelArgInfo in OpenCL C's spelling and qualifiers, and the
// attributes as written.
TEST_F(OpenCL, KernelArgumentInfoAndAttributesAsTheSpecificationSays) {
  const char *Source =
      "typedef float real;\n"
      "__kernel __attribute__((vec_type_hint(float4)))\n"
      "__attribute__((work_group_size_hint(8, 1, 1)))\n"
      "void info(__global unsigned int *a, __global const uchar4 *b, const int c,\n"
      "          unsigned long d, __global volatile int *restrict e, __constant real *f,\n"
      "          __local long16 *g) {\n"
      "  a[0] = b[0].x + c + d + e[0] + f[0] + g[0].s0;\n"
      "}\n";
  cl_program Prog = build(Source, "-cl-kernel-arg-info");
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "info", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  struct Want {
    const char *Type;
    cl_kernel_arg_type_qualifier Qualifier;
    cl_kernel_arg_address_qualifier Space;
  } Args[] = {
      {"uint*", CL_KERNEL_ARG_TYPE_NONE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"uchar4*", CL_KERNEL_ARG_TYPE_CONST, CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"int", CL_KERNEL_ARG_TYPE_NONE, CL_KERNEL_ARG_ADDRESS_PRIVATE},
      {"ulong", CL_KERNEL_ARG_TYPE_NONE, CL_KERNEL_ARG_ADDRESS_PRIVATE},
      {"int*", CL_KERNEL_ARG_TYPE_VOLATILE | CL_KERNEL_ARG_TYPE_RESTRICT,
       CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"real*", CL_KERNEL_ARG_TYPE_CONST, CL_KERNEL_ARG_ADDRESS_CONSTANT},
      {"long16*", CL_KERNEL_ARG_TYPE_NONE, CL_KERNEL_ARG_ADDRESS_LOCAL},
  };
  for (cl_uint I = 0; I < std::size(Args); ++I) {
    char Type[64];
    ASSERT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_NAME, sizeof Type, Type, nullptr),
              CL_SUCCESS);
    EXPECT_STREQ(Type, Args[I].Type) << I;
    cl_kernel_arg_type_qualifier Qualifier = ~cl_kernel_arg_type_qualifier(0);
    ASSERT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof Qualifier,
                                 &Qualifier, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(Qualifier, Args[I].Qualifier) << I;
    cl_kernel_arg_address_qualifier Space = 0;
    ASSERT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof Space, &Space,
                                 nullptr),
              CL_SUCCESS);
    EXPECT_EQ(Space, Args[I].Space) << I;
    cl_kernel_arg_access_qualifier Access = 0;
    ASSERT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof Access, &Access,
                                 nullptr),
              CL_SUCCESS);
    EXPECT_EQ(Access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE)) << I;
  }
  char Attributes[256];
  ASSERT_EQ(clGetKernelInfo(K, CL_KERNEL_ATTRIBUTES, sizeof Attributes, Attributes, nullptr),
            CL_SUCCESS);
  EXPECT_STREQ(Attributes, "work_group_size_hint(8,1,1) vec_type_hint(float4)");
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

// Every __local argument starts at a multiple of its type's size: 128
// bytes for long16 (the CPU device's scratch was 64-byte aligned).
TEST_F(OpenCL, LocalArgumentsAreAlignedToTheirTypesSize) {
  const char *Source =
      "__kernel void where(__global ulong *out, __local long16 *a, __local long16 *b,\n"
      "                    __local double16 *c, __local long16 *d, __local char *e,\n"
      "                    __local long16 *f, __local double16 *g, __local long16 *h) {\n"
      "  __local long16 *all[] = {a, b, (__local long16 *)c, d, f, (__local long16 *)g, h};\n"
      "  ulong misaligned = 0;\n"
      "  for (int i = 0; i < 7; ++i) {\n"
      "    all[i][get_local_id(0)] = (long16)(i);\n"
      "    misaligned |= (ulong)all[i] % 128;\n"
      "  }\n"
      "  e[get_local_id(0)] = 1;\n"
      "  out[get_global_id(0)] = misaligned;\n"
      "}\n";
  cl_program Prog = build(Source);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "where", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const size_t Global = 256, Local = 4;
  std::vector<cl_ulong> Out(Global, 1);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Global * 8, nullptr, &E);
  clSetKernelArg(K, 0, sizeof M, &M);
  for (cl_uint I = 1; I <= 8; ++I)
    ASSERT_EQ(clSetKernelArg(K, I, I == 5 ? 3 : Local * 128, nullptr), CL_SUCCESS) << I;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Global * 8, Out.data(), 0, nullptr, nullptr);
  for (size_t I = 0; I < Global; ++I)
    ASSERT_EQ(Out[I], 0u) << "work-item " << I << " saw a __local argument off by " << Out[I];
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

/// A number from /proc/meminfo, in bytes; 0 where absent.
cl_ulong meminfoBytes(const std::string &Key) {
  std::ifstream In("/proc/meminfo");
  std::string Name;
  cl_ulong KiB = 0;
  while (In >> Name >> KiB) {
    if (Name == Key + ":")
      return KiB * 1024;
    In.ignore(256, '\n');
  }
  return 0;
}

// What clinfo shows: a printf buffer (printf works), the host processor's
// vendor and clock, and memory a buffer on every member can use: with the
// CPU and two HostDiscrete devices, the host's memory holds the buffer
// three times.
TEST_F(OpenCL, DeviceInfoAsClinfoShowsIt) {
  size_t Printf = 0;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof Printf, &Printf, nullptr),
            CL_SUCCESS);
  EXPECT_GE(Printf, size_t(1) << 20);
  cl_uint Vendor = 0, Clock = 0;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_VENDOR_ID, sizeof Vendor, &Vendor, nullptr),
            CL_SUCCESS);
  std::ifstream Cpuinfo("/proc/cpuinfo");
  std::string Text((std::istreambuf_iterator<char>(Cpuinfo)), {});
  if (Text.find("GenuineIntel") != std::string::npos) {
    EXPECT_EQ(Vendor, 0x8086u);
  } else if (Text.find("AuthenticAMD") != std::string::npos) {
    EXPECT_EQ(Vendor, 0x1022u);
  }
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof Clock, &Clock, nullptr),
            CL_SUCCESS);
  std::ifstream MaxFreq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  unsigned long KHz = 0;
  size_t MHzAt = Text.find("cpu MHz");
  if (MaxFreq >> KHz) {
    EXPECT_EQ(Clock, KHz / 1000);
  } else if (MHzAt != std::string::npos) {
    EXPECT_EQ(Clock, unsigned(std::strtod(Text.c_str() + Text.find(':', MHzAt) + 1, nullptr) +
                              0.5));
  }
  cl_ulong Global = 0, MaxAlloc = 0;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof Global, &Global, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof MaxAlloc, &MaxAlloc,
                            nullptr),
            CL_SUCCESS);
  EXPECT_LE(MaxAlloc, Global);
  EXPECT_GE(MaxAlloc, std::min<cl_ulong>(Global, std::max<cl_ulong>(Global / 4, 128 << 20)));
  const char *Devices = std::getenv("SKMD_DEVICES");
  if (Devices && std::string(Devices) == "cpu,discrete,discrete") {
    EXPECT_EQ(Global, meminfoBytes("MemTotal") / 3);
  }
}

// The build cache (SKMD_CACHE): with the compiler, a source build fills it
// and the next identical build comes from it; without the compiler (ctest
// runs this again with SKMD_OPENCL_COMPILER at a missing path, after
// skmd-cc --cache filled the folder with SCALE=3), the entry skmd-cc made
// builds, and other options fail saying what the cache lacks.
TEST_F(OpenCL, SourceBuildsUseTheBuildCache) {
  const char *Path = std::getenv("SKMD_CACHE_TEST_SOURCE");
  if (!Path || !std::getenv("SKMD_CACHE"))
    GTEST_SKIP() << "run with SKMD_CACHE and SKMD_CACHE_TEST_SOURCE (ctest opencl-build-cache-*)";
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(Text.empty()) << Path;
  std::string Log;
  bool Compiler = !std::getenv("SKMD_OPENCL_COMPILER");
  if (Compiler) {
    ASSERT_EQ(buildCachedAndRun(Ctx, D, Q, Text, "-D SCALE=5", 5.0f, Log), CL_SUCCESS) << Log;
    EXPECT_EQ(Log.find("built ahead of time"), std::string::npos) << Log;
    // Spelled otherwise, with a switch that changes nothing here.
    ASSERT_EQ(buildCachedAndRun(Ctx, D, Q, Text, "-DSCALE=5 -cl-mad-enable", 5.0f, Log),
              CL_SUCCESS)
        << Log;
    EXPECT_NE(Log.find("built ahead of time"), std::string::npos) << Log;
    ASSERT_EQ(linkCachedAndRun(Ctx, Q, Log), CL_SUCCESS) << Log;
    return;
  }
  ASSERT_EQ(linkCachedAndRun(Ctx, Q, Log), CL_SUCCESS) << Log;
  EXPECT_NE(Log.find("built ahead of time"), std::string::npos) << Log;
  ASSERT_EQ(buildCachedAndRun(Ctx, D, Q, Text, "-cl-fast-relaxed-math -DSCALE=3", 3.0f, Log),
            CL_SUCCESS)
      << Log;
  EXPECT_NE(Log.find("built ahead of time"), std::string::npos) << Log;
  EXPECT_EQ(buildCachedAndRun(Ctx, D, Q, Text, "-DSCALE=4", 4.0f, Log),
            CL_COMPILER_NOT_AVAILABLE);
  EXPECT_NE(Log.find("the build cache"), std::string::npos) << Log;
  EXPECT_NE(Log.find("skmd-cc --cache"), std::string::npos) << Log;
}

TEST_F(OpenCL, WithoutTheCompilerBinariesStillRun) {
  const char *Module = std::getenv("SKMD_OPENCL_COMPILER");
  if (!Module || std::string(Module).find("missing") == std::string::npos)
    GTEST_SKIP() << "run with SKMD_OPENCL_COMPILER=<a missing path>";
  cl_bool Available = CL_TRUE;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_COMPILER_AVAILABLE, sizeof Available, &Available,
                            nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Available, CL_FALSE);
  cl_int E;
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &VectorAdd, nullptr, &E);
  EXPECT_EQ(clBuildProgram(Prog, 1, &D, nullptr, nullptr, nullptr), CL_COMPILER_NOT_AVAILABLE);
  EXPECT_NE(log(Prog).find("does not load"), std::string::npos) << log(Prog);
  clReleaseProgram(Prog);
  const char *Dir = std::getenv("SKMD_CORPUS_DIR");
  ASSERT_NE(Dir, nullptr);
  std::ifstream In(std::string(Dir) + "/vector_add.skmd", std::ios::binary);
  std::vector<unsigned char> Bundle((std::istreambuf_iterator<char>(In)), {});
  ASSERT_FALSE(Bundle.empty());
  const unsigned char *From = Bundle.data();
  size_t Bytes = Bundle.size();
  cl_program Bin = clCreateProgramWithBinary(Ctx, 1, &D, &Bytes, &From, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(Bin, 1, &D, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel K = clCreateKernel(Bin, "vector_add", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  const int N = 500;
  std::vector<float> A(N, 1.0f), B(N, 2.0f), C(N, 0.0f);
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, A.data(), &E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * 4, B.data(), &E);
  cl_mem MC = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * 4, nullptr, &E);
  clSetKernelArg(K, 0, sizeof MA, &MA);
  clSetKernelArg(K, 1, sizeof MB, &MB);
  clSetKernelArg(K, 2, sizeof MC, &MC);
  cl_uint Count = N;
  clSetKernelArg(K, 3, sizeof Count, &Count);
  size_t Global = 512, Local = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, MC, CL_TRUE, 0, N * 4, C.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(C[I], 3.0f) << I;
  for (cl_mem M : {MA, MB, MC})
    clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Bin);
}

} // namespace

namespace {

// Checks piglit's API tests found missing: a context property given twice,
// reads and writes the buffer's host-access flags forbid, a sampler
// argument of the wrong size (the size is checked first).
TEST_F(OpenCL, HostAccessFlagsPropertiesAndArgumentSizesAreChecked) {
  cl_int E;
  cl_context_properties Twice[] = {CL_CONTEXT_PLATFORM, cl_context_properties(P),
                                   CL_CONTEXT_PLATFORM, cl_context_properties(P), 0};
  EXPECT_EQ(clCreateContext(Twice, 1, &D, nullptr, nullptr, &E), nullptr);
  EXPECT_EQ(E, CL_INVALID_PROPERTY);
  int V = 1;
  cl_mem WriteOnly = clCreateBuffer(Ctx, CL_MEM_HOST_WRITE_ONLY, 4, nullptr, &E);
  cl_mem ReadOnly = clCreateBuffer(Ctx, CL_MEM_HOST_READ_ONLY, 4, nullptr, &E);
  cl_mem NoAccess = clCreateBuffer(Ctx, CL_MEM_HOST_NO_ACCESS, 4, nullptr, &E);
  EXPECT_EQ(clEnqueueReadBuffer(Q, WriteOnly, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(Q, WriteOnly, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueWriteBuffer(Q, ReadOnly, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueReadBuffer(Q, ReadOnly, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(Q, NoAccess, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(Q, NoAccess, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  for (cl_mem M : {WriteOnly, ReadOnly, NoAccess})
    clReleaseMemObject(M);
  cl_program Prog = build("__kernel void s(sampler_t t, __global int *o) { o[0] = 1; }\n");
  cl_kernel K = clCreateKernel(Prog, "s", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  char Wrong[3] = {0};
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof Wrong, Wrong), CL_INVALID_ARG_SIZE);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

} // namespace
