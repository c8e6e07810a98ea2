//===- ServerLink.cpp - A client's session with one skmd-server -----------===//
#include "devices/remote/ServerLink.h"
#include "devices/remote/Secret.h"
#include "devices/remote/SharedMemory.h"

#include <cstdlib>
#include <unistd.h>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds envMs(const char *Name, std::chrono::milliseconds Default) {
  if (const char *Env = std::getenv(Name)) {
    long V = std::atol(Env);
    if (V > 0)
      return std::chrono::milliseconds(V);
  }
  return Default;
}

std::string clientName() {
  char Host[256] = "?";
  gethostname(Host, sizeof(Host) - 1);
  return std::string(Host) + ":" + std::to_string(getpid());
}

/// \p M as the error it carries, if it is an Error.
std::optional<Failure> carriedError(const wire::Message &M) {
  if (M.H.What != wire::Kind::Error)
    return std::nullopt;
  auto E = wire::decodeError(M);
  if (!E)
    return E.error();
  return Failure(E->Code, E->Text);
}

} // namespace

LinkTimes LinkTimes::fromEnvironment() {
  LinkTimes T;
  T.Heartbeat = envMs("SKMD_REMOTE_HEARTBEAT_MS", T.Heartbeat);
  T.Silence = envMs("SKMD_REMOTE_TIMEOUT_MS", T.Silence);
  return T;
}

Result<std::shared_ptr<ServerLink>> ServerLink::open(std::unique_ptr<Connection> C,
                                                     const std::string &Secret,
                                                     LinkTimes Times) {
  std::string Peer = C->peer();
  C->setPatience(Times.Silence);
  auto Fail = [&](const Failure &F) {
    return Failure(F.code() == ErrorCode::InvalidArgument ? ErrorCode::NoDevice : F.code(),
                   Peer + ": " + F.message());
  };
  // The server's next message of the handshake (\p What), or why not.
  auto Next = [&](const char *What, const char *Hint) -> Result<wire::Message> {
    auto M = C->receive(Times.Silence);
    // A server of an earlier version beats during the handshake too.
    while (M && *M && (**M).H.What == wire::Kind::Heartbeat)
      M = C->receive(Times.Silence);
    if (!M)
      return Fail(M.error());
    if (!*M)
      return Fail(Failure(ErrorCode::NoDevice, std::string("no ") + What + " within " +
                                                   std::to_string(Times.Silence.count()) +
                                                   " ms" + Hint));
    if (auto E = carriedError(**M))
      return Fail(*E);
    return std::move(**M);
  };
  // The server speaks first.
  auto First = Next("Challenge", ": is it an skmd-server?");
  if (!First)
    return First.error();
  auto Ch = wire::decodeChallenge(*First);
  if (!Ch)
    return Fail(Ch.error());
  wire::Hello H;
  H.Client = clientName();
  H.Proof = proveSecret(Secret, Ch->Nonce, H.Client);
  if (Status S = C->send(wire::frame(wire::Kind::Hello, 0, wire::encode(H))); !S)
    return Fail(S.error());
  auto Second = Next("Welcome", "");
  if (!Second)
    return Second.error();
  auto W = wire::decodeWelcome(*Second);
  if (!W)
    return Fail(W.error());

  std::shared_ptr<ServerLink> L(new ServerLink(std::move(C), Times));
  L->Hi = std::move(*W);
  L->Name = "skmd-server " + L->Hi.Server + ", " + Peer;
  const char *Share = std::getenv("SKMD_REMOTE_SHARE");
  L->MayShare = !Share || std::string(Share) != "0";
  L->Receiver = std::thread([P = L.get()] { P->receiveLoop(); });
  L->Heartbeats = std::thread([P = L.get()] { P->heartbeatLoop(); });
  return L;
}

ServerLink::~ServerLink() {
  if (alive())
    (void)Line->send(wire::frame(wire::Kind::Goodbye, 0, wire::empty()));
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
  }
  Changed.notify_all();
  Line->close();
  if (Receiver.joinable())
    Receiver.join();
  if (Heartbeats.joinable())
    Heartbeats.join();
}

Status ServerLink::alive() const {
  std::lock_guard<std::mutex> G(Lock);
  if (LostWhy.empty())
    return Status::success();
  return Failure(ErrorCode::DeviceFailed, Name + " is lost: " + LostWhy);
}

void ServerLink::lose(const std::string &Why) {
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!LostWhy.empty())
      return;
    LostWhy = Why;
  }
  Line->close();
  Changed.notify_all();
}

Status ServerLink::post(wire::Kind K, const wire::Writer &Payload, const void *Data,
                        uint64_t DataBytes) {
  if (Status S = alive(); !S)
    return S;
  Status S = Line->send(wire::frame(K, NextRequest++, Payload), Data, DataBytes);
  if (!S) {
    lose(S.error().message());
    return alive();
  }
  return S;
}

template <typename SendFn>
ServerLink::Ticket ServerLink::start(void *ReadInto, uint64_t ReadBytes, SendFn &&Send) {
  Ticket T;
  T.P = std::make_shared<Pending>();
  T.P->ReadInto = ReadInto;
  T.P->ReadBytes = ReadBytes;
  T.Id = NextRequest++;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!LostWhy.empty())
      return T; // wait() says why
    Waiting[T.Id] = T.P;
  }
  Status Sent = Send(T.Id);
  if (!Sent)
    lose(Sent.error().message());
  return T;
}

ServerLink::Ticket ServerLink::begin(wire::Kind K, const wire::Writer &Payload,
                                     const void *Data, uint64_t DataBytes, void *ReadInto,
                                     uint64_t ReadBytes) {
  return start(ReadInto, ReadBytes, [&](uint64_t Id) {
    return Line->send(wire::frame(K, Id, Payload), Data, DataBytes);
  });
}

Result<wire::Message> ServerLink::wait(Ticket &T) {
  if (!T.P)
    return Failure(ErrorCode::InvalidArgument, "a request waited for twice");
  std::shared_ptr<Pending> P = std::move(T.P);
  std::unique_lock<std::mutex> G(Lock);
  Changed.wait(G, [&] { return (P->Answered || !LostWhy.empty() || Stopping) && !P->Filling; });
  Waiting.erase(T.Id);
  if (!P->Answered)
    return Failure(ErrorCode::DeviceFailed,
                   Name + " is lost: " + (LostWhy.empty() ? "the client closed" : LostWhy));
  if (!P->Reply)
    return P->Reply;
  if (auto E = carriedError(*P->Reply))
    return *E;
  return P->Reply;
}

Result<wire::Message> ServerLink::call(wire::Kind K, const wire::Writer &Payload,
                                       const void *Data, uint64_t DataBytes, void *ReadInto,
                                       uint64_t ReadBytes) {
  Ticket T = begin(K, Payload, Data, DataBytes, ReadInto, ReadBytes);
  return wait(T);
}

Status ServerLink::share(SharedSegment &S) {
  std::lock_guard<std::mutex> G(SharesLock);
  if (Shared.count(S.id()))
    return Status::success();
  if (!sharesMemory())
    return Failure(ErrorCode::InvalidArgument,
                   Name + ": memory is shared only with a server on this node (unix:)");
  Ticket T = start(nullptr, 0, [&](uint64_t Id) {
    return Line->sendWithDescriptor(
        wire::frame(wire::Kind::Share, Id, wire::encode(wire::Share{S.id(), S.bytes()})),
        S.descriptor());
  });
  auto R = wait(T);
  if (!R)
    return R.error();
  if (auto D = wire::decodeDone(*R); !D)
    return D.error();
  Shared.insert(S.id());
  S.sharedWith(shared_from_this());
  return Status::success();
}

void ServerLink::unshare(uint64_t Id) {
  {
    std::lock_guard<std::mutex> G(SharesLock);
    if (!Shared.erase(Id))
      return;
  }
  (void)post(wire::Kind::Unshare, wire::encode(wire::Unshare{Id}));
}

void ServerLink::answer(wire::Message M) {
  std::unique_lock<std::mutex> G(Lock);
  auto It = Waiting.find(M.H.Request);
  if (It == Waiting.end()) {
    G.unlock();
    // An Error for no request in particular: the server gives up on us.
    if (auto E = carriedError(M))
      return lose("it said: " + E->message());
    return lose(std::string("a ") + wire::kindName(M.H.What) + " for request " +
                std::to_string(M.H.Request) + ", which is not waiting");
  }
  Pending &P = *It->second;
  if (M.H.What == wire::Kind::ReadData) {
    auto D = wire::decodeReadData(M);
    if (!D || D->Bytes != P.ReadBytes) {
      G.unlock();
      return lose(D ? "ReadData of " + std::to_string(D->Bytes) + " bytes where " +
                          std::to_string(P.ReadBytes) + " were asked for"
                    : D.error().message());
    }
    // The caller waits until Filling ends, so its memory stays while the
    // bytes land, without the lock.
    P.Filling = true;
    G.unlock();
    Status S = Line->receiveData(P.ReadInto, P.ReadBytes, Times.Silence);
    G.lock();
    P.Filling = false;
    if (!S) {
      G.unlock();
      Changed.notify_all();
      return lose(S.error().message());
    }
  }
  P.Reply = std::move(M);
  P.Answered = true;
  G.unlock();
  Changed.notify_all();
}

void ServerLink::receiveLoop() {
  auto Heard = Clock::now();
  for (;;) {
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Stopping || !LostWhy.empty())
        return;
    }
    auto M = Line->receive(std::chrono::milliseconds(100));
    if (!M) {
      lose(M.error().message());
      return;
    }
    if (!*M) {
      if (Clock::now() - Heard > Times.Silence) {
        lose("no word from it for " + std::to_string(Times.Silence.count()) + " ms");
        return;
      }
      continue;
    }
    Heard = Clock::now();
    if ((*M)->H.What == wire::Kind::Heartbeat)
      continue;
    answer(std::move(**M));
  }
}

void ServerLink::heartbeatLoop() {
  std::unique_lock<std::mutex> G(Lock);
  while (!Stopping && LostWhy.empty()) {
    if (Changed.wait_for(G, Times.Heartbeat, [&] { return Stopping || !LostWhy.empty(); }))
      return;
    G.unlock();
    Status S = Line->send(wire::frame(wire::Kind::Heartbeat, 0, wire::empty()));
    G.lock();
    if (!S) {
      G.unlock();
      lose(S.error().message());
      return;
    }
  }
}

} // namespace skmd
