//===- Server.h - skmd-server: a node's devices for other processes -*- C++ -*-===//
//
// The server owns its node's devices (opened as any SKMD process opens
// them) and serves clients, each on a thread of its own, over any
// Connection. A client proves the shared secret, learns the devices from
// the Welcome, and then sends device requests (formats/wire/Requests.h),
// which the server runs in order on the device named: through a handle
// of the client's own on it (Device::share, its own streams) where the
// device has one, so that clients' work runs at once.
//
// What a client holds (allocations, kernels, modules) is its own: its
// requests may only touch its own allocations, and when it says Goodbye,
// closes, dies or stays silent for the link's timeout, the server frees
// everything it held and goes on serving the others. Bundles are cached
// by hash across clients, each device's loaded module with them.
//
// A client on the same node may share memory with the server (a Unix
// socket passes the segment's descriptor); the server maps it, page-locks
// it for its devices, and copies between it and device memory directly.
// A client may name only its own segments, and only bytes inside them.
//
// A malformed message gets an Error reply; one whose data the server
// cannot skip (its length unknown) also ends that client's connection.
// Nothing a client sends crashes the server.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TOOLS_SKMD_SERVER_SERVER_H
#define SKMD_TOOLS_SKMD_SERVER_SERVER_H

#include "bundle/Bundle.h"
#include "devices/Device.h"
#include "devices/remote/Connection.h"
#include "devices/remote/ServerLink.h"
#include "StepBatcher.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <thread>

namespace skmd {

struct ServerOptions {
  /// How clients name it; its devices are "<Name>.<device>" to them.
  std::string Name = "server";
  std::string Secret;
  LinkTimes Times;
  /// The most memory one client may share with the server (wire::Share),
  /// which the server page-locks for its GPUs; 0: half the node's memory.
  uint64_t MaxSharedBytes = 0;
  /// listen() returns once every client that came has left (a server
  /// started in an application's mpirun ends with its job).
  bool StopWhenIdle = false;
  /// A line per client arriving and leaving, and per failed request.
  std::function<void(const std::string &)> Log;
  /// Whether and how clients' steps on a device are gathered into batches
  /// and issued in one order (StepBatcher.h); off: each client's work goes
  /// to its streams as it comes.
  GatherOptions Gather;
  /// Gets each batch as it ran (--explain): "gpu0 batch 3: ...".
  std::function<void(const std::string &)> Explain;
};

class Server {
public:
  Server(std::vector<std::unique_ptr<Device>> Devices, ServerOptions Options);
  ~Server();

  const wire::Welcome &welcome() const { return Hi; }

  /// Serves the client at the other end of \p C until it leaves, breaks
  /// the protocol beyond repair, or is lost; frees what it held. Returns
  /// why the connection ended (success for a Goodbye).
  Status serve(std::unique_ptr<Connection> C);

  /// Accepts clients from \p L, serving each on its own thread, until
  /// stop(); then closes every client's connection and waits for them.
  Status listen(Listener &L);
  /// Ends listen() (from a signal handler's thread, or a test).
  void stop() { Stopping = true; }

  /// Clients being served now.
  size_t clients() const;
  /// Allocations clients hold now, on all devices.
  size_t allocations() const { return Held; }
  /// Segments clients share with it now.
  size_t sharedSegments() const { return SharedHeld; }

private:
  friend class ClientSession;
  struct Slot {
    std::unique_ptr<Device> D;
    /// One client's call at a time on a device.
    std::mutex Lock;
    /// Modules loaded on it, by bundle hash (under Lock).
    std::map<wire::Token, std::shared_ptr<DeviceModule>> Modules;
    /// When each client last copied or ran on it (its load, wire::Load).
    std::mutex UsersLock;
    std::map<const void *, std::chrono::steady_clock::time_point> LastUse;
    /// Where clients' steps are gathered (ServerOptions::Gather), or null.
    std::unique_ptr<StepBatcher> Batcher;
  };
  /// The bundle with \p Hash, if a client sent it before.
  std::shared_ptr<const Bundle> bundle(const wire::Token &Hash);
  void keepBundle(const wire::Token &Hash, std::shared_ptr<const Bundle> B);
  void log(const std::string &Line) const;

  std::vector<std::unique_ptr<Slot>> Devices;
  ServerOptions Options;
  wire::Welcome Hi;
  std::mutex BundlesLock;
  std::map<wire::Token, std::shared_ptr<const Bundle>> Bundles;
  std::atomic<bool> Stopping{false};
  std::atomic<size_t> Held{0};
  std::atomic<size_t> SharedHeld{0};

  mutable std::mutex ClientsLock;
  /// The connections being served, to close at stop().
  std::list<Connection *> Open;
};

} // namespace skmd

#endif // SKMD_TOOLS_SKMD_SERVER_SERVER_H
