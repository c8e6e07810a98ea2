//===- StagingPoolCheck.cpp - Staged copies through one GPU's pools -------===//
//
// On the first GPU (a real one, or test/gpu/FakeCudaDriver.c's):
//   - two threads copy pageable memory in and out through the same pools
//     at once, and each gets its own bytes back;
//   - with SKMD_FAKE_CUDA_HOST_ALLOCS limiting page-locked allocations
//     (the fake driver), the staging buffers cannot all be made: every
//     staged copy fails with an error, the second as the first.
// Prints "ok" or what went wrong; exit 0 only on success.
//
//===----------------------------------------------------------------------===//
#include "devices/cuda/CudaDevice.h"

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace skmd;

namespace {

constexpr uint64_t Bytes = 5ull << 20; // Several 2 MiB chunks.

/// Copies \p Fill's bytes to \p M and back \p Rounds times.
bool roundTrips(Device &D, DeviceMemory M, unsigned char Fill, unsigned Rounds) {
  std::vector<unsigned char> In(Bytes), Out(Bytes);
  for (unsigned R = 0; R < Rounds; ++R) {
    for (uint64_t I = 0; I < Bytes; ++I)
      In[I] = (unsigned char)(Fill + R + I % 251);
    if (!D.copyIn(M, 0, In.data(), Bytes) || !D.finishCopies() ||
        !D.copyOut(Out.data(), M, 0, Bytes) || In != Out)
      return false;
  }
  return true;
}

} // namespace

int main() {
  auto Opened = CudaDevice::open({0});
  if (!Opened) {
    std::fprintf(stderr, "no GPU: %s\n", Opened.error().message().c_str());
    return 1;
  }
  Device &D = *Opened->front();
  auto A = D.allocate(Bytes), B = D.allocate(Bytes);
  if (!A || !B) {
    std::fprintf(stderr, "no device memory\n");
    return 1;
  }
  if (std::getenv("SKMD_FAKE_CUDA_HOST_ALLOCS")) {
    std::vector<unsigned char> Host(Bytes, 1);
    for (int Try = 0; Try < 2; ++Try)
      if (D.copyOut(Host.data(), *A, 0, Bytes)) {
        std::fprintf(stderr, "a copy without its staging buffers succeeded\n");
        return 1;
      }
  } else {
    bool Ok[2] = {false, false};
    std::thread Other([&] { Ok[1] = roundTrips(D, *B, 100, 8); });
    Ok[0] = roundTrips(D, *A, 1, 8);
    Other.join();
    if (!Ok[0] || !Ok[1]) {
      std::fprintf(stderr, "a thread did not get its bytes back\n");
      return 1;
    }
  }
  D.release(*A);
  D.release(*B);
  std::printf("ok\n");
  return 0;
}
