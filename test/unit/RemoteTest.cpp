//===- RemoteTest.cpp - skmd-server and its clients, and their faults -----===//
//
// A Server serves one end of a socket pair on a thread; the test speaks at
// the other end, as a RemoteDevice (through ServerLink) or as a hostile
// client writing raw frames. The server must answer every malformed or
// wrong request with an Error and go on, end only the connections it can
// no longer follow, and free what a client held however it leaves.
//
//===----------------------------------------------------------------------===//
#include "Server.h"
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/remote/RemoteDevice.h"
#include "devices/remote/Secret.h"
#include "devices/remote/SocketConnection.h"
#include "wire/Requests.h"

#include <gtest/gtest.h>

#include <future>
#include <numeric>

using namespace skmd;
using namespace std::chrono_literals;

namespace {

const std::string Secret = "remote-test-secret-0123456789";

LinkTimes quick() {
  LinkTimes T;
  T.Heartbeat = 50ms;
  T.Silence = 1000ms;
  return T;
}

class Remote : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<std::unique_ptr<Device>> Ds;
    Ds.push_back(HostDiscreteDevice::create(0));
    Ds.push_back(HostDiscreteDevice::create(1));
    ServerOptions O;
    O.Name = "t";
    O.Secret = Secret;
    O.Times = quick();
    Srv = std::make_unique<Server>(std::move(Ds), O);
    auto Pair = socketPair();
    ASSERT_TRUE(Pair.ok()) << Pair.error().message();
    Client = std::move(Pair->first);
    Served = std::async(std::launch::async,
                        [this, C = std::shared_ptr<Connection>(std::move(Pair->second))]() mutable {
                          // serve takes ownership; the shared_ptr keeps it
                          // alive for the lambda's copy.
                          return Srv->serve(std::unique_ptr<Connection>(new Forward(C)));
                        });
  }

  /// A connection that forwards to a shared one (serve takes ownership).
  struct Forward final : Connection {
    explicit Forward(std::shared_ptr<Connection> C) : C(std::move(C)) {}
    std::string peer() const override { return C->peer(); }
    Status sendFrame(const std::vector<uint8_t> &F) override { return C->sendFrame(F); }
    Status sendData(const void *D, uint64_t B) override { return C->sendData(D, B); }
    Result<std::optional<wire::Message>> receive(std::chrono::milliseconds W) override {
      return C->receive(W);
    }
    Status receiveData(void *I, uint64_t B, std::chrono::milliseconds W) override {
      return C->receiveData(I, B, W);
    }
    void close() override { C->close(); }
    std::shared_ptr<Connection> C;
  };

  /// The server's answer to the client's next message, heartbeats skipped.
  wire::Message next() {
    for (;;) {
      auto M = Client->receive(2000ms);
      EXPECT_TRUE(M.ok()) << M.error().message();
      if (!M.ok() || !*M)
        return wire::Message{};
      if ((*M)->H.What != wire::Kind::Heartbeat)
        return std::move(**M);
    }
  }

  /// The handshake by hand, with \p Key as the secret.
  wire::Message hello(const std::string &Key) {
    wire::Message Ch = next();
    auto C = wire::decodeChallenge(Ch);
    EXPECT_TRUE(C.ok());
    wire::Hello H{"raw-client", proveSecret(Key, C.ok() ? C->Nonce : wire::Token{}, "raw-client")};
    EXPECT_TRUE(Client->send(wire::frame(wire::Kind::Hello, 0, wire::encode(H))).ok());
    return next();
  }

  std::string errorText(const wire::Message &M) {
    auto E = wire::decodeError(M);
    return E ? E->Text : "(not an Error: " + std::string(wire::kindName(M.H.What)) + ")";
  }

  uint64_t allocate(uint64_t Id, uint64_t Bytes) {
    EXPECT_TRUE(Client->send(wire::frame(wire::Kind::Allocate, Id,
                                         wire::encode(wire::Allocate{0, Bytes})))
                    .ok());
    wire::Message M = next();
    auto D = wire::decodeDone(M);
    EXPECT_TRUE(D.ok()) << errorText(M);
    EXPECT_EQ(M.H.Request, Id);
    return D ? D->Value : 0;
  }

  Status served() {
    EXPECT_EQ(Served.wait_for(5s), std::future_status::ready);
    return Served.get();
  }

  std::unique_ptr<Server> Srv;
  std::unique_ptr<Connection> Client;
  std::future<Status> Served;
};

TEST_F(Remote, AWrongSecretIsRefusedAndTheConnectionEnds) {
  wire::Message M = hello("not-the-secret-at-all");
  EXPECT_EQ(M.H.What, wire::Kind::Error);
  EXPECT_NE(errorText(M).find("wrong secret"), std::string::npos) << errorText(M);
  Status S = served();
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("wrong secret"), std::string::npos);
}

TEST_F(Remote, ARemoteDeviceAllocatesCopiesAndFrees) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Devices = RemoteDevice::offered(*Link);
  ASSERT_EQ(Devices.size(), 2u);
  EXPECT_EQ(Devices[1]->info().Name, "t.discrete1");
  EXPECT_EQ(Devices[1]->info().Kind, DeviceKind::Remote);
  EXPECT_FALSE(Devices[1]->info().SharesHostMemory);
  Device &D = *Devices[1];

  // Contiguous and strided copies both ways, larger than a data chunk.
  uint64_t N = wire::DataChunkBytes * 2 + 12345;
  auto M = D.allocate(N);
  ASSERT_TRUE(M.ok()) << M.error().message();
  EXPECT_EQ(Srv->allocations(), 1u);
  std::vector<uint8_t> In(N), Out(N, 0);
  std::iota(In.begin(), In.end(), uint8_t(3));
  ASSERT_TRUE(D.copyIn(*M, 0, In.data(), N).ok());
  ASSERT_TRUE(D.finishCopies().ok());
  ASSERT_TRUE(D.copyOut(Out.data(), *M, 0, N).ok());
  EXPECT_EQ(In, Out);

  Rect R{100, 1000, 4096, 700}; // 700 rows of 1000 bytes every 4096
  std::vector<uint8_t> Back(N, 0);
  ASSERT_TRUE(D.copyOutRect(Back.data(), *M, 0, R).ok());
  for (uint64_t Row = 0; Row < R.Rows; ++Row)
    for (uint64_t B : {uint64_t(0), R.RowBytes - 1})
      ASSERT_EQ(Back[R.Offset + Row * R.Pitch + B], In[R.Offset + Row * R.Pitch + B]);
  std::vector<uint8_t> Zero(N, 0);
  ASSERT_TRUE(D.copyInRect(*M, 0, Zero.data(), R).ok());
  ASSERT_TRUE(D.copyOut(Out.data(), *M, 0, N).ok());
  EXPECT_EQ(Out[R.Offset], 0);
  EXPECT_EQ(Out[R.Offset + R.RowBytes], In[R.Offset + R.RowBytes]); // between rows

  D.release(*M);
  ASSERT_TRUE(D.finishCopies().ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, AFailedWriteIsReportedByTheNextCall) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Devices = RemoteDevice::offered(*Link);
  auto M = Devices[0]->allocate(1024);
  ASSERT_TRUE(M.ok());
  std::vector<uint8_t> Bytes(4096, 7);
  // Past the allocation's end: the post succeeds, the next call fails.
  ASSERT_TRUE(Devices[0]->copyIn(*M, 512, Bytes.data(), Bytes.size()).ok());
  Status S = Devices[0]->finishCopies();
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("not in one of this client's allocations"),
            std::string::npos)
      << S.error().message();
  // Reported once; the device goes on.
  EXPECT_TRUE(Devices[0]->finishCopies().ok());
  EXPECT_TRUE(Devices[0]->copyIn(*M, 0, Bytes.data(), 1024).ok());
  EXPECT_TRUE(Devices[0]->finishCopies().ok());
  // Another device's allocation is not this device's.
  std::vector<uint8_t> Out(16);
  S = Devices[1]->copyOut(Out.data(), *M, 0, 16);
  EXPECT_FALSE(S.ok());
}

TEST_F(Remote, MalformedMessagesGetAnErrorAndTheServerGoesOn) {
  ASSERT_EQ(hello(Secret).H.What, wire::Kind::Welcome);
  // A damaged payload: an Error, and the next request is served.
  std::vector<uint8_t> Bad = wire::frame(wire::Kind::Allocate, 5,
                                         wire::encode(wire::Allocate{0, 64}));
  Bad.back() ^= 1;
  ASSERT_TRUE(Client->send(Bad).ok());
  wire::Message M = next();
  EXPECT_NE(errorText(M).find("does not match its CRC"), std::string::npos) << errorText(M);
  uint64_t A = allocate(6, 64);
  EXPECT_NE(A, 0u);

  // Requests that decode but ask for what is not there.
  auto Expect = [&](wire::Kind K, const wire::Writer &P, const char *Says) {
    ASSERT_TRUE(Client->send(wire::frame(K, 9, P)).ok());
    wire::Message R = next();
    EXPECT_EQ(R.H.Request, 9u);
    EXPECT_NE(errorText(R).find(Says), std::string::npos) << errorText(R);
  };
  Expect(wire::Kind::Allocate, wire::encode(wire::Allocate{7, 64}), "no device 7");
  Expect(wire::Kind::Allocate, wire::encode(wire::Allocate{0, ~0ull}), "cannot allocate");
  Expect(wire::Kind::LoadKernel, wire::encode(wire::LoadKernel{0, 3, "k"}), "no module 3");
  Expect(wire::Kind::Read, wire::encode(wire::Transfer{0, {A + 60, 8, 8, 1}}),
         "not in one of this client's allocations");
  wire::Run Ru;
  Ru.Kernel = 0;
  Ru.Count = 1;
  Expect(wire::Kind::Run, wire::encode(Ru), "no kernel 0");
  wire::LoadModule L;
  Expect(wire::Kind::LoadModule, wire::encode(L), "send it");
  // Hostile counts: a Run claiming a billion arguments.
  wire::Writer Hostile;
  Hostile.u32(0);
  Hostile.u64(0);
  Hostile.u32(1u << 30);
  Expect(wire::Kind::Run, Hostile, "argument count");
  // A kind a client does not send.
  Expect(wire::Kind::Welcome, wire::encode(Srv->welcome()), "a client does not send Welcome");
  // A release of what it does not hold, deferred to the next call.
  ASSERT_TRUE(
      Client->send(wire::frame(wire::Kind::Release, 10, wire::encode(wire::Release{0, A + 1})))
          .ok());
  Expect(wire::Kind::Sync, wire::empty(), "not one of this client's allocations");
  EXPECT_EQ(Srv->allocations(), 1u);

  // A header that is not SKMD's: the stream cannot be followed; the
  // server ends the connection and frees the allocation.
  std::vector<uint8_t> Junk(wire::HeaderBytes, 'x');
  ASSERT_TRUE(Client->send(Junk).ok());
  Status S = served();
  EXPECT_FALSE(S.ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, AClientThatDiesMidWriteIsFreed) {
  ASSERT_EQ(hello(Secret).H.What, wire::Kind::Welcome);
  uint64_t A = allocate(1, 1 << 20);
  ASSERT_NE(A, 0u);
  EXPECT_EQ(Srv->allocations(), 1u);
  // A Write of 1 MiB with 100 bytes of it, then the client is gone.
  std::vector<uint8_t> Some(100, 1);
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Write, 2,
                                       wire::encode(wire::Transfer{0, {A, 1 << 20, 1 << 20, 1}})),
                           Some.data(), Some.size())
                  .ok());
  Client.reset();
  Status S = served();
  EXPECT_FALSE(S.ok());
  EXPECT_EQ(Srv->allocations(), 0u);
  EXPECT_EQ(Srv->clients(), 0u);
}

TEST_F(Remote, ASilentClientIsDropped) {
  ASSERT_EQ(hello(Secret).H.What, wire::Kind::Welcome);
  allocate(1, 4096);
  // No heartbeat, no request: dropped after the silence limit (1 s).
  Status S = served();
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("no word"), std::string::npos) << S.error().message();
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, ALostServerFailsEveryCallWithDeviceFailed) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Devices = RemoteDevice::offered(*Link);
  auto M = Devices[0]->allocate(4096);
  ASSERT_TRUE(M.ok());
  Srv->stop(); // the session ends, the connection closes
  EXPECT_FALSE(served().ok());
  std::vector<uint8_t> Out(16);
  Status S = Devices[0]->copyOut(Out.data(), *M, 0, 16);
  ASSERT_FALSE(S.ok());
  EXPECT_EQ(S.error().code(), ErrorCode::DeviceFailed);
  EXPECT_NE(S.error().message().find("skmd-server t"), std::string::npos) << S.error().message();
  EXPECT_FALSE(Devices[0]->allocate(16).ok());
}

TEST(RemoteAddress, AddressesAreParsedOrRefused) {
  auto U = parseServerAddress("unix:/run/skmd.sock");
  ASSERT_TRUE(U.ok());
  EXPECT_EQ(U->Kind, ServerAddress::Unix);
  EXPECT_EQ(U->Where, "/run/skmd.sock");
  auto M = parseServerAddress("mpi:node7");
  ASSERT_TRUE(M.ok());
  EXPECT_EQ(M->Kind, ServerAddress::Mpi);
  EXPECT_FALSE(parseServerAddress("tcp:1.2.3.4").ok());
  EXPECT_FALSE(parseServerAddress("unix:").ok());
  // Nobody listens there: a clear error, soon.
  auto C = connectUnix("/nonexistent/skmd.sock", 100ms);
  ASSERT_FALSE(C.ok());
  EXPECT_NE(C.error().message().find("no skmd-server at unix:/nonexistent/skmd.sock"),
            std::string::npos);
}

} // namespace
