//===- StagingRing.h - Copies of ordinary memory through shared slots -*- C++ -*-===//
//
// VOCL's pinned buffer pool, on one node: a remote device's copies of
// memory the server cannot map (the program's own arrays) go through a
// ring of slots in a segment the server maps and page-locks. The client
// packs a piece of the copy into a slot while the server's GPU moves the
// piece before it by DMA, so that the copy on the client's core and the
// GPU's transfer overlap, and no byte crosses the socket.
//
// One core's memcpy is far slower than a GPU's link, so several copier
// threads pack and unpack, each with two slots of its own: while the
// server moves a copier's one piece, it fills the other. A slot is reused
// only once the server said its piece landed (a copy in) or its bytes
// were taken (a copy out). The copiers borrow the CPU device's cores
// while they run (devices/HostCores.h), as a local GPU's staging does.
//
// SKMD_REMOTE_SLOT_MB (default 4) and SKMD_REMOTE_COPY_THREADS (default 8,
// at most the host's threads) size it.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_STAGINGRING_H
#define SKMD_DEVICES_REMOTE_STAGINGRING_H

#include "devices/remote/ServerLink.h"
#include "devices/cpu/ThreadPool.h"
#include "devices/remote/SharedMemory.h"

namespace skmd {

class StagingRing {
public:
  /// Two slots of \p SlotBytes per copier, shared with \p Link's server.
  static Result<std::unique_ptr<StagingRing>> create(std::shared_ptr<ServerLink> Link,
                                                     uint64_t SlotBytes, unsigned Copiers);
  /// The copier threads the environment asks for.
  static unsigned copiersWanted();
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
              uint64_t SlotBytes, unsigned Copiers)
      : Link(std::move(Link)), Segment(std::move(Segment)), SlotBytes(SlotBytes),
        Copiers(Copiers), Slots(2 * Copiers), Turn(Copiers, 0) {}
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
  /// Worker \p W's slot for its next piece.
  unsigned nextSlot(unsigned W) { return 2 * W + (Turn[W]++ & 1); }
  /// Waits for slot \p S's request, if one is in flight; false on failure
  /// (kept in First).
  bool settle(unsigned S);
  void fail(const Failure &F);
  bool failed();

  std::shared_ptr<ServerLink> Link;
  std::shared_ptr<SharedSegment> Segment;
  uint64_t SlotBytes;
  ThreadPool Copiers;
  struct Slot {
    ServerLink::Ticket Request;
    bool Busy = false;
    /// The piece a copy out asked for in it.
    uint64_t Piece = 0;
  };
  std::vector<Slot> Slots;
  std::vector<unsigned> Turn;
  std::mutex FirstLock;
  Status First;
  /// One copy at a time uses the slots.
  std::mutex Lock;
};

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_STAGINGRING_H
