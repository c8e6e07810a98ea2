//===- MpiTransport.cpp - Connections over Open MPI (libskmd-mpi.so) ------===//
//
// mpi:NAME: skmd-server opens an MPI port and publishes it as NAME through
// ompi-server; a client looks NAME up and connects. Each connection is two
// communicators over the same pair of processes: the control channel (wire
// messages, received whole with MPI_Mprobe) and the data channel (data runs
// in wire::DataChunkBytes messages, many in flight at once, so a run
// pipelines through MPI's own protocol).
//
// Open MPI does not report a peer that dies (a receive simply never
// completes), so every wait here is polled against a limit and the
// heartbeats of ServerLink and skmd-server tell a silent peer from a busy
// one. MPI calls that cannot be bounded (connecting to a port nobody
// accepts on any more) run on a thread of their own and are abandoned at
// the limit.
//
// In one mpirun (MPMD: `mpirun -np 4 app : -np 1 skmd-server
// --listen=mpi:world`), no ompi-server is needed: a client names the
// server's rank (mpi:rank:4), asks it for its port with one message on
// MPI_COMM_WORLD (tags PortRequestTag and PortReplyTag, which SKMD keeps
// for itself), and connects to that port; everything after goes on the
// connection's own communicators, apart from the application's traffic.
//
// This file is the only one that includes mpi.h: libskmd loads it with
// dlopen when a device list names mpi:, so that SKMD builds and runs
// without MPI (runtime/devices/remote/Connection.cpp).
//
//===----------------------------------------------------------------------===//
#include "devices/remote/Connection.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <thread>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

std::string mpiError(int Code) {
  char Text[MPI_MAX_ERROR_STRING];
  int Length = 0;
  if (MPI_Error_string(Code, Text, &Length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(Code);
  return std::string(Text, size_t(Length));
}

/// Polls \p Done until it says true, sleeping a little longer each time
/// (a few microseconds at first, so that replies arrive quickly, at most
/// a millisecond); false when \p Wait passed first.
template <typename Fn> bool pollUntil(Fn &&Done, std::chrono::milliseconds Wait) {
  auto Until = Clock::now() + Wait;
  auto Nap = std::chrono::microseconds(5);
  for (;;) {
    if (Done())
      return true;
    if (Clock::now() >= Until)
      return false;
    std::this_thread::sleep_for(Nap);
    Nap = std::min(Nap * 2, std::chrono::microseconds(1000));
  }
}

class MpiConnection final : public Connection {
public:
  MpiConnection(MPI_Comm Control, MPI_Comm Data, std::string Peer)
      : Control(Control), Data(Data), Peer(std::move(Peer)) {}
  ~MpiConnection() override { close(); }

  std::string peer() const override { return Peer; }

  Status sendFrame(const std::vector<uint8_t> &Frame) override {
    if (Status S = broken(); !S)
      return S;
    MPI_Request R;
    int E = MPI_Isend(Frame.data(), int(Frame.size()), MPI_BYTE, 0, 0, Control, &R);
    if (E != MPI_SUCCESS)
      return breakWith("MPI_Isend: " + mpiError(E));
    return complete(&R, 1, patience(), "a message");
  }

  Status sendData(const void *Bytes, uint64_t Size) override {
    if (Status S = broken(); !S)
      return S;
    std::vector<MPI_Request> Rs;
    const char *P = static_cast<const char *>(Bytes);
    for (uint64_t At = 0; At < Size; At += wire::DataChunkBytes) {
      int N = int(std::min<uint64_t>(Size - At, wire::DataChunkBytes));
      Rs.emplace_back();
      int E = MPI_Isend(P + At, N, MPI_BYTE, 0, 0, Data, &Rs.back());
      if (E != MPI_SUCCESS)
        return breakWith("MPI_Isend: " + mpiError(E));
    }
    return complete(Rs.data(), int(Rs.size()), patience(), "data");
  }

  Result<std::optional<wire::Message>> receive(std::chrono::milliseconds Wait) override {
    if (Status S = broken(); !S)
      return S.error();
    MPI_Message M;
    MPI_Status St;
    int Found = 0, E = MPI_SUCCESS;
    pollUntil(
        [&] {
          E = MPI_Improbe(0, 0, Control, &Found, &M, &St);
          return E != MPI_SUCCESS || Found || Closed;
        },
        Wait);
    if (E != MPI_SUCCESS)
      return breakWith("MPI_Improbe: " + mpiError(E));
    if (Closed)
      return broken().error();
    if (!Found)
      return std::optional<wire::Message>();
    int Count = 0;
    MPI_Get_count(&St, MPI_BYTE, &Count);
    // A message is received whole; its size is checked before its bytes
    // are taken, so that a hostile size allocates nothing.
    if (Count < 0 || uint64_t(Count) > wire::HeaderBytes + wire::MaxPayloadBytes) {
      char Byte;
      MPI_Mrecv(&Byte, 0, MPI_BYTE, &M, MPI_STATUS_IGNORE);
      return Failure(ErrorCode::InvalidArgument,
                     "malformed message: " + std::to_string(Count) + " bytes in one message");
    }
    std::vector<uint8_t> Bytes(static_cast<size_t>(Count));
    E = MPI_Mrecv(Bytes.data(), Count, MPI_BYTE, &M, MPI_STATUS_IGNORE);
    if (E != MPI_SUCCESS)
      return breakWith("MPI_Mrecv: " + mpiError(E));
    auto Parsed = wire::parse(Bytes.data(), Bytes.size());
    if (!Parsed)
      return Parsed.error(); // Messages are whole: the next one is intact.
    return std::optional<wire::Message>(std::move(*Parsed));
  }

  Status receiveData(void *Into, uint64_t Size, std::chrono::milliseconds Wait) override {
    if (Status S = broken(); !S)
      return S;
    std::vector<MPI_Request> Rs;
    char *P = static_cast<char *>(Into);
    for (uint64_t At = 0; At < Size; At += wire::DataChunkBytes) {
      int N = int(std::min<uint64_t>(Size - At, wire::DataChunkBytes));
      Rs.emplace_back();
      int E = MPI_Irecv(P + At, N, MPI_BYTE, 0, 0, Data, &Rs.back());
      if (E != MPI_SUCCESS)
        return breakWith("MPI_Irecv: " + mpiError(E));
    }
    return complete(Rs.data(), int(Rs.size()), Wait, "data");
  }

  void close() override { Closed = true; }

private:
  /// Waits for \p Rs while each wait makes progress within \p Wait; a
  /// peer that takes or sends nothing for that long breaks the connection
  /// (the requests are abandoned: MPI cannot take them back from a dead
  /// peer).
  Status complete(MPI_Request *Rs, int N, std::chrono::milliseconds Wait, const char *What) {
    int Left = N;
    while (Left) {
      int Done = 0, E = MPI_SUCCESS;
      bool Moved = pollUntil(
          [&] {
            E = MPI_Testsome(N, Rs, &Done, Indices(N), MPI_STATUSES_IGNORE);
            return E != MPI_SUCCESS || (Done != MPI_UNDEFINED && Done > 0) || Closed;
          },
          Wait);
      if (E != MPI_SUCCESS)
        return breakWith(std::string("MPI_Testsome: ") + mpiError(E));
      if (Closed)
        return broken();
      if (!Moved)
        return breakWith(std::string("no progress on ") + What + " for " +
                         std::to_string(Wait.count()) + " ms");
      Left -= Done;
    }
    return Status::success();
  }

  int *Indices(int N) {
    if (int(Scratch.size()) < N)
      Scratch.resize(size_t(N));
    return Scratch.data();
  }

  MPI_Comm Control, Data;
  std::string Peer;
  std::vector<int> Scratch;
};

/// A connection's two communicators from the intercommunicator that
/// MPI_Comm_connect or MPI_Comm_accept gave (both ends call this in the
/// same order: MPI_Comm_dup is collective).
Result<std::unique_ptr<Connection>> fromIntercomm(MPI_Comm Inter, std::string Peer) {
  MPI_Comm_set_errhandler(Inter, MPI_ERRORS_RETURN);
  MPI_Comm Data;
  int E = MPI_Comm_dup(Inter, &Data);
  if (E != MPI_SUCCESS)
    return Failure(ErrorCode::DeviceFailed, Peer + ": MPI_Comm_dup: " + mpiError(E));
  MPI_Comm_set_errhandler(Data, MPI_ERRORS_RETURN);
  return std::unique_ptr<Connection>(std::make_unique<MpiConnection>(Inter, Data, Peer));
}

/// The tags SKMD's port exchange takes on MPI_COMM_WORLD.
constexpr int PortRequestTag = 0x534b4d;     // "SKM"
constexpr int PortReplyTag = 0x534b4d + 1;

/// MPI_Comm_connect or MPI_Comm_accept (\p Connect) on \p Port, bounded
/// by \p Wait: neither can be interrupted, so the call runs on a thread of
/// its own that is abandoned at the limit.
Result<MPI_Comm> joinPort(const std::string &Port, bool Connect, std::chrono::milliseconds Wait,
                          const std::string &What) {
  auto Task = std::make_shared<std::packaged_task<std::pair<int, MPI_Comm>()>>([Port, Connect] {
    MPI_Comm Inter = MPI_COMM_NULL;
    int E = Connect ? MPI_Comm_connect(Port.c_str(), MPI_INFO_NULL, 0, MPI_COMM_SELF, &Inter)
                    : MPI_Comm_accept(Port.c_str(), MPI_INFO_NULL, 0, MPI_COMM_SELF, &Inter);
    return std::make_pair(E, Inter);
  });
  auto Future = Task->get_future();
  std::thread([Task] { (*Task)(); }).detach();
  if (Future.wait_for(Wait) != std::future_status::ready)
    return Failure(ErrorCode::NoDevice,
                   What + " did not complete within " + std::to_string(Wait.count()) + " ms");
  auto [E, Inter] = Future.get();
  if (E != MPI_SUCCESS)
    return Failure(ErrorCode::NoDevice, What + ": " + mpiError(E));
  return Inter;
}

/// mpi:world: answers the port requests of the other ranks of this job,
/// then accepts the one that asked.
class WorldListener final : public Listener {
public:
  explicit WorldListener(std::string Port) : Port(std::move(Port)) {
    MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  }
  ~WorldListener() override { stop(); }
  std::string address() const override {
    return "mpi:world (rank " + std::to_string(Rank) + "; clients name mpi:rank:" +
           std::to_string(Rank) + ")";
  }

  Result<std::unique_ptr<Connection>> accept(std::chrono::milliseconds Wait) override {
    MPI_Message M;
    MPI_Status St;
    int Found = 0, E = MPI_SUCCESS;
    pollUntil(
        [&] {
          E = MPI_Improbe(MPI_ANY_SOURCE, PortRequestTag, MPI_COMM_WORLD, &Found, &M, &St);
          return E != MPI_SUCCESS || Found || Stopped;
        },
        Wait);
    if (E != MPI_SUCCESS)
      return Failure(ErrorCode::IOError, "MPI_Improbe: " + mpiError(E));
    if (!Found || Stopped)
      return std::unique_ptr<Connection>();
    char Byte;
    MPI_Mrecv(&Byte, 0, MPI_BYTE, &M, MPI_STATUS_IGNORE);
    int Client = St.MPI_SOURCE;
    std::string Who = "rank " + std::to_string(Client);
    MPI_Request R;
    MPI_Isend(Port.c_str(), int(Port.size() + 1), MPI_CHAR, Client, PortReplyTag, MPI_COMM_WORLD,
              &R);
    int Sent = 0;
    if (!pollUntil([&] { return MPI_Test(&R, &Sent, MPI_STATUS_IGNORE) != MPI_SUCCESS || Sent; },
                   std::chrono::milliseconds(10000)))
      return Failure(ErrorCode::IOError, Who + " asked for the port and took no reply");
    auto Inter = joinPort(Port, false, std::chrono::milliseconds(10000),
                          "accepting " + Who);
    if (!Inter)
      return Inter.error();
    return fromIntercomm(*Inter, "client " + Who);
  }

  void stop() override {
    if (!Stopped.exchange(true))
      MPI_Close_port(Port.c_str());
  }

private:
  std::string Port;
  int Rank = 0;
  std::atomic<bool> Stopped{false};
};

const char *OmpiServerHint =
    "skmd-server --listen=mpi:NAME and its clients find each other through ompi-server: "
    "start `ompi-server --report-uri FILE` and set OMPI_MCA_pmix_server_uri=file:FILE for "
    "both";

class MpiListener final : public Listener {
public:
  MpiListener(std::string Name, std::string Port) : Name(std::move(Name)), Port(std::move(Port)) {
    Acceptor = std::thread([this] { acceptLoop(); });
  }
  /// MPI_Comm_accept cannot be interrupted (connecting to one's own port
  /// to end it deadlocks in Open MPI 4): the thread waiting in it is left
  /// to the process's end, and skmd-server ends without MPI_Finalize.
  ~MpiListener() override {
    stop();
    Acceptor.detach();
  }
  std::string address() const override { return "mpi:" + Name; }

  Result<std::unique_ptr<Connection>> accept(std::chrono::milliseconds Wait) override {
    std::unique_lock<std::mutex> G(Lock);
    Arrived.wait_for(G, Wait, [&] { return !Ready.empty() || Stopped; });
    if (Ready.empty())
      return std::unique_ptr<Connection>();
    MPI_Comm Inter = Ready.front();
    Ready.pop_front();
    G.unlock();
    return fromIntercomm(Inter, "client on mpi:" + Name);
  }

  void stop() override {
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Stopped)
        return;
      Stopped = true;
    }
    Arrived.notify_all();
    // New clients no longer find it.
    MPI_Unpublish_name(Name.c_str(), MPI_INFO_NULL, Port.c_str());
  }

private:
  void acceptLoop() {
    for (;;) {
      MPI_Comm Inter;
      int E = MPI_Comm_accept(Port.c_str(), MPI_INFO_NULL, 0, MPI_COMM_SELF, &Inter);
      std::lock_guard<std::mutex> G(Lock);
      if (Stopped)
        return; // A client that came at the end finds no one.
      if (E == MPI_SUCCESS) {
        Ready.push_back(Inter);
        Arrived.notify_all();
      }
    }
  }

  std::string Name, Port;
  std::thread Acceptor;
  std::mutex Lock;
  std::condition_variable Arrived;
  std::deque<MPI_Comm> Ready;
  bool Stopped = false;
};

class OpenMpi final : public MpiTransport {
public:
  Status start() {
    int Already = 0;
    MPI_Initialized(&Already);
    int Provided = 0;
    if (Already) {
      MPI_Query_thread(&Provided);
    } else {
      // Open MPI's TCP transport writes to a dead peer's socket without
      // MSG_NOSIGNAL: a lost server must fail its devices, not end the
      // client by SIGPIPE. Only where the program left SIGPIPE as it was.
      struct sigaction Old;
      if (sigaction(SIGPIPE, nullptr, &Old) == 0 && Old.sa_handler == SIG_DFL)
        std::signal(SIGPIPE, SIG_IGN);
      if (int E = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &Provided);
          E != MPI_SUCCESS)
        return Failure(ErrorCode::NoDevice, "MPI_Init_thread: " + mpiError(E));
      Owned = true;
    }
    if (Provided < MPI_THREAD_MULTIPLE)
      return Failure(ErrorCode::NoDevice,
                     "remote devices over MPI need MPI_THREAD_MULTIPLE; this MPI gives " +
                         std::to_string(Provided) +
                         (Already ? " (the program called MPI_Init itself: call "
                                    "MPI_Init_thread with MPI_THREAD_MULTIPLE)"
                                  : ""));
    // Failures are ours to report, not MPI's to abort on.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    return Status::success();
  }

  ~OpenMpi() override {
    if (!Owned)
      return;
    int Finalized = 0;
    MPI_Finalized(&Finalized);
    if (!Finalized)
      MPI_Finalize();
  }

  Result<std::unique_ptr<Connection>> connect(const std::string &Name,
                                              std::chrono::milliseconds Wait) override {
    if (Name.rfind("rank:", 0) == 0)
      return connectRank(Name, Wait);
    char Port[MPI_MAX_PORT_NAME] = {0};
    if (int E = MPI_Lookup_name(Name.c_str(), MPI_INFO_NULL, Port); E != MPI_SUCCESS)
      return Failure(ErrorCode::NoDevice, "no skmd-server published as '" + Name +
                                              "' (" + mpiError(E) + "): " + OmpiServerHint);
    // MPI_Comm_connect waits as long as nobody accepts: bounded.
    auto Inter = joinPort(Port, true, Wait, "connecting to skmd-server '" + Name + "'");
    if (!Inter)
      return Inter.error();
    return fromIntercomm(*Inter, "mpi:" + Name);
  }

  /// mpi:rank:N: a server in this job's MPI_COMM_WORLD (MPMD).
  Result<std::unique_ptr<Connection>> connectRank(const std::string &Name,
                                                  std::chrono::milliseconds Wait) {
    int Size = 0, Me = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &Size);
    MPI_Comm_rank(MPI_COMM_WORLD, &Me);
    char *End = nullptr;
    long Rank = std::strtol(Name.c_str() + 5, &End, 10);
    if (End == Name.c_str() + 5 || *End || Rank < 0 || Rank >= Size || Rank == Me)
      return Failure(ErrorCode::InvalidArgument,
                     "mpi:" + Name + ": no other rank of this job (it has " +
                         std::to_string(Size) + " ranks; this is rank " + std::to_string(Me) +
                         "): start skmd-server in the same mpirun (MPMD, --listen=mpi:world)");
    std::string Who = "skmd-server at rank " + std::to_string(Rank);
    char Byte = 0;
    if (int E = MPI_Send(&Byte, 0, MPI_BYTE, int(Rank), PortRequestTag, MPI_COMM_WORLD);
        E != MPI_SUCCESS)
      return Failure(ErrorCode::NoDevice, Who + ": " + mpiError(E));
    MPI_Message M;
    MPI_Status St;
    int Found = 0;
    if (!pollUntil(
            [&] {
              return MPI_Improbe(int(Rank), PortReplyTag, MPI_COMM_WORLD, &Found, &M, &St) !=
                         MPI_SUCCESS ||
                     Found;
            },
            Wait) ||
        !Found)
      return Failure(ErrorCode::NoDevice,
                     Who + " gave no port within " + std::to_string(Wait.count()) +
                         " ms: is it skmd-server --listen=mpi:world?");
    int Count = 0;
    MPI_Get_count(&St, MPI_CHAR, &Count);
    if (Count <= 0 || Count > MPI_MAX_PORT_NAME) {
      MPI_Mrecv(&Byte, 0, MPI_CHAR, &M, MPI_STATUS_IGNORE);
      return Failure(ErrorCode::NoDevice, Who + " answered with no port");
    }
    std::string Port(size_t(Count), '\0');
    MPI_Mrecv(Port.data(), Count, MPI_CHAR, &M, MPI_STATUS_IGNORE);
    Port.resize(std::strlen(Port.c_str()));
    auto Inter = joinPort(Port, true, Wait, "connecting to " + Who);
    if (!Inter)
      return Inter.error();
    return fromIntercomm(*Inter, "mpi:" + Name);
  }

  Result<std::unique_ptr<Listener>> listen(const std::string &Name) override {
    char Port[MPI_MAX_PORT_NAME] = {0};
    if (int E = MPI_Open_port(MPI_INFO_NULL, Port); E != MPI_SUCCESS)
      return Failure(ErrorCode::IOError, "MPI_Open_port: " + mpiError(E));
    if (Name == "world")
      return std::unique_ptr<Listener>(std::make_unique<WorldListener>(Port));
    if (int E = MPI_Publish_name(Name.c_str(), MPI_INFO_NULL, Port); E != MPI_SUCCESS) {
      MPI_Close_port(Port);
      return Failure(ErrorCode::IOError, "cannot publish '" + Name + "' (" + mpiError(E) +
                                             "): " + OmpiServerHint);
    }
    return std::unique_ptr<Listener>(std::make_unique<MpiListener>(Name, Port));
  }

private:
  bool Owned = false;
};

} // namespace

} // namespace skmd

extern "C" skmd::MpiTransport *skmd_mpi_transport_v1(std::string *Why) {
  // Started once, and kept until the process ends (MPI cannot start twice);
  // MPI_Finalize runs at exit where this library called MPI_Init.
  static std::string Error;
  static skmd::OpenMpi *T = [] {
    auto *M = new skmd::OpenMpi();
    if (skmd::Status S = M->start(); !S) {
      Error = S.error().message();
      delete M;
      return static_cast<skmd::OpenMpi *>(nullptr);
    }
    std::atexit([] { delete T; });
    return M;
  }();
  if (!T && Why)
    *Why = Error;
  return T;
}
