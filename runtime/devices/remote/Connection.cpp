//===- Connection.cpp - A client's line to skmd-server --------------------===//
#include "devices/remote/Connection.h"
#include "devices/remote/SocketConnection.h"
#include "support/DynamicLibrary.h"

#include <cstdlib>
#include <dlfcn.h>
#include <unistd.h>

namespace skmd {

Status Connection::send(const std::vector<uint8_t> &Frame, const void *Data,
                        uint64_t DataBytes) {
  auto Lock = sending();
  if (Status S = sendFrame(Frame); !S)
    return S;
  return DataBytes ? sendData(Data, DataBytes) : Status::success();
}

Status Connection::sendWithDescriptor(const std::vector<uint8_t> &Frame, int Fd) {
  auto Lock = sending();
  if (Status S = sendFrame(Frame); !S)
    return S;
  return sendDescriptor(Fd);
}

Status Connection::sendDescriptor(int) {
  return Failure(ErrorCode::InvalidArgument, peer() + ": no descriptor travels on this connection");
}

Result<int> Connection::receiveDescriptor(std::chrono::milliseconds) {
  return Failure(ErrorCode::InvalidArgument, peer() + ": no descriptor travels on this connection");
}

Status Connection::broken() const {
  if (!Closed)
    return Status::success();
  std::lock_guard<std::mutex> G(WhyLock);
  return Failure(ErrorCode::DeviceFailed,
                 peer() + ": connection closed" + (Why.empty() ? "" : " (" + Why + ")"));
}

Failure Connection::breakWith(const std::string &Text) {
  {
    std::lock_guard<std::mutex> G(WhyLock);
    if (Why.empty())
      Why = Text;
  }
  close();
  return Failure(ErrorCode::DeviceFailed, peer() + ": " + Text);
}

std::string ServerAddress::text() const {
  return (Kind == Unix ? "unix:" : "mpi:") + Where;
}

std::string localServerAddress() {
  const char *Dir = std::getenv("XDG_RUNTIME_DIR");
  if (Dir && *Dir)
    return std::string("unix:") + Dir + "/skmd-server.sock";
  return "unix:/tmp/skmd-server-" + std::to_string(getuid()) + ".sock";
}

Result<ServerAddress> parseServerAddress(const std::string &Text) {
  ServerAddress A;
  std::string Rest;
  if (Text.rfind("unix:", 0) == 0) {
    A.Kind = ServerAddress::Unix;
    A.Where = Text.substr(5);
  } else if (Text.rfind("mpi:", 0) == 0) {
    A.Kind = ServerAddress::Mpi;
    A.Where = Text.substr(4);
  } else {
    return Failure(ErrorCode::InvalidArgument,
                   "server address '" + Text +
                       "': expected unix:<socket path> (this node), mpi:<published name> "
                       "(Open MPI, through ompi-server) or mpi:rank:<N> (a server in the same "
                       "mpirun)");
  }
  if (A.Where.empty())
    return Failure(ErrorCode::InvalidArgument, "server address '" + Text + "' names nothing");
  return A;
}

namespace {

/// libskmd-mpi.so beside libskmd itself (the build's lib/, the installed
/// libdir), so that no library path must name it.
std::string pluginPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&pluginPath), &Info) && Info.dli_fname) {
    std::string Self = Info.dli_fname;
    size_t Slash = Self.rfind('/');
    if (Slash != std::string::npos)
      return Self.substr(0, Slash + 1) + "libskmd-mpi.so";
  }
  return "libskmd-mpi.so";
}

/// The MPI plugin, opened once; an error naming what is missing.
Result<MpiTransport *> mpiTransport() {
  static const std::string Path = pluginPath();
  static DynamicLibrary Library(Path.c_str(), "Open MPI transport for remote devices",
                                "a libskmd-mpi.so of another SKMD release");
  static MpiTransport *(*Entry)(std::string *) = nullptr;
  static std::once_flag Once;
  std::call_once(Once, [] { Library.get(Entry, "skmd_mpi_transport_v1"); });
  if (!Library.ok())
    return Failure(ErrorCode::NoDevice,
                   Library.error() +
                       ": remote devices over MPI need SKMD built with Open MPI "
                       "(openmpi-bin libopenmpi-dev) and libskmd-mpi.so beside libskmd");
  std::string Why;
  MpiTransport *T = Entry(&Why);
  if (!T)
    return Failure(ErrorCode::NoDevice, "libskmd-mpi.so could not start Open MPI: " + Why);
  return T;
}

} // namespace

Result<std::unique_ptr<Connection>> connectTo(const ServerAddress &Address,
                                              std::chrono::milliseconds Wait) {
  if (Address.Kind == ServerAddress::Unix)
    return connectUnix(Address.Where, Wait);
  auto T = mpiTransport();
  if (!T)
    return T.error();
  return (*T)->connect(Address.Where, Wait);
}

Result<std::unique_ptr<Listener>> listenAt(const ServerAddress &Address) {
  if (Address.Kind == ServerAddress::Unix)
    return listenUnix(Address.Where);
  auto T = mpiTransport();
  if (!T)
    return T.error();
  return (*T)->listen(Address.Where);
}

} // namespace skmd
