//===- Connection.h - A client's line to skmd-server --------------*- C++ -*-===//
//
// One connection between a client and a server, whatever carries it: a
// Unix socket on one node (unix:PATH), Open MPI between nodes (mpi:NAME,
// through the libskmd-mpi plugin). Both ends see two channels:
//
//  - the control channel carries wire messages (formats/wire), in order;
//  - the data channel carries the bulk bytes a message announces (a
//    bundle, a Write's rows, a ReadData's), right after that message.
//
// Data runs travel in pieces of wire::DataChunkBytes: a sender and a
// receiver may split a run differently, but only at multiples of it (MPI
// receives a message whole, so both ends must agree where one ends).
//
// A connection never waits forever: every wait has a limit, and a peer
// that closed, broke the stream or went silent fails the call with
// DeviceFailed, naming the peer.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_CONNECTION_H
#define SKMD_DEVICES_REMOTE_CONNECTION_H

#include "support/Result.h"
#include "wire/Wire.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace skmd {

class Connection {
public:
  virtual ~Connection() = default;

  /// Who is at the other end, for messages: "unix:/run/skmd.sock".
  virtual std::string peer() const = 0;

  /// Sends one message (wire::frame's bytes) and then \p DataBytes from
  /// \p Data on the data channel, as one unit no other thread's send
  /// splits. Returns once the bytes are handed to the transport.
  Status send(const std::vector<uint8_t> &Frame, const void *Data = nullptr,
              uint64_t DataBytes = 0);

  /// A message and its data sent piece by piece (a server's copy out,
  /// chunk after chunk): sending() holds the connection while they go.
  std::unique_lock<std::mutex> sending() { return std::unique_lock<std::mutex>(SendLock); }
  virtual Status sendFrame(const std::vector<uint8_t> &Frame) = 0;
  /// A piece of a data run: every piece but a run's last is a multiple of
  /// wire::DataChunkBytes.
  virtual Status sendData(const void *Data, uint64_t Bytes) = 0;

  /// The next message, or none when \p Wait passed first. A payload that
  /// fails its checks is an InvalidArgument error and the connection goes
  /// on; a broken stream (a header that is not SKMD's, the peer gone) is
  /// DeviceFailed and every later call fails too.
  virtual Result<std::optional<wire::Message>> receive(std::chrono::milliseconds Wait) = 0;
  /// \p Bytes of the data run that follows the last message, into \p Into
  /// (a piece of it: the same multiples as sendData). Fails when no byte
  /// came for \p Wait.
  virtual Status receiveData(void *Into, uint64_t Bytes, std::chrono::milliseconds Wait) = 0;

  /// Whether a descriptor travels on this connection (a Unix socket's:
  /// client and server share a node, and may share memory).
  virtual bool passesDescriptors() const { return false; }
  /// Sends \p Frame and then the descriptor \p Fd as its data (one byte
  /// that carries it), as one unit no other thread's send splits.
  Status sendWithDescriptor(const std::vector<uint8_t> &Frame, int Fd);
  /// The descriptor that follows the last message, which the caller then
  /// owns. A message that came without one is an InvalidArgument error,
  /// and the connection goes on.
  virtual Result<int> receiveDescriptor(std::chrono::milliseconds Wait);

  /// Ends every wait, now and later; the peer sees the connection close.
  virtual void close() = 0;

  /// How long a send may go without progress before the peer counts as
  /// lost (the link's silence limit, LinkTimes::Silence).
  void setPatience(std::chrono::milliseconds P) { PatienceMs = P.count(); }
  std::chrono::milliseconds patience() const { return std::chrono::milliseconds(PatienceMs); }

protected:
  virtual Status sendDescriptor(int Fd);
  /// Success while open; once closed, DeviceFailed naming the peer and why.
  Status broken() const;
  /// Closes for \p Why (the first reason is kept) and returns the failure.
  Failure breakWith(const std::string &Why);
  /// Set by close(): every call fails from then on.
  std::atomic<bool> Closed{false};

private:
  mutable std::mutex WhyLock;
  std::string Why;
  std::mutex SendLock;
  std::atomic<std::chrono::milliseconds::rep> PatienceMs{60000};
};

/// Where a server is reached, parsed: "unix:/path", "mpi:name".
struct ServerAddress {
  enum Scheme { Unix, Mpi } Kind = Unix;
  std::string Where; ///< the path, or the published name
  std::string text() const;
};
Result<ServerAddress> parseServerAddress(const std::string &Text);
/// Where this node's own skmd-server listens unless told otherwise, and
/// where `shared` devices look for it: unix:$XDG_RUNTIME_DIR/
/// skmd-server.sock, or unix:/tmp/skmd-server-<uid>.sock.
std::string localServerAddress();

/// A server's end: clients arrive through accept().
class Listener {
public:
  virtual ~Listener() = default;
  virtual std::string address() const = 0;
  /// The next client's connection, or none when \p Wait passed first or
  /// stop() was called.
  virtual Result<std::unique_ptr<Connection>> accept(std::chrono::milliseconds Wait) = 0;
  /// Stops listening; accept returns at once from now on.
  virtual void stop() = 0;
};

/// Connects to the server at \p Address, giving up after \p Wait.
Result<std::unique_ptr<Connection>> connectTo(const ServerAddress &Address,
                                              std::chrono::milliseconds Wait);
/// Listens at \p Address (a Unix socket's path must not exist, or be a
/// socket nobody listens on any more).
Result<std::unique_ptr<Listener>> listenAt(const ServerAddress &Address);

/// What the MPI plugin (libskmd-mpi.so) gives libskmd: the same two calls
/// over Open MPI. Loaded on first use, so that libskmd needs no MPI.
struct MpiTransport {
  virtual ~MpiTransport() = default;
  virtual Result<std::unique_ptr<Connection>> connect(const std::string &Name,
                                                      std::chrono::milliseconds Wait) = 0;
  virtual Result<std::unique_ptr<Listener>> listen(const std::string &Name) = 0;
};

} // namespace skmd

/// The plugin's one entry point: the transport, or null and why not.
extern "C" skmd::MpiTransport *skmd_mpi_transport_v1(std::string *Why);

#endif // SKMD_DEVICES_REMOTE_CONNECTION_H
