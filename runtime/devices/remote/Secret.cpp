//===- Secret.cpp - The shared secret a client proves to skmd-server ------===//
#include "devices/remote/Secret.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

namespace skmd {

namespace {

/// Long enough that guessing is hopeless (openssl rand -hex 16 gives 32).
constexpr size_t MinSecretBytes = 16;

} // namespace

Result<wire::Token> freshNonce() {
  wire::Token N;
  if (RAND_bytes(N.data(), int(N.size())) != 1)
    return Failure(ErrorCode::IOError, "no random bytes for a nonce from the system");
  return N;
}

namespace {

/// HMAC-SHA256(\p Secret, \p Nonce || \p Client) into \p Mac; false
/// where OpenSSL fails.
bool hmac(const std::string &Secret, const wire::Token &Nonce, const std::string &Client,
          wire::Token &Mac) {
  // The nonce, then the client's name: both fixed by the time the server
  // checks, so a proof cannot be moved to another connection or name.
  std::string Message(reinterpret_cast<const char *>(Nonce.data()), Nonce.size());
  Message += Client;
  unsigned Length = 0;
  return HMAC(EVP_sha256(), Secret.data(), int(Secret.size()),
              reinterpret_cast<const unsigned char *>(Message.data()), Message.size(),
              Mac.data(), &Length) != nullptr &&
         Length == Mac.size();
}

} // namespace

wire::Token proveSecret(const std::string &Secret, const wire::Token &Nonce,
                        const std::string &Client) {
  wire::Token Mac{};
  if (!hmac(Secret, Nonce, Client, Mac))
    Mac.fill(0); // no proof: the server's check fails
  return Mac;
}

bool secretProven(const std::string &Secret, const wire::Token &Nonce,
                  const std::string &Client, const wire::Token &Proof) {
  // A failed HMAC here proves nothing, whatever the client sent.
  wire::Token Expected{};
  return hmac(Secret, Nonce, Client, Expected) &&
         CRYPTO_memcmp(Expected.data(), Proof.data(), Expected.size()) == 0;
}

Result<std::string> secretFromEnvironment() {
  std::string Secret, From;
  if (const char *Path = std::getenv("SKMD_SERVER_SECRET_FILE"); Path && *Path) {
    From = std::string("SKMD_SERVER_SECRET_FILE (") + Path + ")";
    struct stat St;
    if (stat(Path, &St) != 0)
      return Failure(ErrorCode::NotFound, From + " cannot be read");
    if (St.st_mode & (S_IRWXG | S_IRWXO))
      return Failure(ErrorCode::InvalidArgument,
                     From + " can be read by others: chmod 600 it");
    std::ifstream In(Path);
    if (!In || !std::getline(In, Secret))
      return Failure(ErrorCode::IOError, From + " cannot be read");
  } else if (const char *Value = std::getenv("SKMD_SERVER_SECRET"); Value && *Value) {
    From = "SKMD_SERVER_SECRET";
    Secret = Value;
  } else {
    return Failure(ErrorCode::NotFound,
                   "no secret: set SKMD_SERVER_SECRET, or SKMD_SERVER_SECRET_FILE to a file "
                   "only you can read (e.g. from `openssl rand -hex 16`)");
  }
  if (Secret.size() < MinSecretBytes)
    return Failure(ErrorCode::InvalidArgument,
                   From + " holds " + std::to_string(Secret.size()) + " bytes: use at least " +
                       std::to_string(MinSecretBytes));
  return Secret;
}

} // namespace skmd
