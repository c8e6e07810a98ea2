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
#include "common/ServerReplies.h"
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/remote/RemoteDevice.h"
#include "devices/remote/Secret.h"
#include "devices/remote/SharedMemory.h"
#include "devices/remote/SocketConnection.h"
#include "wire/Requests.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <future>
#include <numeric>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

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
    bool passesDescriptors() const override { return C->passesDescriptors(); }
    Result<int> receiveDescriptor(std::chrono::milliseconds W) override {
      return C->receiveDescriptor(W);
    }
    void close() override { C->close(); }
    std::shared_ptr<Connection> C;
  };

  /// The server's answer to the client's next message, heartbeats skipped.
  wire::Message next() { return test::nextReply(*Client); }
  std::string errorText(const wire::Message &M) { return test::errorText(M); }

  /// The handshake by hand, with \p Key as the secret.
  wire::Message hello(const std::string &Key) {
    wire::Message Ch = next();
    auto C = wire::decodeChallenge(Ch);
    EXPECT_TRUE(C.ok());
    wire::Hello H{"raw-client", proveSecret(Key, C.ok() ? C->Nonce : wire::Token{}, "raw-client")};
    EXPECT_TRUE(Client->send(wire::frame(wire::Kind::Hello, 0, wire::encode(H))).ok());
    return next();
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

/// Copies out of \p M (holding \p In's N bytes) queued behind a mark, as
/// a launch queues a piece's: they have landed once the mark after them
/// finished, and not one byte between rows.
void expectQueuedCopiesOut(Device &D, DeviceMemory M, const uint8_t *In, uint8_t *Out,
                           uint64_t N) {
  ASSERT_TRUE(D.info().QueuesWork);
  auto In1 = D.mark(DeviceStream::ToDevice);
  ASSERT_TRUE(In1.ok()) << In1.error().message();
  ASSERT_TRUE(D.waitFor(DeviceStream::ToHost, *In1).ok());
  std::fill(Out, Out + N, 0);
  // A small strided one (the socket, or the segment), a long one (the
  // ring, or the segment).
  Rect Small{64, 100, 300, 20}, Long{N / 2, N / 2 - 64, N / 2, 1};
  ASSERT_TRUE(D.queueCopyOutRect(Out, M, 0, Small).ok());
  ASSERT_TRUE(D.queueCopyOutRect(Out, M, 0, Long).ok());
  auto Out1 = D.mark(DeviceStream::ToHost);
  ASSERT_TRUE(Out1.ok()) << Out1.error().message();
  ASSERT_TRUE(D.finish(*Out1).ok());
  ASSERT_TRUE(D.finish(*In1).ok());
  for (uint64_t Row = 0; Row < Small.Rows; ++Row) {
    uint64_t At = Small.Offset + Row * Small.Pitch;
    ASSERT_TRUE(std::equal(In + At, In + At + Small.RowBytes, Out + At)) << "row " << Row;
    ASSERT_EQ(Out[At + Small.RowBytes], 0) << "between rows " << Row;
  }
  ASSERT_TRUE(std::equal(In + Long.Offset, In + Long.end(), Out + Long.Offset));
  EXPECT_EQ(Out[Long.end()], 0);
  D.releaseMark(*In1);
  D.releaseMark(*Out1);
}

/// Copies to \p D and back, contiguous and strided, larger than a data
/// chunk and a staging slot, from and to \p Host's memory (N bytes).
void expectCopiesRoundTrip(Device &D, uint8_t *In, uint8_t *Out, uint64_t N) {
  auto M = D.allocate(N);
  ASSERT_TRUE(M.ok()) << M.error().message();
  std::iota(In, In + N, uint8_t(3));
  std::fill(Out, Out + N, 0);
  ASSERT_TRUE(D.copyIn(*M, 0, In, N).ok());
  ASSERT_TRUE(D.finishCopies().ok());
  ASSERT_TRUE(D.copyOut(Out, *M, 0, N).ok());
  ASSERT_TRUE(std::equal(In, In + N, Out));

  // 700 rows of 1000 bytes every 4096 (packed, under a MiB), then 3 rows
  // of 1.5 MiB every 2 MiB (each longer than a 1 MiB slot).
  for (Rect R : {Rect{100, 1000, 4096, 700}, Rect{100, 3u << 19, 2u << 20, 3}}) {
    std::fill(Out, Out + N, 0);
    ASSERT_TRUE(D.copyOutRect(Out, *M, 0, R).ok());
    for (uint64_t Row = 0; Row < R.Rows; ++Row)
      for (uint64_t B : {uint64_t(0), R.RowBytes / 2, R.RowBytes - 1})
        ASSERT_EQ(Out[R.Offset + Row * R.Pitch + B], In[R.Offset + Row * R.Pitch + B]);
    EXPECT_EQ(Out[R.Offset + R.RowBytes], 0); // between rows: not copied
    std::vector<uint8_t> Zero(N, 0);
    ASSERT_TRUE(D.copyInRect(*M, 0, Zero.data(), R).ok());
    ASSERT_TRUE(D.copyOut(Out, *M, 0, N).ok());
    EXPECT_EQ(Out[R.Offset], 0);
    EXPECT_EQ(Out[R.Offset + (R.Rows - 1) * R.Pitch + R.RowBytes - 1], 0);
    EXPECT_EQ(Out[R.Offset + R.RowBytes], In[R.Offset + R.RowBytes]); // between rows
    ASSERT_TRUE(D.copyIn(*M, 0, In, N).ok()); // as before, for the next
  }
  expectQueuedCopiesOut(D, *M, In, Out, N);
  D.release(*M);
  ASSERT_TRUE(D.finishCopies().ok());
}

/// Sets an environment variable for one test.
struct ScopedEnv {
  ScopedEnv(const char *Name, const char *Value) : Name(Name) { setenv(Name, Value, 1); }
  ~ScopedEnv() { unsetenv(Name); }
  const char *Name;
};

TEST_F(Remote, ARemoteDeviceAllocatesCopiesAndFreesThroughTheSocket) {
  ScopedEnv NoSharing("SKMD_REMOTE_SHARE", "0");
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  EXPECT_FALSE((*Link)->sharesMemory());
  auto Devices = RemoteDevice::offered(*Link);
  ASSERT_EQ(Devices.size(), 2u);
  EXPECT_EQ(Devices[1]->info().Name, "t.discrete1");
  EXPECT_EQ(Devices[1]->info().Kind, DeviceKind::Remote);
  EXPECT_FALSE(Devices[1]->info().SharesHostMemory);
  EXPECT_EQ(Devices[1]->allocPinnedHost(4096), nullptr);

  uint64_t N = wire::DataChunkBytes * 2 + 12345;
  std::vector<uint8_t> In(N), Out(N);
  expectCopiesRoundTrip(*Devices[1], In.data(), Out.data(), N);
  EXPECT_EQ(Srv->sharedSegments(), 0u);
  // The released allocation is kept for the next of its size, which
  // costs no round trip; the device lets it go when it goes.
  ASSERT_TRUE(Devices[1]->finishCopies().ok());
  EXPECT_EQ(Srv->allocations(), 1u);
  auto Again = Devices[1]->allocate(N);
  ASSERT_TRUE(Again.ok());
  EXPECT_EQ(Srv->allocations(), 1u);
  Devices[1]->release(*Again);
  Devices.clear();
  ASSERT_TRUE((*Link)->call(wire::Kind::Sync, wire::encode(wire::Sync{0})).ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, OrdinaryMemoryGoesThroughTheStagingRing) {
  ScopedEnv Slot("SKMD_REMOTE_SLOT_MB", "1");
  ScopedEnv Copiers("SKMD_REMOTE_COPY_THREADS", "2");
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  ASSERT_TRUE((*Link)->sharesMemory());
  auto Devices = RemoteDevice::offered(*Link);
  uint64_t N = wire::DataChunkBytes * 2 + 12345;
  std::vector<uint8_t> In(N), Out(N);
  expectCopiesRoundTrip(*Devices[1], In.data(), Out.data(), N);
  EXPECT_EQ(Srv->sharedSegments(), 1u); // the ring
  Devices.clear();
  ASSERT_TRUE((*Link)->call(wire::Kind::Sync, wire::encode(wire::Sync{0})).ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, PageLockedMemoryIsSharedWithTheServer) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Devices = RemoteDevice::offered(*Link);
  Device &D = *Devices[0];
  uint64_t N = wire::DataChunkBytes * 2 + 12345;
  auto *In = static_cast<uint8_t *>(D.allocPinnedHost(N));
  auto *Out = static_cast<uint8_t *>(Devices[1]->allocPinnedHost(N));
  ASSERT_NE(In, nullptr);
  ASSERT_NE(Out, nullptr);
  EXPECT_TRUE(D.isPinnedHost(In + 10, N - 10));
  EXPECT_FALSE(D.isPinnedHost(In + 10, N + 8192)); // past its end
  EXPECT_EQ(Srv->sharedSegments(), 2u);
  expectCopiesRoundTrip(D, In, Out, N);
  // And the staging ring, which the zeros in ordinary memory took.
  EXPECT_EQ(Srv->sharedSegments(), 3u);
  D.freePinnedHost(In);
  Devices[1]->freePinnedHost(Out);
  ASSERT_TRUE(D.finishCopies().ok()); // the Unshares were served before
  EXPECT_EQ(Srv->sharedSegments(), 1u);
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

// A posted request's failure is its device's alone: another device of the
// server is not blamed for it (and so trusted after it), and the failed
// device's next mark, not only its next Sync, reports it.
TEST_F(Remote, AFailedPostIsReportedByItsOwnDeviceAlone) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Devices = RemoteDevice::offered(*Link);
  auto M = Devices[0]->allocate(1024);
  ASSERT_TRUE(M.ok());
  std::vector<uint8_t> Bytes(4096, 7);
  ASSERT_TRUE(Devices[0]->copyIn(*M, 512, Bytes.data(), Bytes.size()).ok());
  EXPECT_TRUE(Devices[1]->finishCopies().ok());
  auto Other = Devices[1]->mark(DeviceStream::Compute);
  ASSERT_TRUE(Other.ok());
  EXPECT_TRUE(Devices[1]->finish(*Other).ok());
  Devices[1]->releaseMark(*Other);
  auto Mine = Devices[0]->mark(DeviceStream::ToDevice);
  ASSERT_TRUE(Mine.ok());
  Status S = Devices[0]->finish(*Mine);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("not in one of this client's allocations"),
            std::string::npos)
      << S.error().message();
  EXPECT_NE(S.error().message().find("t.discrete0"), std::string::npos) << S.error().message();
  Devices[0]->releaseMark(*Mine);
  EXPECT_TRUE(Devices[0]->finishCopies().ok());
}

// Marks a client makes, waits for and lets go of on the server's devices:
// what it never made, made twice, or made on another device gets an
// Error, deferred where the request was posted, to that device's next call.
TEST_F(Remote, HostileMarksGetAnErrorAndTheServerGoesOn) {
  ASSERT_EQ(hello(Secret).H.What, wire::Kind::Welcome);
  auto Send = [&](wire::Kind K, uint64_t Id, const wire::Writer &P) {
    ASSERT_TRUE(Client->send(wire::frame(K, Id, P)).ok());
  };
  auto Expect = [&](const wire::Message &R, uint64_t Id, const char *Says) {
    EXPECT_EQ(R.H.Request, Id);
    if (Says)
      EXPECT_NE(errorText(R).find(Says), std::string::npos) << errorText(R);
    else
      EXPECT_EQ(R.H.What, wire::Kind::Done) << errorText(R);
  };
  auto Mark = [](uint32_t Device, uint64_t Id) {
    return wire::encode(wire::QueueMark{Device, Id});
  };
  Send(wire::Kind::Mark, 2, Mark(0, 0));
  Expect(next(), 2, "names mark 0");
  Send(wire::Kind::Mark, 3, Mark(9, 1));
  Expect(next(), 3, "no device 9");
  Send(wire::Kind::Mark, 4, Mark(0, 7));
  Expect(next(), 4, nullptr);
  Send(wire::Kind::Mark, 5, Mark(0, 7));
  Expect(next(), 5, "made already");
  // Another device's numbers are its own.
  Send(wire::Kind::Mark, 6, Mark(1, 7));
  Expect(next(), 6, nullptr);
  // Posted: a ReleaseMark of a mark never made; the device's next call,
  // and not another device's, reports it.
  Send(wire::Kind::ReleaseMark, 7, Mark(1, 99));
  Send(wire::Kind::Sync, 8, wire::encode(wire::Sync{0}));
  Expect(next(), 8, nullptr);
  Send(wire::Kind::Sync, 9, wire::encode(wire::Sync{1}));
  Expect(next(), 9, "mark 99, which this client holds on no device 1");
  // Let go twice: the second is refused.
  Send(wire::Kind::ReleaseMark, 10, Mark(0, 7));
  Send(wire::Kind::ReleaseMark, 11, Mark(0, 7));
  Send(wire::Kind::Mark, 12, Mark(0, 8));
  Expect(next(), 12, "mark 7");
  // A Run naming arguments as the same as last time, of no kernel.
  wire::Run Ru;
  Ru.Count = 1;
  Ru.Args.push_back(wire::Arg::same());
  Send(wire::Kind::Run, 14, wire::encode(Ru));
  Expect(next(), 14, "no kernel 0");
  Send(wire::Kind::Goodbye, 0, wire::empty());
  EXPECT_TRUE(served().ok());
}

// A server counts, per device, the other clients that used it in the last
// second: what a client's plans take for the device's load.
TEST_F(Remote, ADeviceOthersUseReportsThemAsItsLoad) {
  auto Link = ServerLink::open(std::move(Client), Secret, quick());
  ASSERT_TRUE(Link.ok()) << Link.error().message();
  auto Mine = RemoteDevice::offered(*Link);
  auto Pair = socketPair();
  ASSERT_TRUE(Pair.ok());
  auto Other = std::async(std::launch::async, [this, C = std::move(Pair->second)]() mutable {
    return Srv->serve(std::move(C));
  });
  {
    auto OtherLink = ServerLink::open(std::move(Pair->first), Secret, quick());
    ASSERT_TRUE(OtherLink.ok()) << OtherLink.error().message();
    auto Theirs = RemoteDevice::offered(*OtherLink);
    auto M = Theirs[0]->allocate(4096);
    ASSERT_TRUE(M.ok());
    std::vector<uint8_t> Bytes(4096, 1);
    ASSERT_TRUE(Theirs[0]->copyIn(*M, 0, Bytes.data(), Bytes.size()).ok());
    ASSERT_TRUE(Theirs[0]->finishCopies().ok());
    Mine[0]->refreshOtherUsers();
    Mine[1]->refreshOtherUsers();
    EXPECT_EQ(Mine[0]->info().OtherUsers, 1u);
    EXPECT_EQ(Mine[1]->info().OtherUsers, 0u);
    // Its own use is not its load.
    auto Own = Mine[1]->allocate(4096);
    ASSERT_TRUE(Own.ok());
    ASSERT_TRUE(Mine[1]->copyIn(*Own, 0, Bytes.data(), Bytes.size()).ok());
    ASSERT_TRUE(Mine[1]->finishCopies().ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    Mine[1]->refreshOtherUsers();
    EXPECT_EQ(Mine[1]->info().OtherUsers, 0u);
  }
  // The other client left: no load after the next question.
  ASSERT_EQ(Other.wait_for(5s), std::future_status::ready);
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  Mine[0]->refreshOtherUsers();
  EXPECT_EQ(Mine[0]->info().OtherUsers, 0u);
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
  Expect(wire::Kind::Sync, wire::encode(wire::Sync{0}), "not one of this client's allocations");
  EXPECT_EQ(Srv->allocations(), 1u);

  // A header that is not SKMD's: the stream cannot be followed; the
  // server ends the connection and frees the allocation.
  std::vector<uint8_t> Junk(wire::HeaderBytes, 'x');
  ASSERT_TRUE(Client->send(Junk).ok());
  Status S = served();
  EXPECT_FALSE(S.ok());
  EXPECT_EQ(Srv->allocations(), 0u);
}

TEST_F(Remote, HostileSharesGetAnErrorAndTheServerGoesOn) {
  ASSERT_EQ(hello(Secret).H.What, wire::Kind::Welcome);
  uint64_t A = allocate(1, 1 << 20);
  auto Share = [&](uint64_t Id, uint64_t Segment, uint64_t Bytes, int Fd) {
    auto F = wire::frame(wire::Kind::Share, Id, wire::encode(wire::Share{Segment, Bytes}));
    if (Fd >= 0)
      EXPECT_TRUE(Client->sendWithDescriptor(F, Fd).ok());
    else { // the byte, without a descriptor
      uint8_t Byte = 0;
      EXPECT_TRUE(Client->send(F, &Byte, 1).ok());
    }
    return next();
  };
  auto Expect = [&](const wire::Message &R, const char *Says) {
    EXPECT_NE(errorText(R).find(Says), std::string::npos) << errorText(R);
  };
  Expect(Share(2, 1, 4096, -1), "without its descriptor");
  // A file that is not a sealed memfd: it could shrink under the mapping.
  int Plain = ::memfd_create("plain", MFD_CLOEXEC);
  ASSERT_GE(Plain, 0);
  ASSERT_EQ(::ftruncate(Plain, 1 << 20), 0);
  Expect(Share(3, 1, 4096, Plain), "sealed against shrinking");
  ::close(Plain);
  auto Seg = SharedSegment::create(1 << 16);
  ASSERT_TRUE(Seg.ok());
  Expect(Share(4, 1, 1 << 20, (*Seg)->descriptor()), "were announced");
  ASSERT_EQ(Share(5, 1, 1 << 16, (*Seg)->descriptor()).H.What, wire::Kind::Done);
  Expect(Share(6, 1, 1 << 16, (*Seg)->descriptor()), "shared already");
  EXPECT_EQ(Srv->sharedSegments(), 1u);

  auto Copy = [&](wire::Kind K, uint64_t Segment, uint64_t Offset, wire::Region Where,
                  const char *Says) {
    wire::SharedTransfer T;
    T.Where = Where;
    T.Segment = Segment;
    T.Offset = Offset;
    T.HostPitch = Where.Pitch;
    T.Flags = wire::SharedTransfer::AnswerWhenLanded;
    ASSERT_TRUE(Client->send(wire::frame(K, 7, wire::encode(T))).ok());
    wire::Message R = next();
    if (Says)
      Expect(R, Says);
    else
      EXPECT_EQ(R.H.What, wire::Kind::Done) << errorText(R);
  };
  Copy(wire::Kind::WriteShared, 9, 0, {A, 64, 64, 1}, "segment 9 is not shared");
  Copy(wire::Kind::ReadShared, 1, (1 << 16) - 8, {A, 64, 64, 1}, "which has 65536");
  Copy(wire::Kind::WriteShared, 1, 0, {A + (1 << 20) - 8, 64, 64, 1},
       "not in one of this client's allocations");
  Copy(wire::Kind::WriteShared, 1, 0, {A, 64, 64, 1}, nullptr);
  Copy(wire::Kind::ReadShared, 1, 64, {A, 64, 128, 4}, nullptr);
  // Unshare of what is not shared: deferred to the next call.
  ASSERT_TRUE(
      Client->send(wire::frame(wire::Kind::Unshare, 8, wire::encode(wire::Unshare{5}))).ok());
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Sync, 9, wire::encode(wire::Sync{1}))).ok());
  Expect(next(), "which is not shared");
  // The client leaves: its segment goes with it.
  ASSERT_TRUE(Client->send(wire::frame(wire::Kind::Goodbye, 0, wire::empty())).ok());
  EXPECT_TRUE(served().ok());
  EXPECT_EQ(Srv->sharedSegments(), 0u);
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
