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
#include <thread>

namespace skmd {

struct LinkTimes {
  /// How often each side says it lives (SKMD_REMOTE_HEARTBEAT_MS).
  std::chrono::milliseconds Heartbeat{500};
  /// Silence after which the peer counts as lost (SKMD_REMOTE_TIMEOUT_MS).
  std::chrono::milliseconds Silence{10000};
  static LinkTimes fromEnvironment();
};

class ServerLink {
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
  /// Sends request \p K without waiting for a reply.
  Status post(wire::Kind K, const wire::Writer &Payload, const void *Data = nullptr,
              uint64_t DataBytes = 0);
  /// Success until the server is lost; then why.
  Status alive() const;

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

  std::unique_ptr<Connection> Line;
  LinkTimes Times;
  wire::Welcome Hi;
  std::string Name;
  std::atomic<uint64_t> NextRequest{1};

  mutable std::mutex Lock;
  std::condition_variable Changed;
  std::map<uint64_t, Pending *> Waiting;
  std::string LostWhy;
  bool Stopping = false;

  std::thread Receiver, Heartbeats;
};

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_SERVERLINK_H
