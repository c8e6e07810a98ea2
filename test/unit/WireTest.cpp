//===- WireTest.cpp - Messages between clients and skmd-server ------------===//
//
// Every message round-trips; every malformed, truncated, damaged or
// hostile one is refused with a message naming what was wrong, never a
// crash, never an allocation of what a length field claims.
//
//===----------------------------------------------------------------------===//
#include "wire/Requests.h"
#include "wire/Wire.h"

#include <gtest/gtest.h>

#include <cmath>

#include <random>

using namespace skmd;
using namespace skmd::wire;

namespace {

Welcome twoDevices() {
  Welcome W;
  W.Server = "node7:skmd-server";
  W.Devices = {{"cpu", "AMD EPYC (16 threads)", 0, 16, 1, 128ull << 30, false, 0},
               {"gpu0", "NVIDIA H100 80GB HBM3", 1, 132, 32, 80ull << 30, false, 55.5}};
  return W;
}

std::vector<uint8_t> welcomeBytes() { return frame(Kind::Welcome, 42, encode(twoDevices())); }

Message mustParse(const std::vector<uint8_t> &Bytes) {
  auto M = parse(Bytes.data(), Bytes.size());
  EXPECT_TRUE(M.ok()) << M.error().message();
  return M.ok() ? *M : Message{};
}

std::string refusal(const std::vector<uint8_t> &Bytes) {
  auto M = parse(Bytes.data(), Bytes.size());
  if (!M)
    return M.error().message();
  auto W = decodeWelcome(*M);
  return W ? std::string() : W.error().message();
}

TEST(Wire, MessagesRoundTrip) {
  Message M = mustParse(welcomeBytes());
  EXPECT_EQ(M.H.What, Kind::Welcome);
  EXPECT_EQ(M.H.Request, 42u);
  auto W = decodeWelcome(M);
  ASSERT_TRUE(W.ok()) << W.error().message();
  EXPECT_EQ(W->Server, "node7:skmd-server");
  ASSERT_EQ(W->Devices.size(), 2u);
  EXPECT_EQ(W->Devices[1].Name, "gpu0");
  EXPECT_EQ(W->Devices[1].ComputeUnits, 132u);
  EXPECT_EQ(W->Devices[1].MemoryBytes, 80ull << 30);
  EXPECT_EQ(W->Devices[1].Description, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(W->Devices[1].Variant, 1u);
  EXPECT_EQ(W->Devices[1].LanesPerUnit, 32u);
  EXPECT_EQ(W->Devices[1].LinkGBps, 55.5);

  Hello Said{"host:1234", {}};
  for (size_t I = 0; I < TokenBytes; ++I)
    Said.Proof[I] = uint8_t(I * 7);
  auto H = decodeHello(mustParse(frame(Kind::Hello, 1, encode(Said))));
  ASSERT_TRUE(H.ok()) << H.error().message();
  EXPECT_EQ(H->Client, "host:1234");
  EXPECT_EQ(H->Proof, Said.Proof);

  Challenge Asked;
  Asked.Nonce.fill(0xa5);
  auto C = decodeChallenge(mustParse(frame(Kind::Challenge, 0, encode(Asked))));
  ASSERT_TRUE(C.ok()) << C.error().message();
  EXPECT_EQ(C->Nonce, Asked.Nonce);

  auto E = decodeError(
      mustParse(frame(Kind::Error, 9, encode(ErrorReply{ErrorCode::OutOfMemory, "no room"}))));
  ASSERT_TRUE(E.ok()) << E.error().message();
  EXPECT_EQ(E->Code, ErrorCode::OutOfMemory);
  EXPECT_EQ(E->Text, "no room");
}

TEST(Wire, TheHeaderIsLittleEndianAndFixed) {
  std::vector<uint8_t> B = frame(Kind::Hello, 0x0102030405060708ull, encode(Hello{"x", {}}));
  ASSERT_EQ(B.size(), HeaderBytes + 5 + TokenBytes);
  EXPECT_EQ(std::string(B.begin(), B.begin() + 4), "SKMW");
  EXPECT_EQ(B[4], Version);
  EXPECT_EQ(B[6], uint8_t(Kind::Hello));
  EXPECT_EQ(B[8], 0x08);
  EXPECT_EQ(B[15], 0x01);
  EXPECT_EQ(B[16], 5 + TokenBytes); // a 4-byte length, "x", the proof
  for (size_t I = 28; I < 32; ++I)
    EXPECT_EQ(B[I], 0);
}

TEST(Wire, EveryTruncationIsRefused) {
  const std::vector<uint8_t> Whole = welcomeBytes();
  for (size_t N = 0; N < Whole.size(); ++N) {
    std::vector<uint8_t> Cut(Whole.begin(), Whole.begin() + N);
    std::string Why = refusal(Cut);
    EXPECT_NE(Why.find("malformed message"), std::string::npos) << N << " bytes: " << Why;
  }
}

TEST(Wire, AWrongHeaderSaysWhatIsWrong) {
  std::vector<uint8_t> B = welcomeBytes();
  B[0] = 'X';
  EXPECT_NE(refusal(B).find("not an SKMD message"), std::string::npos) << refusal(B);

  B = welcomeBytes();
  B[4] = Version + 1;
  std::string Says = "protocol version " + std::to_string(Version + 1) + " where this side speaks " +
                     std::to_string(Version);
  EXPECT_NE(refusal(B).find(Says), std::string::npos)
      << refusal(B);

  B = welcomeBytes();
  B[6] = 200;
  EXPECT_NE(refusal(B).find("unknown kind 200"), std::string::npos) << refusal(B);

  B = welcomeBytes();
  B[29] = 1;
  EXPECT_NE(refusal(B).find("reserved"), std::string::npos) << refusal(B);

  // A payload size beyond the limit is refused before anything is read.
  B = welcomeBytes();
  B[23] = 0x7f;
  EXPECT_NE(refusal(B).find("payload bytes (at most"), std::string::npos) << refusal(B);

  // A kind other than the one expected.
  auto H = decodeHello(mustParse(welcomeBytes()));
  ASSERT_FALSE(H.ok());
  EXPECT_NE(H.error().message().find("expected Hello, got Welcome"), std::string::npos);
}

TEST(Wire, ADamagedPayloadFailsItsCrc) {
  const std::vector<uint8_t> Whole = welcomeBytes();
  for (size_t I = HeaderBytes; I < Whole.size(); ++I) {
    std::vector<uint8_t> B = Whole;
    B[I] ^= 0x10;
    EXPECT_NE(refusal(B).find("does not match its CRC"), std::string::npos) << I;
  }
}

TEST(Wire, HostileLengthsAreRefusedWithoutAllocating) {
  // A Welcome claiming 4 billion devices, and one whose name claims 4 GB:
  // the CRC is right, the lengths are not.
  Writer Many;
  Many.str("s");
  Many.u32(0xffffffffu);
  std::string Why = refusal(frame(Kind::Welcome, 1, Many));
  EXPECT_NE(Why.find("device count is 4294967295"), std::string::npos) << Why;

  Writer Long;
  Long.u32(0xfffffff0u);
  Why = refusal(frame(Kind::Welcome, 1, Long));
  EXPECT_NE(Why.find("server is 4294967280 bytes long"), std::string::npos) << Why;

  // More devices than the bytes left could hold.
  Writer Few;
  Few.str("s");
  Few.u32(3);
  Few.str("cpu");
  Few.u32(1);
  Few.u64(1);
  Why = refusal(frame(Kind::Welcome, 1, Few));
  EXPECT_NE(Why.find("device count is 3 (at most 0 fit)"), std::string::npos) << Why;

  // Bytes after the last field.
  Writer Extra = encode(Hello{"c", {}});
  Extra.u8(0);
  auto H = decodeHello(mustParse(frame(Kind::Hello, 1, Extra)));
  ASSERT_FALSE(H.ok());
  EXPECT_NE(H.error().message().find("1 bytes after its last field"), std::string::npos)
      << H.error().message();

  // A Hello without its proof.
  Writer NoProof;
  NoProof.str("c");
  H = decodeHello(mustParse(frame(Kind::Hello, 1, NoProof)));
  ASSERT_FALSE(H.ok());
  EXPECT_NE(H.error().message().find("Hello's proof needs 32 bytes, 0 are left"),
            std::string::npos)
      << H.error().message();

  // An error code this side does not know.
  Writer Code;
  Code.u32(999);
  Code.str("?");
  auto E = decodeError(mustParse(frame(Kind::Error, 1, Code)));
  ASSERT_FALSE(E.ok());
  EXPECT_NE(E.error().message().find("unknown code 999"), std::string::npos);
}

// Random bytes, and valid messages with random bytes changed, headers
// fixed up so that the CRC passes: every one parses or is refused.
TEST(Wire, RandomBytesNeverCrash) {
  std::mt19937_64 Rng(7);
  const std::vector<uint8_t> Whole = welcomeBytes();
  unsigned Refused = 0;
  for (int I = 0; I < 20000; ++I) {
    std::vector<uint8_t> B = Whole;
    if (I % 4 == 0) {
      B.resize(Rng() % 96);
      for (uint8_t &X : B)
        X = uint8_t(Rng());
    } else {
      for (int K = 0; K < 1 + I % 5; ++K)
        B[HeaderBytes + Rng() % (B.size() - HeaderBytes)] = uint8_t(Rng());
      Writer Changed;
      for (size_t K = HeaderBytes; K < B.size(); ++K)
        Changed.u8(B[K]);
      B = frame(Kind::Welcome, 1, Changed);
    }
    if (!refusal(B).empty())
      ++Refused;
  }
  EXPECT_GT(Refused, 10000u);
}

} // namespace

TEST(Wire, RequestsRoundTrip) {
  auto Again = [](Kind K, const Writer &P) { return mustParse(frame(K, 77, P)); };
  LoadModule L;
  L.Device = 2;
  L.Hash.fill(0x3c);
  L.BundleBytes = 123456;
  auto LM = decodeLoadModule(Again(Kind::LoadModule, encode(L)));
  ASSERT_TRUE(LM.ok()) << LM.error().message();
  EXPECT_EQ(LM->Device, 2u);
  EXPECT_EQ(LM->Hash, L.Hash);
  EXPECT_EQ(LM->BundleBytes, 123456u);

  auto LK = decodeLoadKernel(Again(Kind::LoadKernel, encode(LoadKernel{1, 9, "matmul"})));
  ASSERT_TRUE(LK.ok());
  EXPECT_EQ(LK->Module, 9u);
  EXPECT_EQ(LK->Kernel, "matmul");

  auto T = decodeTransfer(Again(Kind::Read, encode(Transfer{3, {4096, 100, 256, 7}})));
  ASSERT_TRUE(T.ok()) << T.error().message();
  EXPECT_EQ(T->Where.Pitch, 256u);
  EXPECT_EQ(T->Where.packedBytes(), 700u);
  EXPECT_EQ(T->Where.span(), 6u * 256 + 100);

  wire::Run R;
  R.Device = 1;
  R.Kernel = 4;
  R.Args.resize(3);
  R.Args[0].K = Arg::Buffer;
  R.Args[0].Address = 0xdeadbeef000;
  R.Args[1].K = Arg::Scalar;
  R.Args[1].Bytes = {1, 2, 3, 4};
  R.Args[2].K = Arg::Local;
  R.Args[2].LocalBytes = 1024;
  R.WorkDim = 2;
  R.NumGroups = {64, 32, 1};
  R.LocalSize = {16, 16, 1};
  R.First = 100;
  R.Count = 200;
  auto Ru = decodeRun(Again(Kind::Run, encode(R)));
  ASSERT_TRUE(Ru.ok()) << Ru.error().message();
  EXPECT_EQ(Ru->Args[0].Address, 0xdeadbeef000u);
  EXPECT_EQ(Ru->Args[1].Bytes, R.Args[1].Bytes);
  EXPECT_EQ(Ru->Args[2].LocalBytes, 1024u);
  EXPECT_EQ(Ru->NumGroups, R.NumGroups);
  EXPECT_EQ(Ru->Count, 200u);
  EXPECT_EQ(Ru->Flags, 0u);
  // Queued, with cached arguments.
  R.Flags = wire::Run::Queued;
  R.Args[0] = Arg::same();
  Ru = decodeRun(Again(Kind::Run, encode(R)));
  ASSERT_TRUE(Ru.ok()) << Ru.error().message();
  EXPECT_EQ(Ru->Flags, wire::Run::Queued);
  EXPECT_EQ(Ru->Args[0].K, Arg::Same);
  EXPECT_EQ(Ru->Args[1].Bytes, R.Args[1].Bytes);

  auto Q = decodeQueueMark(Again(Kind::ReleaseMark, encode(QueueMark{2, 99})));
  ASSERT_TRUE(Q.ok()) << Q.error().message();
  EXPECT_EQ(Q->Device, 2u);
  EXPECT_EQ(Q->Mark, 99u);
  auto Sy = decodeSync(Again(Kind::Sync, encode(Sync{3})));
  ASSERT_TRUE(Sy.ok()) << Sy.error().message();
  EXPECT_EQ(Sy->Device, 3u);
  auto Lo = decodeSync(Again(Kind::Load, encode(Sync{5})));
  ASSERT_TRUE(Lo.ok()) << Lo.error().message();
  EXPECT_EQ(Lo->Device, 5u);

  wire::Step St{4, 3, 96, 0.5, 2.25, 0.125, 0};
  auto Ste = decodeStep(Again(Kind::Step, encode(St)));
  ASSERT_TRUE(Ste.ok()) << Ste.error().message();
  EXPECT_EQ(Ste->Device, 4u);
  EXPECT_EQ(Ste->Runs, 3u);
  EXPECT_EQ(Ste->Groups, 96u);
  EXPECT_EQ(Ste->InMs, 0.5);
  EXPECT_EQ(Ste->KernelMs, 2.25);
  EXPECT_EQ(Ste->OutMs, 0.125);
  EXPECT_EQ(Ste->Flags, 0u);

  auto D = decodeDone(Again(Kind::Done, encode(Done{42, 1})));
  ASSERT_TRUE(D.ok());
  EXPECT_EQ(D->Value, 42u);
  EXPECT_EQ(D->Flags, 1u);
  EXPECT_TRUE(decodeEmpty(Again(Kind::Heartbeat, empty())).ok());
}

TEST(Wire, RequestsRefuseWhatCannotBe) {
  auto Why = [](Kind K, const Writer &P) -> std::string {
    Message M = mustParse(frame(K, 1, P));
    switch (K) {
    case Kind::Run: {
      auto R = decodeRun(M);
      return R ? "" : R.error().message();
    }
    case Kind::Write:
    case Kind::Read: {
      auto T = decodeTransfer(M);
      return T ? "" : T.error().message();
    }
    case Kind::Mark:
    case Kind::ReleaseMark: {
      auto Q = decodeQueueMark(M);
      return Q ? "" : Q.error().message();
    }
    case Kind::Step: {
      auto St = decodeStep(M);
      return St ? "" : St.error().message();
    }
    default: {
      Status S = decodeEmpty(M);
      return S ? "" : S.error().message();
    }
    }
  };
  // Overlapping rows; rows whose bytes overflow 64 bits.
  EXPECT_NE(Why(Kind::Write, encode(Transfer{0, {0, 100, 50, 3}})).find("rows overlap"),
            std::string::npos);
  EXPECT_NE(Why(Kind::Write, encode(Transfer{0, {1, ~0ull, ~0ull, 2}})).find("64 bits"),
            std::string::npos);
  EXPECT_NE(Why(Kind::Read, encode(Transfer{0, {~0ull - 10, 100, 100, 1}})).find("64 bits"),
            std::string::npos);
  // Groups outside the grid; a grid that overflows; four dimensions.
  wire::Run R;
  R.NumGroups = {10, 1, 1};
  R.First = 5;
  R.Count = 6;
  EXPECT_NE(Why(Kind::Run, encode(R)).find("leave the grid of 10"), std::string::npos);
  R.NumGroups = {1ull << 40, 1ull << 40, 1};
  R.First = 0;
  R.Count = 1;
  EXPECT_NE(Why(Kind::Run, encode(R)).find("does not fit"), std::string::npos);
  R.NumGroups = {1, 1, 1};
  R.WorkDim = 4;
  EXPECT_NE(Why(Kind::Run, encode(R)).find("work dimensions are 4"), std::string::npos);
  // An argument of an unknown kind; a scalar longer than the message.
  Writer W;
  W.u32(0);
  W.u64(0);
  W.u32(1);
  W.u8(9);
  W.u64(0);
  EXPECT_NE(Why(Kind::Run, W).find("unknown kind 9"), std::string::npos);
  Writer Long;
  Long.u32(0);
  Long.u64(0);
  Long.u32(1);
  Long.u8(Arg::Scalar);
  Long.u32(60000);
  EXPECT_NE(Why(Kind::Run, Long).find("scalar bytes is 60000"), std::string::npos);
  // Flags this version does not know.
  R.WorkDim = 1;
  R.Flags = 6;
  EXPECT_NE(Why(Kind::Run, encode(R)).find("unknown flags 6"), std::string::npos);
  // A Heartbeat with a payload.
  Writer One;
  One.u8(0);
  EXPECT_NE(Why(Kind::Heartbeat, One).find("carries 1 bytes"), std::string::npos);
  // A mark numbered 0.
  EXPECT_NE(Why(Kind::ReleaseMark, encode(QueueMark{0, 0})).find("names mark 0"),
            std::string::npos);
  // A Step of no Runs, or a time that is no time.
  EXPECT_NE(Why(Kind::Step, encode(wire::Step{0, 0, 1, 1, 1, 1})).find("a Step of 0 Runs"),
            std::string::npos);
  EXPECT_NE(Why(Kind::Step, encode(wire::Step{0, 1, 1, 1, -1, 1})).find("predicted time"),
            std::string::npos);
  EXPECT_NE(Why(Kind::Step, encode(wire::Step{0, 1, 1, std::nan(""), 1, 1}))
                .find("predicted time"),
            std::string::npos);
  EXPECT_NE(Why(Kind::Step, encode(wire::Step{0, 1, 1, 1, 1, 1, 6})).find("unknown flags 6"),
            std::string::npos);
}
