//===- Requests.h - What a client asks of a server's devices -----*- C++ -*-===//
//
// The device requests a remote or shared device sends skmd-server, and
// their replies: one message per device call (runtime/devices/Device.h),
// each naming the server's device by its index in the Welcome.
//
//   LoadModule  -> Done(module)  or Error NotFound: send the bundle's bytes
//   LoadKernel  -> Done(kernel, merge flag)
//   Allocate    -> Done(address)
//   Release, Write          no reply: a failure is deferred to the device's
//                           next call (a Sync, Run, Read or Mark)
//   Read        -> ReadData and the bytes
//   Run         -> Done; posted when Queued (the kernel queued on the
//                  device's compute stream, a failure deferred)
//   Sync        -> Done once the device's copies have landed, or its
//                  first deferred failure
//   Heartbeat   either way, no reply: the peer is alive
//   Goodbye     the client leaves; the server frees what it held
//
// A client's requests to one device take effect in the order sent: the
// server orders the device's streams (a GPU's copies in, kernels and
// copies out) to keep them so. A device that queues its work
// (DeviceInfo::QueuesWork) so sends a piece's copies, kernel and copies
// out without a round trip between them:
//
//   Mark        -> Done once everything the client sent the device before
//                  it has run (answered later, out of order with other
//                  replies)
//   ReleaseMark           no reply: the mark is not named again
//   Load        -> Done(the server's other clients that used the device
//                  in the last second)
//   Step                  no reply: the copies in, kernels and copies out
//                         of one launch follow, with the times the
//                         client's plan predicts for them (a server that
//                         gathers its clients' steps orders them by it)
//
// A posted request's failure is the device's: it is reported by that
// device's next call, never another device's, so that no device's
// results are trusted after a failed write to it.
//
// On one node (a Unix socket) a client may share memory with the server:
//
//   Share       -> Done   a segment of the client's memory; its descriptor
//                         follows on the data channel (SCM_RIGHTS)
//   Unshare               no reply: the server lets the segment go
//   WriteShared -> Done   only when asked (AnswerWhenLanded); otherwise
//                         posted, a failure deferred like a Write's
//   ReadShared  -> Done   once the bytes are in the segment
//
// Bulk bytes (a bundle, a Write's rows, a ReadData's) are not in the
// payload: they follow their message on the connection's data channel
// (runtime/devices/remote/Connection.h), as many as the message says.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_WIRE_REQUESTS_H
#define SKMD_WIRE_REQUESTS_H

#include "wire/Wire.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace skmd::wire {

/// Rows of equal length at a constant pitch from an address: the region
/// a Write fills or a Read returns. Its bytes travel packed, row after row.
struct Region {
  uint64_t Address = 0; ///< of its first row
  uint64_t RowBytes = 0;
  uint64_t Pitch = 0;
  uint64_t Rows = 0;
  /// The bytes that travel (RowBytes * Rows), 0 where that overflows.
  uint64_t packedBytes() const;
  /// One past its last byte from Address, 0 where that overflows.
  uint64_t span() const;
};

struct LoadModule {
  uint32_t Device = 0;
  Token Hash{};             ///< SHA-256 of the bundle's bytes
  uint64_t BundleBytes = 0; ///< that follow as data; 0: the server has it
};

struct LoadKernel {
  uint32_t Device = 0;
  uint64_t Module = 0;
  std::string Kernel;
};

struct Allocate {
  uint32_t Device = 0;
  uint64_t Bytes = 0;
};

struct Release {
  uint32_t Device = 0;
  uint64_t Address = 0;
};

/// Write: the packed bytes follow. Read: ReadData and the bytes answer.
struct Transfer {
  uint32_t Device = 0;
  Region Where;
};

/// A segment of the client's memory (a sealed memfd) that the server maps:
/// copies name it by Segment, the client's number for it.
struct Share {
  uint64_t Segment = 0;
  uint64_t Bytes = 0;
};

struct Unshare {
  uint64_t Segment = 0;
};

/// A copy between a device's region and rows of a shared segment: row i
/// of Where is at Offset + i * HostPitch in the segment.
struct SharedTransfer {
  uint32_t Device = 0;
  Region Where;
  uint64_t Segment = 0;
  uint64_t Offset = 0;
  uint64_t HostPitch = 0;
  /// WriteShared: reply Done once the bytes have landed on the device (a
  /// client reusing its staging waits for that).
  static constexpr uint32_t AnswerWhenLanded = 1;
  uint32_t Flags = 0;
  /// One past the segment's last byte the rows touch, 0 where that
  /// overflows.
  uint64_t hostEnd() const;
};

/// A kernel argument as the device takes it (DeviceArg). Same: the
/// argument at this place of the kernel's previous Run, which the server
/// keeps (argument caching: an unchanged argument is not sent again).
struct Arg {
  enum Kind : uint8_t { Buffer = 0, Scalar = 1, Local = 2, Same = 3 } K = Scalar;
  uint64_t Address = 0;         ///< Buffer
  std::vector<uint8_t> Bytes;   ///< Scalar
  uint64_t LocalBytes = 0;      ///< Local
  static Arg same() {
    Arg A;
    A.K = Same;
    return A;
  }
};

struct Run {
  uint32_t Device = 0;
  uint64_t Kernel = 0;
  std::vector<Arg> Args;
  uint32_t WorkDim = 1;
  std::array<uint64_t, 3> GlobalOffset{0, 0, 0};
  std::array<uint64_t, 3> NumGroups{1, 1, 1};
  std::array<uint64_t, 3> LocalSize{1, 1, 1};
  uint64_t First = 0;
  uint64_t Count = 0;
  /// Posted: the kernel is queued, no reply comes.
  static constexpr uint32_t Queued = 1;
  uint32_t Flags = 0;
};

/// Sync: the device whose copies to wait for; Load: the device asked of.
struct Sync {
  uint32_t Device = 0;
};

/// Mark, ReleaseMark: the client's number for a mark on a device (not 0).
struct QueueMark {
  uint32_t Device = 0;
  uint64_t Mark = 0;
};

/// Step: a launch's work on a device begins. Its copies in, Runs (as
/// many as Runs) and copies out follow, and a Mark after its last copy
/// out ends it. The times are what the client's plan predicts of the
/// device alone (0: not predicted), its kernels' groups how many of the
/// device's compute units they can fill.
struct Step {
  uint32_t Device = 0;
  uint32_t Runs = 0;
  uint64_t Groups = 0; ///< work-groups over all its Runs
  double InMs = 0, KernelMs = 0, OutMs = 0;
  /// Bit 0 (CopiesOut): copies out follow its Runs; without it the Mark
  /// after its last Run ends it (its results stay on the device).
  uint32_t Flags = CopiesOut;
  static constexpr uint32_t CopiesOut = 1;
};
/// The most Runs one Step announces.
constexpr uint32_t MaxStepRuns = 1u << 20;

/// A request's success: what it made (a module, a kernel, an address).
struct Done {
  uint64_t Value = 0;
  uint32_t Flags = 0; ///< LoadKernel: bit 0, the kernel has a merge kernel
};

/// ReadData: the Read's bytes follow.
struct ReadData {
  uint64_t Bytes = 0;
};

/// The most arguments a Run may carry, and the largest scalar.
constexpr uint32_t MaxArgs = 1024;
constexpr uint32_t MaxScalarBytes = 64u << 10;

Writer encode(const LoadModule &M);
Writer encode(const LoadKernel &M);
Writer encode(const Allocate &M);
Writer encode(const Release &M);
Writer encode(const Transfer &M);
Writer encode(const Run &M);
Writer encode(const Done &M);
Writer encode(const ReadData &M);
Writer encode(const Share &M);
Writer encode(const Unshare &M);
Writer encode(const SharedTransfer &M);
Writer encode(const Sync &M);
Writer encode(const QueueMark &M);
Writer encode(const Step &M);
/// The payload of Heartbeat and Goodbye.
Writer empty();

Result<LoadModule> decodeLoadModule(const Message &M);
Result<LoadKernel> decodeLoadKernel(const Message &M);
Result<Allocate> decodeAllocate(const Message &M);
Result<Release> decodeRelease(const Message &M);
/// A Write or a Read.
Result<Transfer> decodeTransfer(const Message &M);
Result<Run> decodeRun(const Message &M);
Result<Done> decodeDone(const Message &M);
Result<ReadData> decodeReadData(const Message &M);
Result<Share> decodeShare(const Message &M);
Result<Unshare> decodeUnshare(const Message &M);
/// A WriteShared or a ReadShared.
Result<SharedTransfer> decodeSharedTransfer(const Message &M);
/// A Sync or a Load.
Result<Sync> decodeSync(const Message &M);
/// A Mark or a ReleaseMark.
Result<QueueMark> decodeQueueMark(const Message &M);
Result<Step> decodeStep(const Message &M);
/// Heartbeat, Goodbye: checks that the payload is empty.
Status decodeEmpty(const Message &M);

} // namespace skmd::wire

#endif // SKMD_WIRE_REQUESTS_H
