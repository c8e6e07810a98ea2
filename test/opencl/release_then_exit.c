/* A plain OpenCL program that ends as many benchmarks' host code does: it
 * releases its buffers and returns from main while the platform's queue
 * still holds work, so the releases run during exit. Run on the CUDA device
 * (test/gpu/FakeCudaDriver.c where there is no GPU), whose buffers are
 * page-locked: it must print "ok" and exit 0. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Buffers = 16, SmallBytes = 64 << 10, LargeBytes = 64 << 20 };

/* Read by the write still queued at exit: never freed. */
static unsigned char *In;

static cl_platform_id skmdPlatform(void) {
  cl_platform_id Platforms[16];
  cl_uint N = 0;
  if (clGetPlatformIDs(16, Platforms, &N) != CL_SUCCESS)
    return NULL;
  for (cl_uint I = 0; I < N && I < 16; ++I) {
    char Name[256] = {0};
    clGetPlatformInfo(Platforms[I], CL_PLATFORM_NAME, sizeof Name - 1, Name, NULL);
    if (strstr(Name, "SKMD"))
      return Platforms[I];
  }
  return NULL;
}

int main(void) {
  cl_platform_id P = skmdPlatform();
  cl_device_id D;
  cl_int E;
  if (!P || clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no SKMD platform or device\n");
    return 2;
  }
  cl_context C = clCreateContext(NULL, 1, &D, NULL, NULL, &E);
  cl_command_queue Q = C ? clCreateCommandQueue(C, D, 0, &E) : NULL;
  In = malloc(LargeBytes);
  unsigned char *Out = malloc(SmallBytes);
  if (!Q || !In || !Out) {
    fprintf(stderr, "no context, queue or host memory\n");
    return 2;
  }
  for (size_t I = 0; I < LargeBytes; ++I)
    In[I] = (unsigned char)(I * 7);
  cl_mem M[Buffers + 1];
  for (int B = 0; B < Buffers; ++B) {
    M[B] = clCreateBuffer(C, CL_MEM_READ_WRITE, SmallBytes, NULL, &E);
    if (E != CL_SUCCESS ||
        clEnqueueWriteBuffer(Q, M[B], CL_FALSE, 0, SmallBytes, In + B, 0, NULL, NULL) !=
            CL_SUCCESS) {
      fprintf(stderr, "buffer %d: error %d\n", B, E);
      return 2;
    }
  }
  for (int B = 0; B < Buffers; ++B)
    if (clEnqueueReadBuffer(Q, M[B], CL_TRUE, 0, SmallBytes, Out, 0, NULL, NULL) !=
            CL_SUCCESS ||
        memcmp(Out, In + B, SmallBytes)) {
      fprintf(stderr, "buffer %d did not read back what was written\n", B);
      return 1;
    }
  /* Work the releases queue behind, still running when main returns. */
  M[Buffers] = clCreateBuffer(C, CL_MEM_READ_WRITE, LargeBytes, NULL, &E);
  if (E != CL_SUCCESS ||
      clEnqueueWriteBuffer(Q, M[Buffers], CL_FALSE, 0, LargeBytes, In, 0, NULL, NULL) !=
          CL_SUCCESS) {
    fprintf(stderr, "the large buffer: error %d\n", E);
    return 2;
  }
  for (int B = 0; B <= Buffers; ++B)
    clReleaseMemObject(M[B]);
  clReleaseCommandQueue(Q);
  clReleaseContext(C);
  printf("ok\n");
  fflush(stdout);
  free(Out);
  return 0;
}
