//===- TransferBandwidth.cpp - Host<->GPU copies: pinned, staged, plain ---===//
//
// transfer-bandwidth [--mb=256] [--runs=5]
//
// For every GPU, the bandwidth of one copy of --mb MiB each way:
//   pinned     from/to page-locked memory (skmd_alloc_host's), the ceiling
//   staged     from/to pageable memory through SKMD's staging pool
//   driver     from/to pageable memory with a plain cuMemcpy (what a user
//              of the driver gets without staging)
// best of --runs after a warm-up. Prints a markdown table; the target is
// staged >= 85% of pinned for host-to-device.
//
//===----------------------------------------------------------------------===//
#include "devices/cuda/CudaDevice.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace skmd;

namespace {

double bestGBps(uint64_t Bytes, unsigned Runs, const std::function<Status()> &Copy) {
  double Best = 0;
  for (unsigned I = 0; I <= Runs; ++I) {
    auto T = std::chrono::steady_clock::now();
    Status S = Copy();
    double Sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - T).count();
    if (!S) {
      std::fprintf(stderr, "transfer-bandwidth: %s\n", S.error().message().c_str());
      std::exit(1);
    }
    if (I > 0) // the first is a warm-up
      Best = std::max(Best, double(Bytes) / Sec / 1e9);
  }
  return Best;
}

} // namespace

int main(int Argc, char **Argv) {
  uint64_t MiB = 256;
  unsigned Runs = 5;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--mb=", 0) == 0)
      MiB = std::strtoull(A.c_str() + 5, nullptr, 10);
    else if (A.rfind("--runs=", 0) == 0)
      Runs = unsigned(std::atoi(A.c_str() + 7));
    else {
      std::printf("usage: transfer-bandwidth [--mb=256] [--runs=5]\n");
      return A == "--help" ? 0 : 2;
    }
  }
  auto Gpus = CudaDevice::open({});
  if (!Gpus) {
    std::printf("skipped: %s\n", Gpus.error().message().c_str());
    return 77;
  }
  std::string Error;
  const CudaDriver &D = *CudaDriver::get(Error);
  uint64_t Bytes = MiB << 20;
  // Pageable memory, touched so that page faults are not timed.
  std::vector<char> Pageable(Bytes, 1), Back(Bytes, 0);
  char *Pinned = static_cast<char *>(CudaDevice::allocPinned(Bytes));
  if (!Pinned) {
    std::fprintf(stderr, "transfer-bandwidth: cannot pin %llu MiB\n",
                 (unsigned long long)MiB);
    return 1;
  }
  std::memset(Pinned, 1, Bytes);

  auto Env = [](const char *Name, const char *Default) {
    const char *V = std::getenv(Name);
    return V ? V : Default;
  };
  std::printf("%llu MiB per copy, best of %u after a warm-up; staging: %s threads, "
              "%s MiB chunks\n\n",
              (unsigned long long)MiB, Runs, Env("SKMD_STAGING_THREADS", "8 (default)"),
              Env("SKMD_STAGING_CHUNK_MB", "2 (default)"));
  std::printf("| GPU | direction | pinned GB/s | staged GB/s | driver (pageable) GB/s | "
              "staged / pinned |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (auto &G : *Gpus) {
    auto Mem = G->allocate(Bytes);
    if (!Mem) {
      std::fprintf(stderr, "transfer-bandwidth: %s\n", Mem.error().message().c_str());
      return 1;
    }
    auto Plain = [&](CUresult R) {
      return R ? Status(Failure(ErrorCode::DeviceFailed, D.describe(R))) : Status();
    };
    double PinIn = bestGBps(Bytes, Runs, [&] {
      Status S = G->copyIn(*Mem, 0, Pinned, Bytes);
      return S ? G->finishCopies() : S;
    });
    double StagedIn = bestGBps(Bytes, Runs, [&] {
      Status S = G->copyIn(*Mem, 0, Pageable.data(), Bytes);
      return S ? G->finishCopies() : S;
    });
    // The device's context is current on this thread after its calls.
    double DriverIn = bestGBps(Bytes, Runs, [&] {
      return Plain(D.cuMemcpyHtoD(Mem->Address, Pageable.data(), Bytes));
    });
    double PinOut = bestGBps(Bytes, Runs, [&] { return G->copyOut(Pinned, *Mem, 0, Bytes); });
    double StagedOut =
        bestGBps(Bytes, Runs, [&] { return G->copyOut(Back.data(), *Mem, 0, Bytes); });
    double DriverOut = bestGBps(Bytes, Runs, [&] {
      return Plain(D.cuMemcpyDtoH(Back.data(), Mem->Address, Bytes));
    });
    if (std::memcmp(Back.data(), Pageable.data(), Bytes) != 0) {
      std::fprintf(stderr, "transfer-bandwidth: the bytes came back different\n");
      return 1;
    }
    const std::string Name = G->info().Name + " (" + G->info().Description + ")";
    std::printf("| %s | host to device | %.1f | %.1f | %.1f | %.0f%% |\n", Name.c_str(),
                PinIn, StagedIn, DriverIn, 100 * StagedIn / PinIn);
    std::printf("| %s | device to host | %.1f | %.1f | %.1f | %.0f%% |\n", Name.c_str(),
                PinOut, StagedOut, DriverOut, 100 * StagedOut / PinOut);
    G->release(*Mem);
  }
  CudaDevice::freePinned(Pinned);
  return 0;
}
