//===- StagingRing.h - Copies of ordinary memory through shared slots -*- C++ -*-===//
//
// VOCL's pinned buffer pool, on one node: a remote device's copies of
// memory the server cannot map (the program's own arrays) go through a
// ring of slots in a segment the server maps and page-locks. The client
// packs a piece of the copy into a slot while the server's GPU moves the
// piece before it by DMA, so that the copy on the client's core and the
// GPU's transfer overlap, and no byte crosses the socket.
//
// A slot is reused only once the server said its piece landed (a copy in)
// or the client has taken its bytes (a copy out). Slot size and count:
// SKMD_REMOTE_SLOT_MB (default 4) and SKMD_REMOTE_SLOTS (default 4).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_STAGINGRING_H
#define SKMD_DEVICES_REMOTE_STAGINGRING_H

#include "devices/remote/ServerLink.h"
#include "devices/remote/SharedMemory.h"

namespace skmd {

class StagingRing {
public:
  /// \p Slots slots of \p SlotBytes, shared with \p Link's server.
  static Result<std::unique_ptr<StagingRing>> create(std::shared_ptr<ServerLink> Link,
                                                     uint64_t SlotBytes, unsigned Slots);
  /// The sizes from the environment.
  static Result<std::unique_ptr<StagingRing>> create(std::shared_ptr<ServerLink> Link);

  /// Copies \p Where's rows from the host rows at \p Host (at Where's
  /// pitch) to the server's device \p Device; returns once they landed.
  Status toDevice(uint32_t Device, const wire::Region &Where, const char *Host);
  /// Copies \p Where's rows of device \p Device to the host rows at
  /// \p Host (at Where's pitch).
  Status toHost(uint32_t Device, const wire::Region &Where, char *Host);

private:
  StagingRing(std::shared_ptr<ServerLink> Link, std::shared_ptr<SharedSegment> Segment,
              uint64_t SlotBytes, unsigned Slots)
      : Link(std::move(Link)), Segment(std::move(Segment)), SlotBytes(SlotBytes), Slots(Slots) {}
  /// A piece of a copy that fits a slot: its rows on the device, and
  /// where its first row is on the host (from the copy's first).
  struct Piece {
    wire::Region Where;
    uint64_t HostOffset = 0;
  };
  uint64_t pieces(const wire::Region &Where) const;
  Piece piece(const wire::Region &Where, uint64_t I) const;
  wire::SharedTransfer transfer(uint32_t Device, const Piece &P, unsigned Slot,
                                uint32_t Flags) const;
  char *slot(unsigned S) const { return Segment->data() + S * SlotBytes; }

  std::shared_ptr<ServerLink> Link;
  std::shared_ptr<SharedSegment> Segment;
  uint64_t SlotBytes;
  unsigned Slots;
  /// One copy at a time uses the slots.
  std::mutex Lock;
};

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_STAGINGRING_H
