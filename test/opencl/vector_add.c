/* A plain OpenCL program, written for any platform: it picks the platform
   named by argv[1] (default: the first), builds vector_add from source,
   runs it over 1M elements in two launches (the second on the result of
   the first) and checks every element. Exit 0 when all are right. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *Source =
    "__kernel void vector_add(__global const float *a, __global const float *b,\n"
    "                         __global float *c, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

#define CHECK(X)                                                                  \
  do {                                                                            \
    cl_int E_ = (X);                                                              \
    if (E_ != CL_SUCCESS) {                                                       \
      fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #X, E_);           \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

int main(int argc, char **argv) {
  const char *Want = argc > 1 ? argv[1] : NULL;
  cl_platform_id Platforms[16];
  cl_uint N = 0;
  CHECK(clGetPlatformIDs(16, Platforms, &N));
  cl_platform_id P = NULL;
  for (cl_uint I = 0; I < N && !P; ++I) {
    char Name[256];
    CHECK(clGetPlatformInfo(Platforms[I], CL_PLATFORM_NAME, sizeof Name, Name, NULL));
    if (!Want || strcmp(Name, Want) == 0)
      P = Platforms[I];
  }
  if (!P) {
    fprintf(stderr, "no platform %s\n", Want ? Want : "at all");
    return 1;
  }
  cl_device_id D;
  CHECK(clGetDeviceIDs(P, CL_DEVICE_TYPE_DEFAULT, 1, &D, NULL));
  char DevName[256];
  CHECK(clGetDeviceInfo(D, CL_DEVICE_NAME, sizeof DevName, DevName, NULL));
  printf("device: %s\n", DevName);
  cl_int E;
  cl_context Ctx = clCreateContext(NULL, 1, &D, NULL, NULL, &E);
  CHECK(E);
  cl_command_queue Q = clCreateCommandQueue(Ctx, D, CL_QUEUE_PROFILING_ENABLE, &E);
  CHECK(E);
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Source, NULL, &E);
  CHECK(E);
  if (clBuildProgram(Prog, 1, &D, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    char Log[4096];
    clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, sizeof Log, Log, NULL);
    fprintf(stderr, "build failed: %s\n", Log);
    return 1;
  }
  cl_kernel K = clCreateKernel(Prog, "vector_add", &E);
  CHECK(E);
  const int Count = 1 << 20;
  float *A = malloc(Count * sizeof(float)), *B = malloc(Count * sizeof(float)),
        *C = malloc(Count * sizeof(float));
  for (int I = 0; I < Count; ++I) {
    A[I] = (float)I;
    B[I] = (float)(2 * I);
  }
  cl_mem MA = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             Count * sizeof(float), A, &E);
  CHECK(E);
  cl_mem MB = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Count * sizeof(float), NULL, &E);
  CHECK(E);
  cl_mem MC = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Count * sizeof(float), NULL, &E);
  CHECK(E);
  CHECK(clEnqueueWriteBuffer(Q, MB, CL_TRUE, 0, Count * sizeof(float), B, 0, NULL, NULL));
  /* c = a + b; then b = a + c, which reads the first launch's output. */
  size_t Global = Count;
  CHECK(clSetKernelArg(K, 0, sizeof MA, &MA));
  CHECK(clSetKernelArg(K, 1, sizeof MB, &MB));
  CHECK(clSetKernelArg(K, 2, sizeof MC, &MC));
  CHECK(clSetKernelArg(K, 3, sizeof Count, &Count));
  cl_event Ev;
  CHECK(clEnqueueNDRangeKernel(Q, K, 1, NULL, &Global, NULL, 0, NULL, &Ev));
  CHECK(clSetKernelArg(K, 1, sizeof MC, &MC));
  CHECK(clSetKernelArg(K, 2, sizeof MB, &MB));
  CHECK(clEnqueueNDRangeKernel(Q, K, 1, NULL, &Global, NULL, 1, &Ev, NULL));
  CHECK(clEnqueueReadBuffer(Q, MB, CL_TRUE, 0, Count * sizeof(float), C, 0, NULL, NULL));
  CHECK(clFinish(Q));
  cl_int Status;
  CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, NULL));
  if (Status != CL_COMPLETE) {
    fprintf(stderr, "first launch's status %d\n", Status);
    return 1;
  }
  for (int I = 0; I < Count; ++I)
    if (C[I] != (float)(4 * I)) {
      fprintf(stderr, "element %d is %g, expected %g\n", I, C[I], (double)(4 * I));
      return 1;
    }
  printf("ok: %d elements\n", Count);
  clReleaseEvent(Ev);
  clReleaseMemObject(MA);
  clReleaseMemObject(MB);
  clReleaseMemObject(MC);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  free(A);
  free(B);
  free(C);
  return 0;
}
