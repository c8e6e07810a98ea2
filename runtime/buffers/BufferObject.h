//===- BufferObject.h - A buffer, its copies, and where each byte is valid -*- C++ -*-===//
//
// A buffer has an identity beyond one launch: its host memory, a copy on
// each device that has run a piece on it (kept across launches), and per
// location the byte ranges whose contents are current. Launches plan their
// moves from that residency: a byte moves only when the newest copy is
// somewhere else, in either direction, before any piece (the CPU's
// included) reads it.
//
// Two kinds of host memory:
//   - HostCoherent: the user's own memory, which the user reads and writes
//     between launches (skmd_wrap_buffer, the tools). Each launch starts
//     from it and ends with every byte written back; device copies are
//     kept only as allocations to reuse.
//   - Resident: reached only through the runtime (skmd_read_buffer,
//     skmd_write_buffer; the OpenCL platform's buffers). Bytes stay where
//     the last launch wrote them until someone asks for them, and then
//     exactly the stale ranges come back.
//
// A BufferObject is used by one thread at a time: the session's worker,
// which runs launches and host access in order.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUFFERS_BUFFEROBJECT_H
#define SKMD_BUFFERS_BUFFEROBJECT_H

#include "devices/Device.h"
#include "footprint/Footprint.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace skmd {

class Residency;

class BufferObject {
public:
  enum class Coherence { HostCoherent, Resident };

  /// A device's copy: the allocation holds bytes [Lo, Hi) of the buffer at
  /// offset At.
  struct DeviceCopy {
    Device *On = nullptr;
    DeviceMemory Memory;
    int64_t Lo = 0, Hi = 0;
    uint64_t At = 0;
    IntervalSet Valid;
    uint64_t LastUse = 0;
    /// The address the kernel indexes from: where byte 0 of the buffer
    /// would be (a handle device's allocation itself, At being Lo there).
    uint64_t base() const { return Memory.Address + At - uint64_t(Lo); }
  };

  /// An allocation on \p D for bytes [Lo, Hi) of a buffer, laid out as a
  /// copy's (a handle device's from byte 0; elsewhere at Lo modulo the
  /// base alignment), valid nowhere yet.
  static Result<DeviceCopy> allocateRegion(Device &D, int64_t Lo, int64_t Hi);

  /// \p Host: \p Bytes of host memory that the object does not own.
  /// Registered with \p R, which may evict its copies under pressure.
  BufferObject(Residency &R, void *Host, uint64_t Bytes, Coherence C);
  /// Releases every device copy (nothing is brought back).
  ~BufferObject();
  BufferObject(const BufferObject &) = delete;
  BufferObject &operator=(const BufferObject &) = delete;

  void *host() const { return Host; }
  uint64_t bytes() const { return Bytes; }
  Coherence coherence() const { return Mode; }
  const IntervalSet &hostValid() const { return HostValid; }
  const std::vector<std::unique_ptr<DeviceCopy>> &copies() const { return Copies; }
  DeviceCopy *copyOn(const Device &D);
  IntervalSet all() const;

  /// The host's bytes \p Set changed (the user wrote them): every device
  /// copy of them is stale.
  void hostWrote(const IntervalSet &Set);
  /// Makes the host's bytes \p Want current, copying the stale ranges from
  /// the devices holding them, and returns the bytes copied. Fails, with
  /// nothing lost, when a copy fails or a byte was lost.
  Result<uint64_t> bringToHost(const IntervalSet &Want, const Device *Except = nullptr);

  /// A copy on \p D that holds at least [Lo, Hi): the existing one, or a
  /// new allocation (the old one's only-valid bytes brought to the host
  /// first). Under memory pressure, other buffers' least recently used
  /// copies on \p D are evicted.
  Result<DeviceCopy *> copyFor(Device &D, int64_t Lo, int64_t Hi);
  /// Brings the bytes only \p D holds to the host and releases its copy.
  Status evict(const Device &D);
  /// After \p D failed: brings what it can of the bytes only \p D holds
  /// (but \p Garbled, which a failed kernel may have half written) to the
  /// host, records the rest as lost, and releases the copy.
  void dropAfterFailure(const Device &D, const IntervalSet &Garbled);

  /// Bookkeeping after a launch's pieces: \p Set is current at \p On (the
  /// host when null) as well as wherever it was.
  void nowValid(const Device *On, const IntervalSet &Set);
  /// \p Set was written at \p On: current there only.
  void wroteAt(const Device *On, const IntervalSet &Set);
  /// Every device copy is stale: the host holds the buffer (after merges).
  void onlyOnHost();

  /// Bytes valid nowhere but \p D.
  IntervalSet onlyOn(const Device &D) const;

private:
  friend class Residency;
  Residency &Owner;
  void *Host;
  uint64_t Bytes;
  Coherence Mode;
  IntervalSet HostValid;
  /// Bytes lost with a device that failed while it held their only copy:
  /// reading them fails.
  IntervalSet Lost;
  /// Pointers stay valid while other devices' copies come and go.
  std::vector<std::unique_ptr<DeviceCopy>> Copies;
};

/// Every buffer object of a launcher: what pressure on a device's memory
/// may evict, least recently used first.
class Residency {
public:
  /// Tick of the current launch, to order copies by their last use.
  uint64_t tick() { return ++Clock; }
  uint64_t now() const { return Clock; }
  /// Evicts the least recently used copy on \p D of a buffer other than
  /// \p Keep (and not used in the current launch); false when none is left.
  bool evictOne(const Device &D, const BufferObject *Keep);
  /// The device bytes held by copies, for tests and reports.
  uint64_t deviceBytes(const Device &D) const;

private:
  friend class BufferObject;
  std::set<BufferObject *> Objects;
  uint64_t Clock = 0;
};

} // namespace skmd

#endif // SKMD_BUFFERS_BUFFEROBJECT_H
