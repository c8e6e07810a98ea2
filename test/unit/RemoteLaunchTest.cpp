//===- RemoteLaunchTest.cpp - Launches on a server's devices --------------===//
//
// A Launcher over the CPU and the two HostDiscrete devices of a Server
// that serves one end of a socket pair: every piece of a remote device is
// queued (its copies, kernel and copies out go out without waiting), its
// kernel's unchanged arguments are not sent again, and the results are
// the CPU's alone, bit for bit.
//
//===----------------------------------------------------------------------===//
#include "Server.h"
#include "common/ServerReplies.h"
#include "common/KernelHarness.h"
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/remote/RemoteDevice.h"
#include "devices/remote/Secret.h"
#include "devices/remote/SocketConnection.h"
#include "session/Devices.h"
#include "wire/Requests.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

using namespace skmd;
using namespace std::chrono_literals;

namespace {

const std::string Secret = "remote-launch-test-secret-0123";

class RemoteLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<std::unique_ptr<Device>> Ds;
    Ds.push_back(HostDiscreteDevice::create(0));
    Ds.push_back(HostDiscreteDevice::create(1));
    ServerOptions O;
    O.Name = "t";
    O.Secret = Secret;
    O.Times.Heartbeat = 50ms;
    O.Times.Silence = 2000ms;
    Srv = std::make_unique<Server>(std::move(Ds), O);
    auto Pair = socketPair();
    ASSERT_TRUE(Pair.ok()) << Pair.error().message();
    Client = std::move(Pair->first);
    Served = std::async(std::launch::async, [this, C = std::move(Pair->second)]() mutable {
      return Srv->serve(std::move(C));
    });
  }
  void TearDown() override {
    if (Served.valid())
      Served.wait_for(5s);
  }

  /// The server's answer to the client's next message, heartbeats skipped.
  wire::Message next() { return test::nextReply(*Client); }
  std::string errorText(const wire::Message &M) { return test::errorText(M); }

  std::unique_ptr<Server> Srv;
  std::unique_ptr<Connection> Client;
  std::future<Status> Served;
};

// Pieces on the CPU and on both of the server's devices agree with the
// CPU alone; a second launch sends only what changed (the scalar n),
// and the changed value is the one the kernel sees.
TEST_F(RemoteLaunch, QueuedPiecesAgreeWithTheCpuAlone) {
  auto Link = ServerLink::open(std::move(Client), Secret);
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Remote = RemoteDevice::offered(*Link);
  ASSERT_EQ(Remote.size(), 2u);
  ASSERT_TRUE(Remote[0]->info().QueuesWork);
  ASSERT_TRUE(Remote[0]->info().CallsCostRoundTrips);
  auto Opened = openDevices("cpu");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  Launcher Run({Opened->Devices[0].get(), Remote[0].get(), Remote[1].get()}, *Opened->Cpu);

  test::MatmulLaunch Alone(64), Split(64);
  ASSERT_TRUE(Alone.Error.empty()) << Alone.Error;
  LaunchReport Report;
  ASSERT_TRUE(Run.run(Alone.Kernel, Alone.Args, Alone.Range, {{0, 0, 16}}, Report).ok());
  for (int Round = 0; Round < 2; ++Round) {
    std::fill(Split.C.begin(), Split.C.end(), 0.0f);
    Status S = Run.run(Split.Kernel, Split.Args, Split.Range, {{1, 0, 5}, {2, 5, 6}, {0, 11, 5}},
                       Report);
    ASSERT_TRUE(S.ok()) << S.error().message();
    for (const PieceReport &P : Report.Pieces)
      EXPECT_TRUE(P.Failure.empty()) << P.Device << ": " << P.Failure;
    for (size_t I = 0; I < Alone.C.size(); ++I)
      ASSERT_EQ(Split.C[I], Alone.C[I]) << "round " << Round << ", element " << I << " (row "
                                        << I / 64 << ", column " << I % 64 << ")";
  }

  // vector_add with n = 512, then n = 256: the elements past n stay 0.
  test::VectorAddLaunch V(8);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  for (int32_t N : {512, 256}) {
    std::fill(V.C.begin(), V.C.end(), 0.0f);
    V.bind(N);
    Status S = Run.run(V.Kernel, V.Args, V.Range, {{1, 0, 4}, {2, 4, 4}}, Report);
    ASSERT_TRUE(S.ok()) << S.error().message();
    for (int32_t I = 0; I < 512; ++I)
      ASSERT_EQ(V.C[I], I < N ? 3.0f : 0.0f) << "n " << N << ", element " << I;
  }
}

// Heartbeats start after the handshake: a client slow to answer the
// Challenge (a busy machine) still gets the Welcome next, not a heartbeat
// it would take for a malformed handshake.
TEST_F(RemoteLaunch, HeartbeatsDoNotRaceTheHandshake) {
  auto Raw = [&]() -> wire::Message {
    auto M = Client->receive(2000ms);
    EXPECT_TRUE(M.ok() && *M) << (M.ok() ? "silence" : M.error().message());
    return M.ok() && *M ? std::move(**M) : wire::Message();
  };
  wire::Message First = Raw();
  ASSERT_EQ(First.H.What, wire::Kind::Challenge);
  auto Ch = wire::decodeChallenge(First);
  ASSERT_TRUE(Ch.ok());
  // Ten heartbeat periods before the Hello.
  std::this_thread::sleep_for(500ms);
  wire::Hello H{"slow-client", proveSecret(Secret, Ch->Nonce, "slow-client")};
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Hello, 0, wire::encode(H))).ok());
  EXPECT_EQ(Raw().H.What, wire::Kind::Welcome);
  // After it, the server beats while the client is quiet.
  EXPECT_EQ(Raw().H.What, wire::Kind::Heartbeat);
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Goodbye, 0, wire::empty())).ok());
}

// A Run that names an argument as the same as last time where the server
// has no such last time is refused, and so is every such Run of that
// kernel after a mismatch: a cached argument never stands in for one the
// client did not mean.
TEST_F(RemoteLaunch, ARunNamingArgumentsItNeverSentIsRefused) {
  test::VectorAddLaunch V(1);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  auto Ch = wire::decodeChallenge(next());
  ASSERT_TRUE(Ch.ok());
  wire::Hello H{"raw-client", proveSecret(Secret, Ch->Nonce, "raw-client")};
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Hello, 0, wire::encode(H))).ok());
  ASSERT_EQ(next().H.What, wire::Kind::Welcome);
  auto Expect = [&](wire::Kind K, uint64_t Id, const wire::Writer &P, const void *Data,
                    uint64_t Bytes, const char *Says) {
    ASSERT_TRUE(Client->send(wire::frame(K, Id, P), Data, Bytes).ok());
    wire::Message R = next();
    EXPECT_EQ(R.H.Request, Id);
    if (Says)
      EXPECT_NE(errorText(R).find(Says), std::string::npos) << errorText(R);
    else
      EXPECT_EQ(R.H.What, wire::Kind::Done) << errorText(R);
  };
  const std::vector<uint8_t> &Bytes = V.Source->bytes();
  wire::LoadModule L{0, bundleHash(Bytes), Bytes.size()};
  Expect(wire::Kind::LoadModule, 1, wire::encode(L), Bytes.data(), Bytes.size(), nullptr);
  Expect(wire::Kind::LoadKernel, 2, wire::encode(wire::LoadKernel{0, 0, "vector_add"}),
         nullptr, 0, nullptr);
  auto Alloc = [&](uint64_t Id) {
    EXPECT_TRUE(Client
                    ->send(wire::frame(wire::Kind::Allocate, Id,
                                       wire::encode(wire::Allocate{0, 256})))
                    .ok());
    auto D = wire::decodeDone(next());
    EXPECT_TRUE(D.ok());
    return D ? D->Value : 0;
  };
  uint64_t A = Alloc(3), B = Alloc(4), C = Alloc(5);
  wire::Run Ru;
  Ru.NumGroups = {1, 1, 1};
  Ru.LocalSize = {64, 1, 1};
  Ru.Count = 1;
  Ru.Args.assign(4, wire::Arg::same());
  Expect(wire::Kind::Run, 6, wire::encode(Ru), nullptr, 0, "last Run had 0 arguments");
  auto Buffer = [](uint64_t Address) {
    wire::Arg W;
    W.K = wire::Arg::Buffer;
    W.Address = Address;
    return W;
  };
  wire::Arg N;
  N.Bytes = {64, 0, 0, 0};
  Ru.Args = {Buffer(A), Buffer(B), Buffer(C), N};
  Expect(wire::Kind::Run, 7, wire::encode(Ru), nullptr, 0, nullptr);
  Ru.Args[1] = wire::Arg::same();
  Expect(wire::Kind::Run, 8, wire::encode(Ru), nullptr, 0, nullptr);
  // Three arguments where the last Run had four: refused, and the cache
  // of that kernel dropped.
  Ru.Args.pop_back();
  Expect(wire::Kind::Run, 9, wire::encode(Ru), nullptr, 0, "had 4 arguments, not 3");
  Ru.Args.assign(4, wire::Arg::same());
  Expect(wire::Kind::Run, 10, wire::encode(Ru), nullptr, 0, "last Run had 0 arguments");
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Goodbye, 0, wire::empty())).ok());
  ASSERT_EQ(Served.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(Served.get().ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

} // namespace
