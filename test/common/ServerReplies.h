//===- ServerReplies.h - Reading skmd-server's answers in tests -*- C++ -*-===//
//
// For tests that speak to a Server as a raw client: the next reply,
// heartbeats skipped, and the text of an Error.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_COMMON_SERVERREPLIES_H
#define SKMD_TEST_COMMON_SERVERREPLIES_H

#include "devices/remote/Connection.h"
#include "wire/Wire.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace skmd::test {

/// The server's next message on \p C, heartbeats skipped; an empty
/// message (and a test failure) when none comes within two seconds.
inline wire::Message nextReply(Connection &C) {
  for (;;) {
    auto M = C.receive(std::chrono::milliseconds(2000));
    EXPECT_TRUE(M.ok()) << M.error().message();
    if (!M.ok() || !*M)
      return wire::Message{};
    if ((*M)->H.What != wire::Kind::Heartbeat)
      return std::move(**M);
  }
}

/// An Error reply's text, or what \p M is instead.
inline std::string errorText(const wire::Message &M) {
  auto E = wire::decodeError(M);
  return E ? E->Text : "(not an Error: " + std::string(wire::kindName(M.H.What)) + ")";
}

} // namespace skmd::test

#endif // SKMD_TEST_COMMON_SERVERREPLIES_H
