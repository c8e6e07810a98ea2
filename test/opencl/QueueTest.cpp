//===- QueueTest.cpp - Queues, failures, waits and placement hints --------===//
//
// Each command queue is a stream of its own: a command held back by a user
// event holds back its queue only, never another queue or a call such as
// clCreateBuffer; a command that fails is reported by every call that
// waits for it. Also the calls programs make that SKMD once refused
// (clEnqueueMigrateMemObjects, clCreateSubDevices) and a null buffer
// argument on a launch split over devices.
//
//===----------------------------------------------------------------------===//
#include "OpenCLTest.h"

#include "skmd/cl_skmd.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

namespace {

using skmd::test::OpenCL;
using namespace std::chrono_literals;

/// Runs \p Fn on a thread of its own; true when it returned within a
/// bound far above any machine's load (false: it is stuck, and the test
/// lets it go once the caller unblocks it).
template <typename F> bool returnsWithoutHanging(std::future<void> &Done, F Fn) {
  Done = std::async(std::launch::async, Fn);
  return Done.wait_for(60s) == std::future_status::ready;
}

const char *Kernels =
    "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v; }\n"
    "__kernel void past_the_end(__global int *out) {\n"
    "  out[get_global_id(0) + 1024] = 1;\n"
    "}\n"
    "__kernel void which(__global const int *maybe, __global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = maybe ? maybe[i] : -1;\n"
    "}\n";

TEST_F(OpenCL, AFailedLaunchIsReportedByEveryCallThatWaitsForIt) {
  cl_program Prog = build(Kernels);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "past_the_end", &E);
  ASSERT_EQ(E, CL_SUCCESS);
  // 64 ints; the kernel writes 1024 ints further: SKMD refuses the launch
  // rather than write past the buffer.
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &E);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof M, &M), CL_SUCCESS);
  size_t Global = 64;
  cl_event Launch;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, 0, nullptr, &Launch),
            CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &Launch), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int Status = CL_COMPLETE;
  clGetEventInfo(Launch, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_LT(Status, 0);
  // A blocking read that waits for it says so.
  std::vector<int> Back(64);
  EXPECT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, 64 * sizeof(int), Back.data(), 1, &Launch,
                                nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // The queue's next clFinish reports it, once.
  EXPECT_EQ(clFinish(Q), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(clFinish(Q), CL_SUCCESS);
  // The queue goes on: commands that do not wait for the failed launch run
  // (one failed launch does not fail every later command, as a test
  // harness that reuses its queue expects).
  cl_kernel Fill = clCreateKernel(Prog, "fill", &E);
  int Seven = 7;
  clSetKernelArg(Fill, 0, sizeof M, &M);
  clSetKernelArg(Fill, 1, sizeof Seven, &Seven);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, Fill, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, 64 * sizeof(int), Back.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_EQ(std::count(Back.begin(), Back.end(), 7), 64);
  EXPECT_EQ(clFinish(Q), CL_SUCCESS);
  clReleaseKernel(Fill);
  clReleaseEvent(Launch);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

TEST_F(OpenCL, ACommandHeldBackByAUserEventHoldsBackOnlyItsQueue) {
  cl_int E;
  cl_event Gate = clCreateUserEvent(Ctx, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  int Value = 7, Back = 0;
  cl_mem Held = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, sizeof Value, nullptr, &E);
  ASSERT_EQ(clEnqueueWriteBuffer(Q, Held, CL_FALSE, 0, sizeof Value, &Value, 1, &Gate, nullptr),
            CL_SUCCESS);
  // Another thread creates a buffer and uses it on a queue of its own
  // while the first queue waits for the program to set the event.
  cl_command_queue Other = clCreateCommandQueue(Ctx, D, 0, &E);
  std::future<void> Done;
  int Seen = 0;
  bool Returned = returnsWithoutHanging(Done, [&] {
    cl_int Err;
    cl_mem Free = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, sizeof Value, nullptr, &Err);
    int Nine = 9;
    clEnqueueWriteBuffer(Other, Free, CL_TRUE, 0, sizeof Nine, &Nine, 0, nullptr, nullptr);
    clEnqueueReadBuffer(Other, Free, CL_TRUE, 0, sizeof Seen, &Seen, 0, nullptr, nullptr);
    clReleaseMemObject(Free);
  });
  EXPECT_TRUE(Returned) << "clCreateBuffer or another queue waited for the user event";
  cl_int Status;
  clGetEventInfo(Gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_EQ(Status, CL_SUBMITTED);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  Done.wait();
  EXPECT_EQ(Seen, 9);
  ASSERT_EQ(clEnqueueReadBuffer(Q, Held, CL_TRUE, 0, sizeof Back, &Back, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Back, 7);
  clReleaseCommandQueue(Other);
  clReleaseEvent(Gate);
  clReleaseMemObject(Held);
}

TEST_F(OpenCL, AnOutOfOrderQueueRunsByDependencies) {
  cl_int E;
  cl_command_queue Ooo =
      clCreateCommandQueue(Ctx, D, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_event Gate = clCreateUserEvent(Ctx, &E);
  int A = 1, B = 2, BackA = 0, BackB = 0;
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, sizeof A, nullptr, &E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, sizeof B, nullptr, &E);
  cl_event Gated, Free;
  ASSERT_EQ(clEnqueueWriteBuffer(Ooo, MA, CL_FALSE, 0, sizeof A, &A, 1, &Gate, &Gated),
            CL_SUCCESS);
  // Enqueued after the held-back write, it runs without waiting for it.
  ASSERT_EQ(clEnqueueWriteBuffer(Ooo, MB, CL_FALSE, 0, sizeof B, &B, 0, nullptr, &Free),
            CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &Free), CL_SUCCESS);
  // A barrier waits for both; what comes after it waits for the barrier.
  cl_event Barrier;
  ASSERT_EQ(clEnqueueBarrierWithWaitList(Ooo, 0, nullptr, &Barrier), CL_SUCCESS);
  cl_event ReadA;
  ASSERT_EQ(clEnqueueReadBuffer(Ooo, MA, CL_FALSE, 0, sizeof BackA, &BackA, 0, nullptr, &ReadA),
            CL_SUCCESS);
  cl_int Status;
  clGetEventInfo(Barrier, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr);
  EXPECT_GT(Status, CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &ReadA), CL_SUCCESS);
  EXPECT_EQ(BackA, 1);
  ASSERT_EQ(clEnqueueReadBuffer(Ooo, MB, CL_TRUE, 0, sizeof BackB, &BackB, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(BackB, 2);
  EXPECT_EQ(clFinish(Ooo), CL_SUCCESS);
  for (cl_event Ev : {Gate, Gated, Free, Barrier, ReadA})
    clReleaseEvent(Ev);
  clReleaseMemObject(MA);
  clReleaseMemObject(MB);
  clReleaseCommandQueue(Ooo);
}

TEST_F(OpenCL, EventsOfAnotherContextAreRefused) {
  cl_int E;
  cl_context Second = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &E);
  ASSERT_EQ(E, CL_SUCCESS);
  cl_event Theirs = clCreateUserEvent(Second, &E);
  cl_event Ours = clCreateUserEvent(Ctx, &E);
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 4, nullptr, &E);
  int V = 0;
  EXPECT_EQ(clEnqueueWriteBuffer(Q, M, CL_FALSE, 0, 4, &V, 1, &Theirs, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(Q, 1, &Theirs, nullptr), CL_INVALID_CONTEXT);
  cl_event Both[] = {Ours, Theirs};
  EXPECT_EQ(clWaitForEvents(2, Both), CL_INVALID_CONTEXT);
  clSetUserEventStatus(Theirs, CL_COMPLETE);
  clSetUserEventStatus(Ours, CL_COMPLETE);
  clReleaseEvent(Theirs);
  clReleaseEvent(Ours);
  clReleaseMemObject(M);
  clReleaseContext(Second);
}

TEST_F(OpenCL, MigrateMemObjectsIsAPlacementHintThatKeepsTheBytes) {
  cl_program Prog = build(Kernels);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "fill", &E);
  const size_t N = 4096;
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * sizeof(int), nullptr, &E);
  int V = 3;
  clSetKernelArg(K, 0, sizeof M, &M);
  clSetKernelArg(K, 1, sizeof V, &V);
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (cl_mem_migration_flags F :
       {cl_mem_migration_flags(0), cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST),
        cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)}) {
    cl_event Ev;
    ASSERT_EQ(clEnqueueMigrateMemObjects(Q, 1, &M, F, 0, nullptr, &Ev), CL_SUCCESS) << F;
    EXPECT_EQ(clWaitForEvents(1, &Ev), CL_SUCCESS);
    cl_command_type Type = 0;
    clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof Type, &Type, nullptr);
    EXPECT_EQ(Type, cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
    clReleaseEvent(Ev);
  }
  std::vector<int> Back(N);
  ASSERT_EQ(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * sizeof(int), Back.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_EQ(std::count(Back.begin(), Back.end(), 3), long(N));
  EXPECT_EQ(clEnqueueMigrateMemObjects(Q, 0, &M, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(Q, 1, &M, 1 << 7, 0, nullptr, nullptr), CL_INVALID_VALUE);
  cl_mem Null = nullptr;
  EXPECT_EQ(clEnqueueMigrateMemObjects(Q, 1, &Null, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueMigrateMemObjects(nullptr, 1, &M, 0, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

TEST_F(OpenCL, SubDevicesAnswerAsTheSpecificationSays) {
  cl_device_partition_property Equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_partition_property Unknown[] = {0x7777, 0};
  cl_uint N = 7;
  cl_device_id Sub;
  EXPECT_EQ(clCreateSubDevices(D, Equally, 1, &Sub, &N), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(D, Unknown, 1, &Sub, &N), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(nullptr, Equally, 1, &Sub, &N), CL_INVALID_DEVICE);
  cl_uint Max = 7;
  ASSERT_EQ(clGetDeviceInfo(D, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof Max, &Max, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Max, 0u);
}

// A null buffer argument (allowed by OpenCL) is null on every device of a
// split launch; a buffer is a buffer on every device.
TEST_F(OpenCL, ANullBufferArgumentIsNullOnEveryDeviceOfASplit) {
  cl_program Prog = build(Kernels);
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, "which", &E);
  const size_t N = 16384, Local = 64;
  cl_mem Out = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, N * sizeof(int), nullptr, &E);
  std::vector<int> Ones(N, 1);
  cl_mem In = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int),
                             Ones.data(), &E);
  for (cl_mem Maybe : {cl_mem(nullptr), In}) {
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), Maybe ? &Maybe : nullptr), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof Out, &Out), CL_SUCCESS);
    cl_event Launch;
    ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, &Local, 0, nullptr, &Launch),
              CL_SUCCESS);
    std::vector<int> Back(N);
    ASSERT_EQ(clEnqueueReadBuffer(Q, Out, CL_TRUE, 0, N * sizeof(int), Back.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    int Want = Maybe ? 1 : -1;
    EXPECT_EQ(std::count(Back.begin(), Back.end(), Want), long(N)) << (Maybe ? "buffer" : "null");
    char Plan[256] = {0};
    clGetEventInfo(Launch, CL_EVENT_SKMD_PLAN, sizeof Plan, Plan, nullptr);
    // Split, where the test's devices are several (ctest: three).
    if (std::getenv("SKMD_DEVICES") && std::string(std::getenv("SKMD_DEVICES")).find(',') !=
                                           std::string::npos)
      EXPECT_NE(std::string(Plan).find(' '), std::string::npos) << Plan;
    clReleaseEvent(Launch);
  }
  clReleaseMemObject(In);
  clReleaseMemObject(Out);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
}

} // namespace
