//===- SharedMemory.h - Memory a client shares with skmd-server ---*- C++ -*-===//
//
// On one node a client and a server need not move a copy's bytes through
// their socket: the client makes a segment of memory (a memfd), sends its
// descriptor once (wire::Share), and the server maps it and page-locks it
// for its GPUs (Device::registerHost). A copy then names rows of the
// segment, and the server's GPU reads or writes them by DMA: no byte
// crosses the socket, and none is copied on either side.
//
// Two kinds of segment use this:
//  - host memory a program allocates through a remote device
//    (allocPinnedHost, skmd_alloc_host, the OpenCL platform's buffers):
//    published here, so that any remote device finds the segment that
//    holds a pointer and shares it with its own server on first use;
//  - each remote device's staging ring, through which copies of ordinary
//    memory go in pieces (devices/remote/StagingRing.h).
//
// Segments are sealed against shrinking before they are shared, so that a
// server's mapping never loses its pages under it (a SIGBUS): the server
// refuses a descriptor without that seal (MappedSegment).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_SHAREDMEMORY_H
#define SKMD_DEVICES_REMOTE_SHAREDMEMORY_H

#include "support/Result.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace skmd {

class ServerLink;

/// A client's segment: mapped here, its descriptor kept to share it.
class SharedSegment {
public:
  /// A fresh sealed segment of \p Bytes (rounded up to pages), zeroed.
  static Result<std::shared_ptr<SharedSegment>> create(uint64_t Bytes);
  /// Unmaps it; every server it was shared with is told to let it go.
  ~SharedSegment();
  SharedSegment(const SharedSegment &) = delete;
  SharedSegment &operator=(const SharedSegment &) = delete;

  /// The number servers know it by (unique in this process).
  uint64_t id() const { return Id; }
  int descriptor() const { return Fd; }
  char *data() const { return Base; }
  uint64_t bytes() const { return Bytes; }
  /// Whether [P, P + N) lies in it.
  bool holds(const void *P, uint64_t N) const;

  /// Records that \p Link's server maps it (ServerLink::share).
  void sharedWith(const std::shared_ptr<ServerLink> &Link);

private:
  SharedSegment(uint64_t Id, int Fd, char *Base, uint64_t Bytes)
      : Id(Id), Fd(Fd), Base(Base), Bytes(Bytes) {}
  uint64_t Id;
  int Fd;
  char *Base;
  uint64_t Bytes;
  std::mutex Lock;
  std::vector<std::weak_ptr<ServerLink>> Links;
};

/// Host memory allocated through remote devices: found by any address in
/// it, from any remote device.
void publishSegment(std::shared_ptr<SharedSegment> S);
/// Takes back the segment that starts at \p Base (null if none does).
std::shared_ptr<SharedSegment> withdrawSegment(const void *Base);
/// The published segment that holds [P, P + N), or null.
std::shared_ptr<SharedSegment> segmentHolding(const void *P, uint64_t N);

/// A server's mapping of a client's segment.
class MappedSegment {
public:
  /// Maps \p Bytes of the segment \p Fd (which it closes, mapped or not).
  /// Refuses what is not a sealed memfd of at least \p Bytes.
  static Result<std::unique_ptr<MappedSegment>> map(int Fd, uint64_t Bytes);
  ~MappedSegment();
  MappedSegment(const MappedSegment &) = delete;
  MappedSegment &operator=(const MappedSegment &) = delete;

  char *data() const { return Base; }
  uint64_t bytes() const { return Bytes; }

private:
  MappedSegment(char *Base, uint64_t Bytes) : Base(Base), Bytes(Bytes) {}
  char *Base;
  uint64_t Bytes;
};

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_SHAREDMEMORY_H
