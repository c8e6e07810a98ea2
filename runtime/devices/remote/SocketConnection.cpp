//===- SocketConnection.cpp - Connections over a stream socket ------------===//
#include "devices/remote/SocketConnection.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

std::string errnoText() { return std::strerror(errno); }

class SocketConnection final : public Connection {
public:
  SocketConnection(int Fd, std::string Peer) : Fd(Fd), Peer(std::move(Peer)) {}
  ~SocketConnection() override {
    close();
    ::close(Fd);
  }

  std::string peer() const override { return Peer; }

  Status sendFrame(const std::vector<uint8_t> &Frame) override {
    return writeAll(Frame.data(), Frame.size());
  }
  Status sendData(const void *Data, uint64_t Bytes) override { return writeAll(Data, Bytes); }

  Result<std::optional<wire::Message>> receive(std::chrono::milliseconds Wait) override {
    if (Status S = broken(); !S)
      return S.error();
    auto Ready = waitFor(POLLIN, Wait);
    if (!Ready)
      return Ready.error();
    if (!*Ready)
      return std::optional<wire::Message>();
    // A header has begun: the rest follows at once, or the peer is stuck.
    std::vector<uint8_t> Bytes(wire::HeaderBytes);
    if (Status S = readAll(Bytes.data(), wire::HeaderBytes, Wait); !S)
      return S.error();
    auto H = wire::decodeHeader(Bytes.data(), Bytes.size());
    if (!H)
      return breakWith(H.error().message());
    Bytes.resize(wire::HeaderBytes + H->PayloadBytes);
    if (Status S = readAll(Bytes.data() + wire::HeaderBytes, H->PayloadBytes, Wait); !S)
      return S.error();
    auto M = wire::parse(Bytes.data(), Bytes.size());
    if (!M)
      return M.error(); // The stream is still in step: the next header follows.
    return std::optional<wire::Message>(std::move(*M));
  }

  Status receiveData(void *Into, uint64_t Bytes, std::chrono::milliseconds Wait) override {
    if (Status S = broken(); !S)
      return S;
    return readAll(Into, Bytes, Wait);
  }

  bool passesDescriptors() const override { return true; }

  Result<int> receiveDescriptor(std::chrono::milliseconds Wait) override {
    if (Status S = broken(); !S)
      return S.error();
    // One byte carries it; a hostile peer may send several descriptors or
    // none: every one that came is closed but the one asked for.
    for (;;) {
      char Byte;
      iovec Io{&Byte, 1};
      alignas(cmsghdr) char Control[CMSG_SPACE(4 * sizeof(int))];
      msghdr Msg{};
      Msg.msg_iov = &Io;
      Msg.msg_iovlen = 1;
      Msg.msg_control = Control;
      Msg.msg_controllen = sizeof(Control);
      auto N = received(::recvmsg(Fd, &Msg, MSG_CMSG_CLOEXEC), "recvmsg", "descriptor", Wait);
      if (!N)
        return N.error();
      if (!*N)
        continue;
      std::vector<int> Got;
      for (cmsghdr *C = CMSG_FIRSTHDR(&Msg); C; C = CMSG_NXTHDR(&Msg, C))
        if (C->cmsg_level == SOL_SOCKET && C->cmsg_type == SCM_RIGHTS)
          for (size_t I = 0; I < (C->cmsg_len - CMSG_LEN(0)) / sizeof(int); ++I) {
            int F;
            std::memcpy(&F, CMSG_DATA(C) + I * sizeof(int), sizeof(int));
            Got.push_back(F);
          }
      if (Got.size() == 1 && !(Msg.msg_flags & MSG_CTRUNC))
        return Got[0];
      for (int F : Got)
        ::close(F);
      return Failure(ErrorCode::InvalidArgument,
                     Got.empty() ? "the message came without its descriptor"
                                 : "the message came with " + std::to_string(Got.size()) +
                                       " descriptors where it has one");
    }
  }

  void close() override {
    if (!Closed.exchange(true))
      ::shutdown(Fd, SHUT_RDWR);
  }

private:
  /// Whether \p Events came within \p Wait.
  Result<bool> waitFor(short Events, std::chrono::milliseconds Wait) {
    pollfd P{Fd, Events, 0};
    for (;;) {
      int N = ::poll(&P, 1, int(std::min<int64_t>(Wait.count(), INT32_MAX)));
      if (N < 0 && errno == EINTR)
        continue;
      if (N < 0)
        return breakWith("poll: " + errnoText());
      if (Closed)
        return broken().error();
      return N > 0;
    }
  }

  Status writeAll(const void *Data, uint64_t Bytes) {
    if (Status S = broken(); !S)
      return S;
    const char *P = static_cast<const char *>(Data);
    while (Bytes) {
      auto N = sent(::send(Fd, P, std::min<uint64_t>(Bytes, 1ull << 30), MSG_NOSIGNAL), "send");
      if (!N)
        return N.error();
      P += *N;
      Bytes -= *N;
    }
    return Status::success();
  }

  Status sendDescriptor(int Passed) override {
    if (Status S = broken(); !S)
      return S;
    char Byte = 0;
    iovec Io{&Byte, 1};
    alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))] = {};
    msghdr Msg{};
    Msg.msg_iov = &Io;
    Msg.msg_iovlen = 1;
    Msg.msg_control = Control;
    Msg.msg_controllen = sizeof(Control);
    cmsghdr *C = CMSG_FIRSTHDR(&Msg);
    C->cmsg_level = SOL_SOCKET;
    C->cmsg_type = SCM_RIGHTS;
    C->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(C), &Passed, sizeof(int));
    for (;;) {
      auto N = sent(::sendmsg(Fd, &Msg, MSG_NOSIGNAL), "sendmsg");
      if (!N)
        return N.error();
      if (*N)
        return Status::success(); // its one byte
    }
  }

  /// What a send call (\p Call, which returned \p N) handed over: the
  /// bytes, or 0 where it should be tried again (interrupted, or the
  /// socket full and room came within the link's patience); the
  /// connection breaks where the peer failed or took nothing for that long.
  Result<uint64_t> sent(ssize_t N, const char *Call) {
    if (N > 0)
      return uint64_t(N);
    if (N < 0 && errno == EINTR)
      return uint64_t(0);
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      auto Ready = waitFor(POLLOUT, patience());
      if (!Ready)
        return Ready.error();
      if (!*Ready)
        return breakWith("the peer took no byte for " + std::to_string(patience().count()) +
                         " ms");
      return uint64_t(0);
    }
    return breakWith(std::string(Call) + ": " +
                     (N < 0 ? errnoText() : std::string("nothing sent")));
  }

  /// What a receive call (\p Call, which returned \p N) took: the bytes,
  /// or 0 where it should be tried again (interrupted, or nothing yet and
  /// something came within \p Wait); the connection breaks where the peer
  /// closed, failed or sent no \p What for \p Wait.
  Result<uint64_t> received(ssize_t N, const char *Call, const char *What,
                            std::chrono::milliseconds Wait) {
    if (N > 0)
      return uint64_t(N);
    if (N < 0 && errno == EINTR)
      return uint64_t(0);
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      auto Ready = waitFor(POLLIN, Wait);
      if (!Ready)
        return Ready.error();
      if (!*Ready)
        return breakWith(std::string("no ") + What + " came for " +
                         std::to_string(Wait.count()) + " ms");
      return uint64_t(0);
    }
    if (N == 0)
      return breakWith("the peer closed the connection");
    return breakWith(std::string(Call) + ": " + errnoText());
  }

  Status readAll(void *Into, uint64_t Bytes, std::chrono::milliseconds Wait) {
    char *P = static_cast<char *>(Into);
    while (Bytes) {
      auto N = received(::recv(Fd, P, std::min<uint64_t>(Bytes, 1ull << 30), 0), "recv", "byte",
                        Wait);
      if (!N)
        return N.error();
      P += *N;
      Bytes -= *N;
    }
    return Status::success();
  }

  int Fd;
  std::string Peer;
};

Status nonBlocking(int Fd) {
  int Flags = fcntl(Fd, F_GETFL);
  if (Flags < 0 || fcntl(Fd, F_SETFL, Flags | O_NONBLOCK) < 0)
    return Failure(ErrorCode::IOError, "fcntl: " + errnoText());
  return Status::success();
}

Result<sockaddr_un> unixAddress(const std::string &Path) {
  sockaddr_un A{};
  A.sun_family = AF_UNIX;
  if (Path.size() >= sizeof(A.sun_path))
    return Failure(ErrorCode::InvalidArgument,
                   "unix:" + Path + ": a socket path has at most " +
                       std::to_string(sizeof(A.sun_path) - 1) + " bytes");
  std::memcpy(A.sun_path, Path.c_str(), Path.size() + 1);
  return A;
}

class UnixListener final : public Listener {
public:
  UnixListener(int Fd, std::string Path) : Fd(Fd), Path(std::move(Path)) {}
  ~UnixListener() override {
    stop();
    ::close(Fd);
  }
  std::string address() const override { return "unix:" + Path; }

  Result<std::unique_ptr<Connection>> accept(std::chrono::milliseconds Wait) override {
    pollfd P{Fd, POLLIN, 0};
    // Short polls, so that stop() ends a wait soon.
    auto Until = Clock::now() + Wait;
    while (!Stopped) {
      int N = ::poll(&P, 1, 50);
      if (N < 0 && errno != EINTR)
        return Failure(ErrorCode::IOError, address() + ": poll: " + errnoText());
      if (N > 0) {
        int C = ::accept4(Fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (C < 0) {
          if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
            continue;
          return Failure(ErrorCode::IOError, address() + ": accept: " + errnoText());
        }
        if (Status S = nonBlocking(C); !S) {
          ::close(C);
          return S.error();
        }
        return socketConnection(C, "client on " + address());
      }
      if (Clock::now() >= Until)
        break;
    }
    return std::unique_ptr<Connection>();
  }

  void stop() override {
    if (!Stopped.exchange(true))
      ::unlink(Path.c_str());
  }

private:
  int Fd;
  std::string Path;
  std::atomic<bool> Stopped{false};
};

} // namespace

std::unique_ptr<Connection> socketConnection(int Fd, std::string Peer) {
  // Larger socket buffers: fewer wake-ups per data chunk (the kernel caps
  // them at net.core.wmem_max; a failure leaves the defaults).
  int Bytes = 4 << 20;
  ::setsockopt(Fd, SOL_SOCKET, SO_SNDBUF, &Bytes, sizeof(Bytes));
  ::setsockopt(Fd, SOL_SOCKET, SO_RCVBUF, &Bytes, sizeof(Bytes));
  return std::make_unique<SocketConnection>(Fd, std::move(Peer));
}

Result<std::pair<std::unique_ptr<Connection>, std::unique_ptr<Connection>>> socketPair() {
  int Fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds) < 0)
    return Failure(ErrorCode::IOError, "socketpair: " + errnoText());
  for (int Fd : Fds)
    if (Status S = nonBlocking(Fd); !S) {
      ::close(Fds[0]);
      ::close(Fds[1]);
      return S.error();
    }
  return std::make_pair(socketConnection(Fds[0], "socket pair end 0"),
                        socketConnection(Fds[1], "socket pair end 1"));
}

Result<std::unique_ptr<Connection>> connectUnix(const std::string &Path,
                                                std::chrono::milliseconds Wait) {
  auto A = unixAddress(Path);
  if (!A)
    return A.error();
  // A server that is starting may not listen yet: try until Wait is over.
  auto Until = Clock::now() + Wait;
  for (;;) {
    int Fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (Fd < 0)
      return Failure(ErrorCode::IOError, "socket: " + errnoText());
    if (::connect(Fd, reinterpret_cast<const sockaddr *>(&*A), sizeof(*A)) == 0) {
      if (Status S = nonBlocking(Fd); !S) {
        ::close(Fd);
        return S.error();
      }
      return socketConnection(Fd, "unix:" + Path);
    }
    int Err = errno;
    ::close(Fd);
    if ((Err != ENOENT && Err != ECONNREFUSED) || Clock::now() >= Until)
      return Failure(ErrorCode::NoDevice, "no skmd-server at unix:" + Path + " (" +
                                              std::strerror(Err) + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Result<std::unique_ptr<Listener>> listenUnix(const std::string &Path) {
  auto A = unixAddress(Path);
  if (!A)
    return A.error();
  struct stat St;
  if (::lstat(Path.c_str(), &St) == 0) {
    if (!S_ISSOCK(St.st_mode))
      return Failure(ErrorCode::InvalidArgument,
                     "unix:" + Path + " exists and is not a socket: not replacing it");
    // A socket left by a server that died: take it over; one that a live
    // server listens on: refuse.
    int Probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool Live = Probe >= 0 &&
                ::connect(Probe, reinterpret_cast<const sockaddr *>(&*A), sizeof(*A)) == 0;
    if (Probe >= 0)
      ::close(Probe);
    if (Live)
      return Failure(ErrorCode::InvalidArgument,
                     "unix:" + Path + ": another skmd-server listens there");
    ::unlink(Path.c_str());
  }
  int Fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Fd < 0)
    return Failure(ErrorCode::IOError, "socket: " + errnoText());
  // Only this user may connect; the secret guards the rest.
  if (::bind(Fd, reinterpret_cast<const sockaddr *>(&*A), sizeof(*A)) < 0 ||
      ::chmod(Path.c_str(), 0600) < 0 || ::listen(Fd, 64) < 0 || !nonBlocking(Fd).ok()) {
    std::string Why = errnoText();
    ::close(Fd);
    return Failure(ErrorCode::IOError, "cannot listen at unix:" + Path + ": " + Why);
  }
  return std::unique_ptr<Listener>(std::make_unique<UnixListener>(Fd, Path));
}

} // namespace skmd
