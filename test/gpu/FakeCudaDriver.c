/*===- FakeCudaDriver.c - libcuda.so.1 for hosts without a GPU -----------===//
 *
 * The entry points SKMD opens (runtime/devices/cuda/CudaDriver.cpp), so
 * that the CUDA device opens where there is no GPU: device memory is host
 * memory, copies are memcpy, modules do not load (a launch on it fails).
 * Page-locked blocks and registrations are tracked: freeing or
 * unregistering what the driver did not hand out aborts with a message.
 * SKMD_FAKE_CUDA_HOST_ALLOCS=N: only the first N cuMemHostAlloc succeed.
 *
 *===----------------------------------------------------------------------===*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long CUdeviceptr;

enum { MaxBlocks = 1 << 16 };
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static void *Pinned[MaxBlocks], *Registered[MaxBlocks];

static void fail(const char *What, const void *P) {
  fprintf(stderr, "fake CUDA driver: %s %p\n", What, P);
  abort();
}

/* Adds P to Set, or takes it out; false when it is not there to take. */
static int track(void **Set, void *P, int Add) {
  pthread_mutex_lock(&Lock);
  int Done = 0;
  for (int I = 0; I < MaxBlocks && !Done; ++I)
    if (Set[I] == (Add ? NULL : P)) {
      Set[I] = Add ? P : NULL;
      Done = 1;
    }
  pthread_mutex_unlock(&Lock);
  return Done;
}

int cuInit(unsigned Flags) { return 0; }
int cuDeviceGetCount(int *N) { *N = 1; return 0; }
int cuDeviceGet(int *Dev, int Ordinal) { *Dev = Ordinal; return 0; }
int cuDeviceGetName(char *Name, int Len, int Dev) { snprintf(Name, Len, "Fake GPU"); return 0; }
int cuDeviceGetAttribute(int *V, int Attr, int Dev) {
  *V = Attr == 16 ? 4 : Attr == 40 ? 2 : 0; /* multiprocessors, copy engines */
  return 0;
}
int cuDeviceGetPCIBusId(char *Id, int Len, int Dev) { snprintf(Id, Len, "0000:01:00.0"); return 0; }
int cuDeviceGetP2PAttribute(int *V, int Attr, int A, int B) { *V = 0; return 0; }
int cuDeviceTotalMem_v2(size_t *Bytes, int Dev) { *Bytes = 1ull << 30; return 0; }
int cuDevicePrimaryCtxRetain(void **Ctx, int Dev) { *Ctx = &Lock; return 0; }
int cuDevicePrimaryCtxRelease_v2(int Dev) { return 0; }
int cuDevicePrimaryCtxSetFlags_v2(int Dev, unsigned Flags) { return 0; }
int cuCtxSetCurrent(void *Ctx) { return 0; }
int cuCtxSynchronize(void) { return 0; }
int cuModuleLoadDataEx(void **M, const void *Image, unsigned N, int *Opts, void **Vals) {
  return 200; /* CUDA_ERROR_INVALID_IMAGE */
}
int cuModuleUnload(void *M) { return 0; }
int cuModuleGetFunction(void **F, void *M, const char *Name) { return 500; }
int cuMemAlloc_v2(CUdeviceptr *P, size_t Bytes) {
  void *M = malloc(Bytes ? Bytes : 1);
  *P = (CUdeviceptr)M;
  return M ? 0 : 2;
}
int cuMemFree_v2(CUdeviceptr P) { free((void *)P); return 0; }
int cuMemHostAlloc(void **P, size_t Bytes, unsigned Flags) {
  static long Made;
  const char *Limit = getenv("SKMD_FAKE_CUDA_HOST_ALLOCS");
  pthread_mutex_lock(&Lock);
  int Refused = Limit && Made >= atol(Limit);
  Made += !Refused;
  pthread_mutex_unlock(&Lock);
  if (Refused)
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *P = aligned_alloc(4096, (Bytes + 4095) / 4096 * 4096);
  if (!*P || !track(Pinned, *P, 1))
    return 2;
  return 0;
}
int cuMemFreeHost(void *P) {
  if (!track(Pinned, P, 0))
    fail("cuMemFreeHost of memory cuMemHostAlloc did not give:", P);
  free(P);
  return 0;
}
int cuMemHostRegister_v2(void *P, size_t Bytes, unsigned Flags) {
  return track(Registered, P, 1) ? 0 : 2;
}
int cuMemHostUnregister(void *P) {
  if (!track(Registered, P, 0))
    fail("cuMemHostUnregister of memory not registered:", P);
  return 0;
}
int cuMemcpyHtoD_v2(CUdeviceptr D, const void *S, size_t N) { memcpy((void *)D, S, N); return 0; }
int cuMemcpyDtoH_v2(void *D, CUdeviceptr S, size_t N) { memcpy(D, (void *)S, N); return 0; }
int cuMemcpyHtoDAsync_v2(CUdeviceptr D, const void *S, size_t N, void *Stream) {
  memcpy((void *)D, S, N);
  return 0;
}
int cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t N, void *Stream) {
  memcpy(D, (void *)S, N);
  return 0;
}
int cuMemcpyPeerAsync(CUdeviceptr D, void *DCtx, CUdeviceptr S, void *SCtx, size_t N,
                      void *Stream) {
  memcpy((void *)D, (void *)S, N);
  return 0;
}
int cuCtxEnablePeerAccess(void *Ctx, unsigned Flags) { return 0; }
int cuMemsetD8_v2(CUdeviceptr D, unsigned char V, size_t N) { memset((void *)D, V, N); return 0; }

/* cuda.h's CUDA_MEMCPY2D; memory type 1 is the host's. */
typedef struct {
  size_t SrcX, SrcY;
  int SrcType;
  const void *SrcHost;
  CUdeviceptr SrcDevice;
  void *SrcArray;
  size_t SrcPitch, DstX, DstY;
  int DstType;
  void *DstHost;
  CUdeviceptr DstDevice;
  void *DstArray;
  size_t DstPitch, Width, Height;
} Copy2D;
int cuMemcpy2DAsync_v2(const Copy2D *C, void *Stream) {
  const char *S = C->SrcType == 1 ? (const char *)C->SrcHost : (const char *)C->SrcDevice;
  char *D = C->DstType == 1 ? (char *)C->DstHost : (char *)C->DstDevice;
  for (size_t Row = 0; Row < C->Height; ++Row)
    memcpy(D + Row * C->DstPitch, S + Row * C->SrcPitch, C->Width);
  return 0;
}
int cuLaunchKernel(void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX, unsigned BY,
                   unsigned BZ, unsigned Shared, void *Stream, void **Params, void **Extra) {
  return 400; /* CUDA_ERROR_INVALID_HANDLE: no module loads */
}
int cuStreamCreate(void **S, unsigned Flags) { *S = malloc(1); return 0; }
int cuStreamDestroy_v2(void *S) { free(S); return 0; }
int cuStreamSynchronize(void *S) { return 0; }
int cuEventCreate(void **E, unsigned Flags) { *E = malloc(1); return 0; }
int cuEventDestroy_v2(void *E) { free(E); return 0; }
int cuEventRecord(void *E, void *S) { return 0; }
int cuEventSynchronize(void *E) { return 0; }
int cuStreamWaitEvent(void *S, void *E, unsigned Flags) { return 0; }
int cuEventElapsedTime(float *Ms, void *A, void *B) { *Ms = 0; return 0; }
int cuGetErrorString(int R, const char **S) { *S = "error of the fake CUDA driver"; return 0; }
