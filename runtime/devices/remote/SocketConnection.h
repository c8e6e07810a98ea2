//===- SocketConnection.h - Connections over a stream socket ------*- C++ -*-===//
//
// unix:PATH: a client and skmd-server on one node. Both channels share the
// stream: a message's data follows it byte for byte, and a send holds the
// socket until its data is written, so nothing interleaves.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_SOCKETCONNECTION_H
#define SKMD_DEVICES_REMOTE_SOCKETCONNECTION_H

#include "devices/remote/Connection.h"

#include <utility>

namespace skmd {

/// A connection over the stream socket \p Fd, which it owns.
std::unique_ptr<Connection> socketConnection(int Fd, std::string Peer);
/// Two connected ends, for tests: what one sends the other receives.
Result<std::pair<std::unique_ptr<Connection>, std::unique_ptr<Connection>>> socketPair();

Result<std::unique_ptr<Connection>> connectUnix(const std::string &Path,
                                                std::chrono::milliseconds Wait);
Result<std::unique_ptr<Listener>> listenUnix(const std::string &Path);

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_SOCKETCONNECTION_H
