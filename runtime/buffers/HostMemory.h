//===- HostMemory.h - Host memory the devices copy fastest ------*- C++ -*-===//
//
// Buffers the runtime allocates for itself live in page-locked memory
// where a device can page-lock it: memory shared with a server on this node
// first (every device can page-lock it too, where a GPU's own page-locked
// memory cannot be shared: devices/remote/SharedMemory.h), then each
// device's own, registered with the others that copy by DMA. Without a
// device that page-locks, page-aligned memory does as well.
//
// Thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUFFERS_HOSTMEMORY_H
#define SKMD_BUFFERS_HOSTMEMORY_H

#include "devices/Device.h"

#include <cstddef>
#include <mutex>
#include <vector>

namespace skmd {

class HostMemory {
public:
  explicit HostMemory(std::vector<Device *> Devices) : Devices(std::move(Devices)) {}
  /// Frees every block still allocated.
  ~HostMemory();
  HostMemory(const HostMemory &) = delete;
  HostMemory &operator=(const HostMemory &) = delete;

  /// \p Bytes of host memory; null when none is left.
  void *alloc(size_t Bytes);
  /// Frees what alloc returned (null is ignored).
  void free(void *Ptr);

private:
  /// A page-locked block: the device that owns it, and the others that
  /// page-locked it too.
  struct PinnedBlock {
    void *P = nullptr;
    Device *Owner = nullptr;
    std::vector<Device *> Registered;
  };
  static void release(const PinnedBlock &B);

  std::vector<Device *> Devices;
  std::mutex Lock;
  std::vector<PinnedBlock> Pinned;
};

} // namespace skmd

#endif // SKMD_BUFFERS_HOSTMEMORY_H
