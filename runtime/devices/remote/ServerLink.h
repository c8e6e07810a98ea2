//===- ServerLink.h - A client's session with one skmd-server -----*- C++ -*-===//
//
// Connects (proving the shared secret), reads the server's devices from
// its Welcome, and then carries the requests of every RemoteDevice of that
// server over one connection:
//
//  - call() sends a request and waits for its reply; post() sends one
//    whose failure the server defers to the next call's reply (VOCL's
//    deferred errors: a Write or a Release costs no round trip);
//  - a receiver thread matches replies to requests by id and reads a
//    ReadData's bytes straight into the caller's memory;
//  - a heartbeat thread tells the server this client lives, and the
//    server's heartbeats tell the client the server does. A server that
//    closes the connection or stays silent for SKMD_REMOTE_TIMEOUT_MS
//    (default 10000) is lost: every waiting and later call fails with
//    DeviceFailed naming it, and the launcher re-runs its groups
//    elsewhere (docs/design.md, "Device failures").
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_SERVERLINK_H
#define SKMD_DEVICES_REMOTE_SERVERLINK_H

#include "devices/remote/Connection.h"
#include "wire/Requests.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <set>
#include <thread>

namespace skmd {

struct LinkTimes {
  /// How often each side says it lives (SKMD_REMOTE_HEARTBEAT_MS).
  std::chrono::milliseconds Heartbeat{500};
  /// Silence after which the peer counts as lost (SKMD_REMOTE_TIMEOUT_MS).
  std::chrono::milliseconds Silence{10000};
  static LinkTimes fromEnvironment();
};

class SharedSegment;

class ServerLink : public std::enable_shared_from_this<ServerLink> {
  struct Pending;

public:
  /// Speaks to the server at the other end of \p C: its Challenge, this
  /// client's Hello with the proof of \p Secret, its Welcome.
  static Result<std::shared_ptr<ServerLink>> open(std::unique_ptr<Connection> C,
                                                  const std::string &Secret,
                                                  LinkTimes Times = LinkTimes::fromEnvironment());
  /// Says Goodbye (the server frees what this client held) and closes.
  ~ServerLink();

  const wire::Welcome &welcome() const { return Hi; }
  /// "skmd-server node1, mpi:node1", for messages.
  const std::string &name() const { return Name; }

  /// Sends request \p K with \p Payload and \p DataBytes of data from
  /// \p Data; waits for the reply. A ReadData reply's bytes land in
  /// \p ReadInto, which must take exactly \p ReadBytes. An Error reply is
  /// returned as the error it carries.
  Result<wire::Message> call(wire::Kind K, const wire::Writer &Payload,
                             const void *Data = nullptr, uint64_t DataBytes = 0,
                             void *ReadInto = nullptr, uint64_t ReadBytes = 0);
  /// A request sent whose reply is still to come: several may be in
  /// flight (a staging ring's pieces), each collected with wait().
  class Ticket {
    friend class ServerLink;
    uint64_t Id = 0;
    std::shared_ptr<Pending> P;
  };
  /// Sends request \p K as call() does, without waiting for the reply.
  Ticket begin(wire::Kind K, const wire::Writer &Payload, const void *Data = nullptr,
               uint64_t DataBytes = 0, void *ReadInto = nullptr, uint64_t ReadBytes = 0);
  /// The reply to \p T (as call() returns it); every ticket is waited for
  /// once.
  Result<wire::Message> wait(Ticket &T);

  /// Sends request \p K without waiting for a reply.
  Status post(wire::Kind K, const wire::Writer &Payload, const void *Data = nullptr,
              uint64_t DataBytes = 0);
  /// Success until the server is lost; then why.
  Status alive() const;

  /// Whether this client and the server share a node, so that memory can
  /// be shared (a Unix socket's connection: devices/remote/SharedMemory.h).
  /// SKMD_REMOTE_SHARE=0 keeps every copy on the socket.
  bool sharesMemory() const { return MayShare && Line->passesDescriptors(); }
  /// Makes sure the server maps \p S (sends it once, with a Share).
  Status share(SharedSegment &S);
  /// The server lets segment \p Id go, if it has it (posted).
  void unshare(uint64_t Id);

private:
  ServerLink(std::unique_ptr<Connection> C, LinkTimes Times)
      : Line(std::move(C)), Times(Times) {}
  struct Pending {
    void *ReadInto = nullptr;
    uint64_t ReadBytes = 0;
    bool Answered = false;
    /// The receiver is writing a ReadData's bytes into ReadInto.
    bool Filling = false;
    Result<wire::Message> Reply = wire::Message();
  };
  void receiveLoop();
  void heartbeatLoop();
  /// Marks the server lost for \p Why and fails every waiting call.
  void lose(const std::string &Why);
  /// Hands \p M to the call waiting for it.
  void answer(wire::Message M);
  /// Registers a reply for request \p Id, sends it with \p Send.
  template <typename SendFn> Ticket start(void *ReadInto, uint64_t ReadBytes, SendFn &&Send);

  std::unique_ptr<Connection> Line;
  LinkTimes Times;
  wire::Welcome Hi;
  std::string Name;
  std::atomic<uint64_t> NextRequest{1};

  mutable std::mutex Lock;
  std::condition_variable Changed;
  std::map<uint64_t, std::shared_ptr<Pending>> Waiting;
  /// The segments the server maps.
  std::mutex SharesLock;
  std::set<uint64_t> Shared;
  bool MayShare = true;
  std::string LostWhy;
  bool Stopping = false;

  std::thread Receiver, Heartbeats;
};

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_SERVERLINK_H
