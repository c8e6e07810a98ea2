//===- HostMemory.cpp - Host memory the devices copy fastest --------------===//
#include "buffers/HostMemory.h"

#include <algorithm>
#include <cstdlib>

namespace skmd {

HostMemory::~HostMemory() {
  for (const PinnedBlock &B : Pinned)
    release(B);
}

void HostMemory::release(const PinnedBlock &B) {
  for (Device *D : B.Registered)
    D->unregisterHost(B.P);
  B.Owner->freePinnedHost(B.P);
}

void *HostMemory::alloc(size_t Bytes) {
  std::vector<Device *> Order;
  for (Device *D : Devices)
    if (D->info().Kind == DeviceKind::Remote)
      Order.push_back(D);
  for (Device *D : Devices)
    if (D->info().Kind != DeviceKind::Remote)
      Order.push_back(D);
  for (Device *Owner : Order)
    if (void *P = Owner->allocPinnedHost(Bytes)) {
      PinnedBlock B{P, Owner, {}};
      for (Device *D : Devices)
        if (D != Owner && !D->info().SharesHostMemory && !D->isPinnedHost(P, Bytes) &&
            D->registerHost(P, Bytes))
          B.Registered.push_back(D);
      std::lock_guard<std::mutex> Hold(Lock);
      Pinned.push_back(std::move(B));
      return P;
    }
  size_t Rounded = (std::max<size_t>(Bytes, 1) + 4095) / 4096 * 4096;
  return std::aligned_alloc(4096, Rounded);
}

void HostMemory::free(void *Ptr) {
  if (!Ptr)
    return;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = std::find_if(Pinned.begin(), Pinned.end(),
                           [&](const PinnedBlock &B) { return B.P == Ptr; });
    if (It != Pinned.end()) {
      PinnedBlock B = std::move(*It);
      Pinned.erase(It);
      release(B);
      return;
    }
  }
  std::free(Ptr);
}

} // namespace skmd
