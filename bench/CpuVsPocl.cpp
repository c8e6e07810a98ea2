//===- CpuVsPocl.cpp - SKMD's CPU work-groups against PoCL ------------------===//
//
// The tiled matmul (examples/matmul_tiled.cl, 16x16 __local tiles, barriers
// in the tile loop) run by PoCL through OpenCL and by SKMD's CPU device
// from the bundle's x86 variant, same sizes, all threads of this machine.
// Kernel time only (buffers already in place), best of 3 after a warm-up.
//
//   cpu-vs-pocl <matmul_tiled.skmd> <matmul_tiled.cl> [N]
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "devices/cpu/SharedObject.h"
#include "devices/cpu/WorkGroupRunner.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

using namespace skmd;

namespace {

double bestMs(const std::function<void()> &Run) {
  Run(); // warm-up
  double Best = 1e300;
  for (int I = 0; I < 3; ++I) {
    auto T0 = std::chrono::steady_clock::now();
    Run();
    Best = std::min(Best, std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - T0)
                              .count());
  }
  return Best;
}

#define CL_CHECK(X)                                                            \
  do {                                                                         \
    cl_int E_ = (X);                                                           \
    if (E_ != CL_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s failed: %d\n", #X, E_);                         \
      return -1;                                                               \
    }                                                                          \
  } while (0)

/// PoCL's time for C = A * B, or a negative value when PoCL is missing.
double poclMatmul(const std::string &Source, int N, const std::vector<float> &A,
                  const std::vector<float> &B, std::vector<float> &C) {
  cl_uint NP = 0;
  if (clGetPlatformIDs(0, nullptr, &NP) != CL_SUCCESS || NP == 0)
    return -1;
  std::vector<cl_platform_id> Ps(NP);
  clGetPlatformIDs(NP, Ps.data(), nullptr);
  cl_device_id Dev = nullptr;
  for (cl_platform_id P : Ps) {
    char Name[256] = {0};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (std::string(Name).find("Portable") != std::string::npos &&
        clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 1, &Dev, nullptr) == CL_SUCCESS)
      break;
    Dev = nullptr;
  }
  if (!Dev)
    return -1;
  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  cl_command_queue Q = clCreateCommandQueue(Ctx, Dev, 0, &Err);
  CL_CHECK(Err);
  const char *Src = Source.c_str();
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Src, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clBuildProgram(Prog, 1, &Dev, "-cl-std=CL1.2", nullptr, nullptr));
  cl_kernel K = clCreateKernel(Prog, "matmul_tiled", &Err);
  CL_CHECK(Err);
  size_t Bytes = size_t(N) * N * sizeof(float);
  cl_mem DA = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes,
                             const_cast<float *>(A.data()), &Err);
  cl_mem DB = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes,
                             const_cast<float *>(B.data()), &Err);
  cl_mem DC = clCreateBuffer(Ctx, CL_MEM_WRITE_ONLY, Bytes, nullptr, &Err);
  CL_CHECK(Err);
  clSetKernelArg(K, 0, sizeof(cl_mem), &DA);
  clSetKernelArg(K, 1, sizeof(cl_mem), &DB);
  clSetKernelArg(K, 2, sizeof(cl_mem), &DC);
  clSetKernelArg(K, 3, sizeof(int), &N);
  size_t Global[2] = {size_t(N), size_t(N)}, Local[2] = {16, 16};
  double Ms = bestMs([&] {
    clEnqueueNDRangeKernel(Q, K, 2, nullptr, Global, Local, 0, nullptr, nullptr);
    clFinish(Q);
  });
  CL_CHECK(clEnqueueReadBuffer(Q, DC, CL_TRUE, 0, Bytes, C.data(), 0, nullptr, nullptr));
  clReleaseMemObject(DA);
  clReleaseMemObject(DB);
  clReleaseMemObject(DC);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  return Ms;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cpu-vs-pocl <matmul_tiled.skmd> <matmul_tiled.cl> [N]\n");
    return 2;
  }
  int N = argc > 3 ? std::atoi(argv[3]) : 1024;
  if (N <= 0 || N % 16) {
    std::fprintf(stderr, "N must be a positive multiple of 16\n");
    return 2;
  }
  std::ifstream In(argv[2]);
  std::stringstream Source;
  Source << In.rdbuf();

  std::mt19937 Rng(1);
  std::uniform_real_distribution<float> D(-1, 1);
  std::vector<float> A(size_t(N) * N), B(A.size()), C(A.size()), Ref(A.size());
  for (float &X : A)
    X = D(Rng);
  for (float &X : B)
    X = D(Rng);

  auto Bundle = Bundle::fromFile(argv[1]);
  if (!Bundle) {
    std::fprintf(stderr, "%s\n", Bundle.error().message().c_str());
    return 1;
  }
  const KernelInfo *K = Bundle->metadata().findKernel("matmul_tiled");
  auto Lib = SharedObject::load(Bundle->variant(TargetKind::X86));
  if (!K || !Lib) {
    std::fprintf(stderr, "cannot load matmul_tiled's x86 variant\n");
    return 1;
  }
  auto Fn = reinterpret_cast<skmd_wg_fn>(*Lib->symbol(K->Symbols.at(TargetKind::X86).Kernel));
  ThreadPool Pool(ThreadPool::defaultThreads());
  void *PA = A.data(), *PB = B.data(), *PC = C.data();
  std::vector<void *> Args = {&PA, &PB, &PC, &N};
  CpuLaunch L;
  L.NumGroups = {uint64_t(N / 16), uint64_t(N / 16), 1};
  L.LocalSize = {16, 16, 1};
  L.WorkDim = 2;
  double SkmdMs = bestMs([&] {
    Status S = runWorkGroups(Pool, Fn, Args, {0, 0, 0, 0}, L,
                             {K->Cpu.LocalMemBytes, K->Cpu.StateBytesPerItem}, 0,
                             L.NumGroups[0] * L.NumGroups[1]);
    if (!S)
      std::fprintf(stderr, "%s\n", S.error().message().c_str());
  });
  double PoclMs = poclMatmul(Source.str(), N, A, B, Ref);

  double Flops = 2.0 * N * N * double(N);
  std::printf("| kernel | N | threads | PoCL ms | SKMD CPU ms | PoCL GFLOP/s | SKMD GFLOP/s | SKMD/PoCL speedup | max rel. diff |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  double MaxDiff = 0;
  if (PoclMs > 0)
    for (size_t I = 0; I < C.size(); ++I)
      MaxDiff = std::max(MaxDiff, double(std::fabs(C[I] - Ref[I]) / std::max(1.0f, std::fabs(Ref[I]))));
  std::printf("| matmul_tiled | %d | %u | %.1f | %.1f | %.2f | %.2f | %.2fx | %.1e |\n", N,
              Pool.size(), PoclMs, SkmdMs, PoclMs > 0 ? Flops / PoclMs / 1e6 : 0.0,
              Flops / SkmdMs / 1e6, PoclMs > 0 ? PoclMs / SkmdMs : 0.0, MaxDiff);
  return PoclMs > 0 && MaxDiff > 1e-3 ? 1 : 0;
}
