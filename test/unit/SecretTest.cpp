//===- SecretTest.cpp - The shared secret a client proves to skmd-server --===//
#include "devices/remote/Secret.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace skmd;

namespace {

const std::string Secret = "0123456789abcdef0123456789abcdef";

TEST(Secret, AProofHoldsForItsSecretNonceAndClientOnly) {
  auto N = freshNonce();
  ASSERT_TRUE(N.ok()) << N.error().message();
  auto Other = freshNonce();
  ASSERT_TRUE(Other.ok());
  EXPECT_NE(*N, *Other) << "two nonces alike";
  wire::Token Proof = proveSecret(Secret, *N, "node3:4711");
  EXPECT_TRUE(secretProven(Secret, *N, "node3:4711", Proof));
  EXPECT_FALSE(secretProven(Secret + "x", *N, "node3:4711", Proof)) << "another secret";
  EXPECT_FALSE(secretProven(Secret, *Other, "node3:4711", Proof)) << "a replayed proof";
  EXPECT_FALSE(secretProven(Secret, *N, "node3:4712", Proof)) << "another client";
  wire::Token Flipped = Proof;
  Flipped[31] ^= 1;
  EXPECT_FALSE(secretProven(Secret, *N, "node3:4711", Flipped));
}

// RFC 4231, test case 3: key 20 bytes of 0xaa, data 50 bytes of 0xdd (here
// the nonce's 32 and a client name of 18).
TEST(Secret, TheProofIsHmacSha256OfTheNonceAndTheName) {
  wire::Token Nonce;
  Nonce.fill(0xdd);
  wire::Token Mac = proveSecret(std::string(20, '\xaa'), Nonce, std::string(18, '\xdd'));
  const uint8_t Expected[32] = {0x77, 0x3e, 0xa9, 0x1e, 0x36, 0x80, 0x0e, 0x46, 0x85, 0x4d, 0xb8,
                                0xeb, 0xd0, 0x91, 0x81, 0xa7, 0x29, 0x59, 0x09, 0x8b, 0x3e, 0xf8,
                                0xc1, 0x22, 0xd9, 0x63, 0x55, 0x14, 0xce, 0xd5, 0x65, 0xfe};
  EXPECT_TRUE(std::equal(Mac.begin(), Mac.end(), Expected));
}

class SecretEnvironment : public ::testing::Test {
protected:
  void SetUp() override {
    unsetenv("SKMD_SERVER_SECRET");
    unsetenv("SKMD_SERVER_SECRET_FILE");
    Path = ::testing::TempDir() + "skmd-secret-" + std::to_string(getpid());
  }
  void TearDown() override {
    unsetenv("SKMD_SERVER_SECRET");
    unsetenv("SKMD_SERVER_SECRET_FILE");
    std::remove(Path.c_str());
  }
  std::string Path;
};

TEST_F(SecretEnvironment, ComesFromTheEnvironmentOrAPrivateFile) {
  auto None = secretFromEnvironment();
  ASSERT_FALSE(None.ok());
  EXPECT_NE(None.error().message().find("set SKMD_SERVER_SECRET"), std::string::npos);

  setenv("SKMD_SERVER_SECRET", "short", 1);
  auto Short = secretFromEnvironment();
  ASSERT_FALSE(Short.ok());
  EXPECT_NE(Short.error().message().find("5 bytes: use at least 16"), std::string::npos)
      << Short.error().message();

  setenv("SKMD_SERVER_SECRET", Secret.c_str(), 1);
  auto FromValue = secretFromEnvironment();
  ASSERT_TRUE(FromValue.ok()) << FromValue.error().message();
  EXPECT_EQ(*FromValue, Secret);

  // The file wins over the value; it must be private.
  std::ofstream(Path) << "fedcba9876543210fedcba9876543210\nsecond line\n";
  chmod(Path.c_str(), 0644);
  setenv("SKMD_SERVER_SECRET_FILE", Path.c_str(), 1);
  auto Open = secretFromEnvironment();
  ASSERT_FALSE(Open.ok());
  EXPECT_NE(Open.error().message().find("can be read by others: chmod 600 it"),
            std::string::npos)
      << Open.error().message();
  chmod(Path.c_str(), 0600);
  auto FromFile = secretFromEnvironment();
  ASSERT_TRUE(FromFile.ok()) << FromFile.error().message();
  EXPECT_EQ(*FromFile, "fedcba9876543210fedcba9876543210");

  setenv("SKMD_SERVER_SECRET_FILE", (Path + ".missing").c_str(), 1);
  auto Missing = secretFromEnvironment();
  ASSERT_FALSE(Missing.ok());
  EXPECT_NE(Missing.error().message().find("cannot be read"), std::string::npos);
}

} // namespace
