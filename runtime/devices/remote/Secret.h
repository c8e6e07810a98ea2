//===- Secret.h - The shared secret a client proves to skmd-server -*- C++ -*-===//
//
// skmd-server serves only clients that hold the secret it was started with
// (docs/wire-format.md, "Connecting"): it sends a fresh nonce, the client
// answers with HMAC-SHA256(secret, nonce || client name), and the server
// compares in constant time. The secret never crosses the wire, and a
// proof is good for one nonce only.
//
// The secret comes from SKMD_SERVER_SECRET, or from the file named by
// SKMD_SERVER_SECRET_FILE (its first line), which others must not be able
// to read, as ssh refuses a private key they can.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_SECRET_H
#define SKMD_DEVICES_REMOTE_SECRET_H

#include "support/Result.h"
#include "wire/Wire.h"

#include <string>

namespace skmd {

/// A nonce from the operating system's random source.
Result<wire::Token> freshNonce();

/// The client's proof that it holds \p Secret, for \p Nonce and \p Client.
wire::Token proveSecret(const std::string &Secret, const wire::Token &Nonce,
                        const std::string &Client);

/// Whether \p Proof is the proof of \p Secret for \p Nonce and \p Client
/// (compared in constant time).
bool secretProven(const std::string &Secret, const wire::Token &Nonce,
                  const std::string &Client, const wire::Token &Proof);

/// The secret from SKMD_SERVER_SECRET_FILE or SKMD_SERVER_SECRET; an
/// error when neither is set, the file cannot be read or others can read
/// it, or the secret is shorter than 16 bytes.
Result<std::string> secretFromEnvironment();

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_SECRET_H
