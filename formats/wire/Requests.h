//===- Requests.h - What a client asks of a server's devices -----*- C++ -*-===//
//
// The device requests a remote or shared device sends skmd-server, and
// their replies: one message per device call (runtime/devices/Device.h),
// each naming the server's device by its index in the Welcome.
//
//   LoadModule  -> Done(module)  or Error NotFound: send the bundle's bytes
//   LoadKernel  -> Done(kernel, merge flag)
//   Allocate    -> Done(address)
//   Release, Write          no reply: a failure is deferred to the next Sync
//   Read        -> ReadData and the bytes
//   Run         -> Done
//   Sync        -> Done, or the first deferred failure since the last Sync
//   Heartbeat   either way, no reply: the peer is alive
//   Goodbye     the client leaves; the server frees what it held
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

/// A kernel argument as the device takes it (DeviceArg).
struct Arg {
  enum Kind : uint8_t { Buffer = 0, Scalar = 1, Local = 2 } K = Scalar;
  uint64_t Address = 0;         ///< Buffer
  std::vector<uint8_t> Bytes;   ///< Scalar
  uint64_t LocalBytes = 0;      ///< Local
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
};

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
/// The payload of Sync, Heartbeat and Goodbye.
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
/// Sync, Heartbeat, Goodbye: checks that the payload is empty.
Status decodeEmpty(const Message &M);

} // namespace skmd::wire

#endif // SKMD_WIRE_REQUESTS_H
