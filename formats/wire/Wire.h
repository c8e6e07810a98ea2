//===- Wire.h - Messages between SKMD clients and skmd-server ----*- C++ -*-===//
//
// What a client (a remote or shared device) and skmd-server say to each
// other, as bytes: the same on every transport (MPI between nodes, a
// socket or shared memory on one node). A message is a 32-byte header and
// a payload:
//
//   offset  size  field
//        0     4  magic "SKMW"
//        4     2  protocol version (Version)
//        6     2  kind (Kind)
//        8     8  request id: the client's count; a reply carries its
//                 request's id
//       16     8  payload bytes (at most MaxPayloadBytes)
//       24     4  CRC-32 of the payload
//       28     4  zero (reserved)
//
// Every integer is little-endian; a float is its IEEE-754 bits; a string
// or byte run is its length (u32) and its bytes. Bulk data (buffers) goes
// in chunks of its own messages, so a payload stays small.
//
// Nothing read is trusted: a reader checks every length against the bytes
// that are left before it takes or allocates anything, a message with
// bytes left over is malformed, and each failure says which field of
// which message was wrong, so that the server can answer a malformed or
// hostile message with an Error message and go on serving.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_WIRE_WIRE_H
#define SKMD_WIRE_WIRE_H

#include "support/Result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace skmd::wire {

constexpr uint32_t Magic = 0x574d4b53; // "SKMW" in memory order
constexpr uint16_t Version = 4;
constexpr size_t HeaderBytes = 32;
/// The most a payload may hold: bulk data travels in chunks well below it.
constexpr uint64_t MaxPayloadBytes = 64ull << 20;
/// Data runs (runtime/devices/remote/Connection.h) travel in pieces of
/// this size, and may be split only at its multiples.
constexpr uint64_t DataChunkBytes = 4ull << 20;
/// The most a string field may hold (names, error messages).
constexpr uint32_t MaxStringBytes = 64u << 10;

enum class Kind : uint16_t {
  /// Client to server, after the Challenge: its name and its proof that it
  /// holds the server's secret.
  Hello = 1,
  /// Server to client: the server's name and the devices it offers.
  Welcome = 2,
  /// Either way: a request failed, or a message was malformed.
  Error = 3,
  /// Server to client, first: a fresh nonce for the client's proof.
  Challenge = 4,
  // The device requests and their replies (wire/Requests.h).
  Done = 5,
  LoadModule = 6,
  LoadKernel = 7,
  Allocate = 8,
  Release = 9,
  Write = 10,
  Read = 11,
  ReadData = 12,
  Run = 13,
  Sync = 14,
  Heartbeat = 15,
  Goodbye = 16,
  // Memory shared between a client and a server on one node (a Unix
  // socket's connection): no byte of a copy crosses the socket.
  Share = 17,
  Unshare = 18,
  WriteShared = 19,
  ReadShared = 20,
  // A device's queued work (DeviceInfo::QueuesWork): a piece's copies,
  // kernel and copies out follow each other on the server with no round
  // trip between them; a mark says when they have run.
  Mark = 21,
  ReleaseMark = 22,
  // How busy a device is with the server's other clients (a shared GPU).
  Load = 23,
  // A launch's work on a device begins: what the client's plan predicts
  // of it, for a server that gathers its clients' steps (issue 25).
  Step = 24,
};

/// The kind's name, for messages ("Hello"), or null for an unknown kind.
const char *kindName(Kind K);

struct Header {
  uint16_t ProtocolVersion = Version;
  Kind What = Kind::Error;
  uint64_t Request = 0;
  uint64_t PayloadBytes = 0;
  uint32_t PayloadCrc = 0;
};

/// \p H as its 32 bytes.
void encodeHeader(const Header &H, uint8_t (&Out)[HeaderBytes]);
/// The header in \p Data: its magic, version, kind and payload size
/// checked (the payload's CRC is checked with the payload).
Result<Header> decodeHeader(const uint8_t *Data, size_t Size);

/// A payload being written.
class Writer {
public:
  void u8(uint8_t V) { Bytes.push_back(V); }
  void u16(uint16_t V) { put(V, 2); }
  void u32(uint32_t V) { put(V, 4); }
  void u64(uint64_t V) { put(V, 8); }
  void f64(double V);
  /// A length (u32) and the bytes; at most MaxStringBytes.
  void str(const std::string &S);
  /// \p N bytes as they are (a field of fixed size: nonces, proofs).
  void raw(const uint8_t *Data, size_t N) { Bytes.insert(Bytes.end(), Data, Data + N); }
  const std::vector<uint8_t> &bytes() const { return Bytes; }

private:
  void put(uint64_t V, unsigned N);
  std::vector<uint8_t> Bytes;
};

/// A payload being read, field by field. The first field that does not
/// fit fails the reader; every read after that returns zeros, and
/// finish() says what failed.
class Reader {
public:
  Reader(const uint8_t *Data, size_t Size, std::string Message)
      : At(Data), Left(Size), What(std::move(Message)) {}
  uint8_t u8(const char *Field);
  uint16_t u16(const char *Field) { return uint16_t(get(Field, 2)); }
  uint32_t u32(const char *Field) { return uint32_t(get(Field, 4)); }
  uint64_t u64(const char *Field) { return get(Field, 8); }
  double f64(const char *Field);
  std::string str(const char *Field);
  /// \p N bytes into \p Out (zeros when they do not fit).
  void raw(const char *Field, uint8_t *Out, size_t N);
  /// A count of elements that take at least \p MinBytes each, at most
  /// \p Max: never more than the bytes left could hold.
  uint32_t count(const char *Field, size_t MinBytes, uint32_t Max);
  bool ok() const { return Error.empty(); }
  /// Success when every field fit and no byte is left over.
  Status finish();

private:
  uint64_t get(const char *Field, unsigned N);
  bool take(const char *Field, size_t N);
  const uint8_t *At;
  size_t Left;
  std::string What;
  std::string Error;
};

/// A whole message: its header and payload.
struct Message {
  Header H;
  std::vector<uint8_t> Payload;
};

/// The bytes of a message of kind \p K answering or making request
/// \p Request with \p Payload.
std::vector<uint8_t> frame(Kind K, uint64_t Request, const Writer &Payload);
/// The message in \p Data (exactly one: header and payload), its payload's
/// CRC checked.
Result<Message> parse(const uint8_t *Data, size_t Size);

/// An InvalidArgument failure "malformed message: <Text>".
Failure malformed(const std::string &Text);
/// A reader of \p M's payload, if \p M is of kind \p K.
Result<Reader> payloadOf(const Message &M, Kind K);

// The messages.

/// One device a server offers: what a client's device needs to know of it
/// (runtime/devices/Device.h's DeviceInfo).
struct DeviceOffer {
  std::string Name;        ///< as the server names it: cpu, gpu0, discrete1
  std::string Description; ///< "NVIDIA H100 80GB HBM3"
  uint8_t Variant = 0;     ///< the bundle variant it runs (TargetKind)
  uint32_t ComputeUnits = 0;
  uint32_t LanesPerUnit = 1;
  uint64_t MemoryBytes = 0;
  /// Its buffers are handles, not addresses (DeviceInfo::BuffersAreHandles).
  bool BuffersAreHandles = false;
  /// Its link to the server's host memory, GB/s (0: not measured).
  double LinkGBps = 0;
};

/// Nonces and proofs: 32 bytes (HMAC-SHA256, runtime/devices/remote/Secret.h).
constexpr size_t TokenBytes = 32;
using Token = std::array<uint8_t, TokenBytes>;

struct Challenge {
  Token Nonce{};
};

struct Hello {
  std::string Client; ///< for the server's log: host and process
  Token Proof{};      ///< of the secret, for this Challenge's nonce
};

struct Welcome {
  std::string Server;
  std::vector<DeviceOffer> Devices;
};

struct ErrorReply {
  ErrorCode Code = ErrorCode::InvalidArgument;
  std::string Text;
};

Writer encode(const Challenge &M);
Writer encode(const Hello &M);
Writer encode(const Welcome &M);
Writer encode(const ErrorReply &M);
Result<Challenge> decodeChallenge(const Message &M);
Result<Hello> decodeHello(const Message &M);
Result<Welcome> decodeWelcome(const Message &M);
Result<ErrorReply> decodeError(const Message &M);

/// The most devices a Welcome may list.
constexpr uint32_t MaxDevices = 1024;

} // namespace skmd::wire

#endif // SKMD_WIRE_WIRE_H
