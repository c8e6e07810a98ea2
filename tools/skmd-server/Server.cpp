//===- Server.cpp - skmd-server: a node's devices for other processes -----===//
#include "Server.h"
#include "devices/remote/RemoteDevice.h"
#include "devices/remote/Secret.h"
#include "devices/remote/SharedMemory.h"
#include "wire/Requests.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <set>
#include <unistd.h>

namespace skmd {

namespace {

using Clock = std::chrono::steady_clock;

/// The largest bundle a client may send.
constexpr uint64_t MaxBundleBytes = 1ull << 30;
/// The most marks a client may hold (a launch holds a few per piece).
constexpr size_t MaxMarks = 1u << 16;

wire::DeviceOffer offer(const DeviceInfo &I) {
  wire::DeviceOffer O;
  O.Name = I.Name;
  O.Description = I.Description;
  O.Variant = uint8_t(I.Variant);
  O.ComputeUnits = I.ComputeUnits;
  O.LanesPerUnit = I.LanesPerUnit;
  O.MemoryBytes = I.MemoryBytes;
  O.BuffersAreHandles = I.BuffersAreHandles;
  O.LinkGBps = I.LinkGBps;
  return O;
}

/// Page-locked staging for one device where it has such memory (so a
/// GPU's copies run at its DMA speed), ordinary memory otherwise.
class Staging {
public:
  Staging(Device &D, uint64_t Bytes) : D(D) {
    P = D.allocPinnedHost(Bytes);
    Pinned = P != nullptr;
    if (!P) {
      Plain.resize(Bytes);
      P = Plain.data();
    }
  }
  Staging(const Staging &) = delete;
  Staging &operator=(const Staging &) = delete;
  ~Staging() {
    if (Pinned)
      D.freePinnedHost(P);
  }
  char *data() { return static_cast<char *>(P); }

private:
  Device &D;
  void *P = nullptr;
  bool Pinned = false;
  std::vector<char> Plain;
};

/// Calls \p Piece(Offset, Done, Bytes) for each piece of a row that the
/// packed bytes [At, At + Bytes) of \p R fill: Offset in the allocation
/// (whose byte \p Base is the region's first), Done from At. Stops at the
/// first failure.
template <typename Fn>
Status eachRowPiece(const wire::Region &R, uint64_t Base, uint64_t At, uint64_t Bytes,
                    Fn &&Piece) {
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t Row = (At + Done) / R.RowBytes, InRow = (At + Done) % R.RowBytes;
    uint64_t N = std::min(Bytes - Done, R.RowBytes - InRow);
    if (Status St = Piece(Base + Row * R.Pitch + InRow, Done, N); !St)
      return St;
    Done += N;
  }
  return Status::success();
}

} // namespace

/// One client: its handshake, its requests in order, what it holds.
class ClientSession {
public:
  ClientSession(Server &S, Connection &C) : S(S), C(C) {}
  ~ClientSession() {
    stopMarks();
    freeAll();
    for (auto &Sl : S.Devices) {
      // Its step ends: the others' batch goes on without it.
      if (Sl->Batcher)
        Sl->Batcher->leave(this);
      std::lock_guard<std::mutex> G(Sl->UsersLock);
      Sl->LastUse.erase(this);
    }
  }

  /// Challenge, Hello, Welcome: the client proves it holds the secret.
  Status handshake();
  /// The client's requests until it leaves (after the handshake).
  Status run();
  /// What it did, for the log: "12 requests, 3 runs, 1.5 MB in, 0.4 MB out".
  std::string summary() const {
    char Text[160];
    std::snprintf(Text, sizeof(Text), "%llu requests, %llu runs, %.1f MB in, %.1f MB out",
                  (unsigned long long)Requests, (unsigned long long)Runs, BytesIn / 1e6,
                  BytesOut / 1e6);
    return Text;
  }

private:
  struct Held {
    std::shared_ptr<DeviceModule> Module;
    std::shared_ptr<const Bundle> Source;
    uint32_t Device;
  };
  struct HeldKernel {
    std::unique_ptr<DeviceKernel> K;
    uint32_t Device;
    /// Its last Run's arguments (wire::Arg::Same names them).
    std::vector<DeviceArg> Last;
  };
  /// A mark the client made on a device's stream.
  struct HeldMark {
    Device *On = nullptr;  ///< the handle it was made on
    uint64_t OnDevice = 0; ///< 0: nothing to wait for
    bool Finished = false;
    bool Released = false;
  };

  /// Runs one request; an error ends the connection (the stream is lost).
  Status handle(const wire::Message &M);
  /// Answers request \p Id with \p R: Done, or the Error it carries.
  Status reply(uint64_t Id, const Result<wire::Done> &R);
  /// A posted request's failure, kept for the reply to device
  /// \p Device's next call (AnyDevice: a request that named no device
  /// well, for the next call of any device); the first one is kept.
  static constexpr uint32_t AnyDevice = ~0u;
  void defer(uint32_t Device, const Failure &F) { Deferred.emplace(Device, F); }
  /// The failure kept for \p Device's next call, taken; none if none.
  std::optional<Failure> takeDeferred(uint32_t Device);
  /// Whether a failure waits for \p Device's next call.
  bool deferred(uint32_t Device) const {
    return Deferred.count(Device) || Deferred.count(AnyDevice);
  }

  Result<wire::Done> loadModule(const wire::Message &M, bool &StreamLost);
  Result<wire::Done> loadKernel(const wire::LoadKernel &L);
  Result<wire::Done> allocate(const wire::Allocate &A);
  Status release(const wire::Release &R);
  /// Receives a Write's data (always all of it, to stay in step) into
  /// the region if the region is the client's.
  Status write(const wire::Transfer &T, bool &StreamLost);
  /// Sends ReadData and the region's bytes, or an Error.
  Status read(uint64_t Id, const wire::Transfer &T);
  /// Runs \p R's kernel, or queues it (Run::Queued); its arguments go
  /// into the kernel's cache first, whether it runs or not.
  Result<wire::Done> runKernel(const wire::Run &R);
  /// \p R's arguments, those named Same from the kernel's last Run.
  Result<std::vector<DeviceArg>> runArguments(const wire::Run &R);
  /// A Mark: the device's mark, answered by the completion thread once
  /// the work before it has run.
  Status markQueue(uint64_t Id, const wire::QueueMark &Q);
  Status releaseMark(const wire::QueueMark &Q);
  /// Before work on stream \p S of device \p Index (under its lock): it
  /// waits on the device for the client's work queued before on other
  /// streams, so that the client's requests take effect in order.
  Status follow(uint32_t Index, Device &D, DeviceStream S);
  /// After work on the device (under its lock): work still queued on
  /// stream \p Queued is the client's last; none, and everything before
  /// it has run.
  Status settle(uint32_t Index, Device &D, std::optional<DeviceStream> Queued);
  /// Answers request \p Id once mark \p OnDevice of \p On, the
  /// client's handle on device \p Index, has run (through the completion
  /// thread, which then lets it go).
  void answerWhenRun(uint64_t Id, Device &On, uint32_t Index, uint64_t OnDevice);
  /// Lets go of device \p Index's retired marks up to number \p UpTo
  /// (under the device's lock): the client's work on the device that
  /// waited for them has run.
  void releaseRetired(uint32_t Index, Device &D, uint64_t UpTo);
  /// Answers marks as their work finishes, in the order they were made.
  void completeMarks();
  /// Waits for every mark's work, ends the completion thread, and lets
  /// the device marks go.
  void stopMarks();
  /// Maps a segment the client shares (its descriptor follows), and
  /// page-locks it for every device that can.
  Result<wire::Done> share(const wire::Message &M, bool &StreamLost);
  Status unshare(const wire::Unshare &U);
  /// A copy between a device region and a shared segment's rows.
  /// With \p AnswerId, a copy the client waits for (a ReadShared, a
  /// WriteShared answered once landed): where the device queues it, the
  /// completion thread answers it once it has run (\p Later is set), and
  /// the requests after it are taken meanwhile, so that the device's DMA
  /// engine goes from one staging slot's copy to the next without a pause.
  Result<wire::Done> copyShared(const wire::SharedTransfer &T, bool ToDevice,
                                uint64_t AnswerId = 0, bool *Later = nullptr);
  /// Waits for the posted copies from shared segments of every device.
  Status finishSharedCopies();

  /// Before a request of stage \p S on device \p Index: waits until the
  /// order of the batch the client's step is in lets it go (no lock held).
  void gate(uint32_t Index, StepBatcher::Stage S);
  /// The device's batcher, if it gathers steps and \p Index is valid.
  StepBatcher *batcher(uint32_t Index) const;

  /// The device \p Index, or an error naming it.
  Result<Server::Slot *> slot(uint32_t Index);
  /// Where this client's copies, kernels and marks on device \p Index
  /// (valid) go: a handle of its own (Device::share: its own streams in
  /// the device's context, so that clients' work runs at once), made on
  /// first use; or the device itself, shared with every client.
  Device &handle(uint32_t Index);
  /// Notes that this client copies or runs on device \p Index now.
  void noteUse(uint32_t Index);
  /// The other clients that copied or ran on device \p Index in the last
  /// second.
  Result<wire::Done> load(uint32_t Index);
  /// Held around a call on handle(Index): the device's lock where the
  /// handle is the device itself (one client's call at a time), nothing
  /// where it is the client's own.
  std::unique_lock<std::mutex> exclusive(uint32_t Index);
  /// The allocation of \p Device that holds \p Bytes at \p Address.
  Result<DeviceMemory> allocationFor(uint32_t Device, uint64_t Address, uint64_t Bytes);
  /// Skips \p Bytes of data.
  Status discard(uint64_t Bytes);
  /// Staging block \p Which (0 or 1) of \p Device, wire::DataChunkBytes,
  /// allocated on first use and kept while the client stays: page-locked
  /// memory costs milliseconds to allocate.
  char *staging(uint32_t Device, unsigned Which);
  void freeAll();

  Server &S;
  Connection &C;
  std::string Client = "a client";
  /// Per device, its first posted failure not yet reported.
  std::map<uint32_t, Failure> Deferred;
  /// The client's marks by device and its number for them; the
  /// completion thread's queue of (request, mark) to answer. Under
  /// MarksLock.
  using MarkKey = std::pair<uint32_t, uint64_t>;
  std::mutex MarksLock;
  std::condition_variable MarksChanged;
  std::map<MarkKey, HeldMark> Marks;
  /// A reply the completion thread sends once device mark OnDevice has
  /// run: a Mark's (Mark set, the mark the client holds) or a shared
  /// copy's (the mark is the completion's own).
  struct Completion {
    uint64_t Request = 0;
    Device *On = nullptr; ///< the handle the work was queued on
    uint32_t Index = 0;   ///< the device's
    uint64_t OnDevice = 0;
    std::optional<MarkKey> Mark;
    /// The retired marks it follows: released once it has run.
    uint64_t RetiredUpTo = 0;
    /// The batcher's token for the step this mark ends, or 0.
    uint64_t StepEnd = 0;
  };
  std::deque<Completion> ToComplete;
  /// Per device, the client's work queued last and not yet seen finished
  /// (a GPU's), with a device mark after it; only the request thread
  /// touches them, under the device's lock.
  struct Tail {
    DeviceStream Stream = DeviceStream::ToDevice;
    uint64_t Mark = 0;
  };
  std::map<uint32_t, Tail> Tails;
  /// Tails replaced by later work, numbered in order: released once work
  /// queued after them has run (under MarksLock).
  struct RetiredMark {
    Device *On = nullptr;
    uint32_t Index = 0;
    uint64_t Mark = 0;
    uint64_t Number = 0;
  };
  std::deque<RetiredMark> Retired;
  uint64_t RetiredCount = 0;
  bool MarksStopping = false;
  std::thread Completions;
  std::vector<Held> Modules;
  std::vector<HeldKernel> Kernels;
  /// Per device: address -> bytes.
  std::map<uint32_t, std::map<uint64_t, uint64_t>> Allocations;
  /// Per device used, the client's own handle, or null where the device
  /// has none (only the request thread adds; freed last, in freeAll).
  std::map<uint32_t, std::unique_ptr<Device>> Handles;
  uint64_t Requests = 0, Runs = 0;
  double BytesIn = 0, BytesOut = 0;
  std::map<std::pair<uint32_t, unsigned>, std::unique_ptr<Staging>> Stagings;
  struct Shared {
    std::unique_ptr<MappedSegment> Map;
    /// The devices that page-locked it.
    std::vector<uint32_t> Registered;
  };
  /// By the client's number for them.
  std::map<uint64_t, Shared> Segments;
  uint64_t SharedBytes = 0;
  /// Devices with posted copies from shared segments not yet waited for.
  std::set<uint32_t> Unfinished;
};

Server::Server(std::vector<std::unique_ptr<Device>> Ds, ServerOptions O) : Options(std::move(O)) {
  Hi.Server = Options.Name;
  for (auto &D : Ds) {
    Hi.Devices.push_back(offer(D->info()));
    auto Sl = std::make_unique<Slot>();
    if (Options.Gather.Gather != GatherOptions::Off) {
      std::function<void(const StepBatchReport &)> Explain;
      if (Options.Explain)
        Explain = [this, Name = D->info().Name](const StepBatchReport &R) {
          Options.Explain(describe(R, Name));
        };
      // A kernel on the host's cores fills them, whatever its groups.
      unsigned Units = D->info().SharesHostMemory ? 1 : D->info().ComputeUnits;
      Sl->Batcher = std::make_unique<StepBatcher>(Options.Gather, Units, std::move(Explain));
    }
    Sl->D = std::move(D);
    Devices.push_back(std::move(Sl));
  }
}

Server::~Server() { stop(); }

void Server::log(const std::string &Line) const {
  if (Options.Log)
    Options.Log(Line);
}

size_t Server::clients() const {
  std::lock_guard<std::mutex> G(ClientsLock);
  return Open.size();
}

std::shared_ptr<const Bundle> Server::bundle(const wire::Token &Hash) {
  std::lock_guard<std::mutex> G(BundlesLock);
  auto It = Bundles.find(Hash);
  return It == Bundles.end() ? nullptr : It->second;
}

void Server::keepBundle(const wire::Token &Hash, std::shared_ptr<const Bundle> B) {
  std::lock_guard<std::mutex> G(BundlesLock);
  Bundles.emplace(Hash, std::move(B));
}

Status Server::serve(std::unique_ptr<Connection> C) {
  C->setPatience(Options.Times.Silence);
  std::list<Connection *>::iterator Me;
  {
    std::lock_guard<std::mutex> G(ClientsLock);
    Me = Open.insert(Open.end(), C.get());
  }
  // Heartbeats while the client's requests run, however long a kernel is;
  // only after the handshake, whose messages come in a fixed order.
  std::mutex BeatLock;
  std::condition_variable Beat;
  bool Done = false;
  std::thread Heart;
  std::string Summary;
  Status Result = [&] {
    ClientSession Session(*this, *C);
    Status R = Session.handshake();
    if (R) {
      Heart = std::thread([&] {
        std::unique_lock<std::mutex> G(BeatLock);
        while (!Beat.wait_for(G, Options.Times.Heartbeat, [&] { return Done; }))
          if (!C->send(wire::frame(wire::Kind::Heartbeat, 0, wire::empty())))
            return;
      });
      R = Session.run();
    }
    Summary = Session.summary();
    return R;
  }();
  {
    std::lock_guard<std::mutex> G(BeatLock);
    Done = true;
  }
  Beat.notify_all();
  C->close();
  if (Heart.joinable())
    Heart.join();
  log(Options.Name + ": " + C->peer() + ": " + Summary);
  std::lock_guard<std::mutex> G(ClientsLock);
  Open.erase(Me);
  return Result;
}

Status Server::listen(Listener &L) {
  std::list<std::thread> Threads;
  // Clients accepted whose serve() has not returned.
  std::atomic<size_t> Active{0};
  log(Options.Name + ": listening at " + L.address());
  while (!Stopping) {
    if (Options.StopWhenIdle && !Threads.empty() && Active == 0) {
      log(Options.Name + ": every client has left");
      break;
    }
    auto C = L.accept(std::chrono::milliseconds(200));
    if (!C) {
      log(Options.Name + ": " + C.error().message());
      continue;
    }
    if (!*C)
      continue;
    ++Active;
    Threads.emplace_back([this, &Active, Conn = std::move(*C)]() mutable {
      std::string Peer = Conn->peer();
      Status S = serve(std::move(Conn));
      log(Options.Name + ": " + Peer + (S ? " left" : " dropped: " + S.error().message()));
      --Active;
    });
  }
  L.stop();
  {
    std::lock_guard<std::mutex> G(ClientsLock);
    for (Connection *C : Open)
      C->close();
  }
  for (std::thread &T : Threads)
    T.join();
  return Status::success();
}

Status ClientSession::handshake() {
  auto Nonce = freshNonce();
  if (!Nonce)
    return Nonce.error();
  if (Status St = C.send(wire::frame(wire::Kind::Challenge, 0, wire::encode(wire::Challenge{*Nonce})));
      !St)
    return St;
  auto M = C.receive(S.Options.Times.Silence);
  if (!M)
    return M.error();
  if (!*M)
    return Failure(ErrorCode::InvalidArgument, "no Hello within " +
                                                   std::to_string(S.Options.Times.Silence.count()) +
                                                   " ms");
  auto H = wire::decodeHello(**M);
  if (!H) {
    (void)reply(0, H.error());
    return H.error();
  }
  if (!secretProven(S.Options.Secret, *Nonce, H->Client, H->Proof)) {
    (void)reply(0, Failure(ErrorCode::InvalidArgument,
                           "wrong secret: " + S.Options.Name +
                               " serves only clients that hold its secret "
                               "(SKMD_SERVER_SECRET or SKMD_SERVER_SECRET_FILE)"));
    return Failure(ErrorCode::InvalidArgument, H->Client + ": wrong secret");
  }
  Client = H->Client;
  S.log(S.Options.Name + ": " + Client + " arrived on " + C.peer());
  return C.send(wire::frame(wire::Kind::Welcome, 0, wire::encode(S.Hi)));
}

Status ClientSession::run() {
  auto Heard = Clock::now();
  while (!S.Stopping) {
    auto M = C.receive(std::chrono::milliseconds(100));
    if (!M) {
      if (M.error().code() != ErrorCode::InvalidArgument)
        return M.error();
      // A damaged payload: its length was right, the stream is in step.
      S.log(S.Options.Name + ": " + Client + ": " + M.error().message());
      if (Status St = reply(0, M.error()); !St)
        return St;
      continue;
    }
    if (!*M) {
      if (Clock::now() - Heard > S.Options.Times.Silence)
        return Failure(ErrorCode::DeviceFailed,
                       Client + ": no word for " +
                           std::to_string(S.Options.Times.Silence.count()) + " ms");
      continue;
    }
    Heard = Clock::now();
    if ((*M)->H.What == wire::Kind::Goodbye)
      return Status::success();
    if (Status St = handle(**M); !St)
      return St;
    Heard = Clock::now();
  }
  return Failure(ErrorCode::DeviceFailed, "the server is stopping");
}

Status ClientSession::reply(uint64_t Id, const Result<wire::Done> &R) {
  if (!R)
    return C.send(wire::frame(wire::Kind::Error, Id,
                              wire::encode(wire::ErrorReply{R.error().code(),
                                                            R.error().message()})));
  return C.send(wire::frame(wire::Kind::Done, Id, wire::encode(*R)));
}

Status ClientSession::handle(const wire::Message &M) {
  uint64_t Id = M.H.Request;
  if (M.H.What != wire::Kind::Heartbeat)
    ++Requests;
  auto Malformed = [&](const Failure &F) {
    return reply(Id, F);
  };
  // A call answers a failure deferred from its device's earlier posts
  // instead of running: nothing after a failed write may look good.
  auto Call = [&](uint32_t Device, auto &&Do) -> Status {
    if (auto F = takeDeferred(Device))
      return reply(Id, *F);
    return reply(Id, Do());
  };
  switch (M.H.What) {
  case wire::Kind::Heartbeat:
    return Status::success();
  case wire::Kind::Sync: {
    auto Sy = wire::decodeSync(M);
    if (!Sy)
      return Malformed(Sy.error());
    return Call(Sy->Device, [&]() -> Result<wire::Done> {
      auto Sl = slot(Sy->Device);
      if (!Sl)
        return Sl.error();
      if (Status St = finishSharedCopies(); !St)
        return St.error();
      Device &D = handle(Sy->Device);
      auto G = exclusive(Sy->Device);
      if (auto T = Tails.find(Sy->Device); T != Tails.end())
        if (Status St = D.finish(T->second.Mark); !St)
          return St.error();
      if (Status St = settle(Sy->Device, D, std::nullopt); !St)
        return St.error();
      return wire::Done{};
    });
  }
  case wire::Kind::Load: {
    auto L = wire::decodeSync(M);
    if (!L)
      return Malformed(L.error());
    return Call(L->Device, [&] { return load(L->Device); });
  }
  case wire::Kind::LoadModule: {
    bool Lost = false;
    auto R = loadModule(M, Lost);
    if (Lost) {
      (void)reply(Id, R);
      return R ? Failure(ErrorCode::InvalidArgument, "LoadModule lost the stream") : R.error();
    }
    return Call(AnyDevice, [&] { return R; });
  }
  case wire::Kind::LoadKernel: {
    auto L = wire::decodeLoadKernel(M);
    if (!L)
      return Malformed(L.error());
    return Call(L->Device, [&] { return loadKernel(*L); });
  }
  case wire::Kind::Allocate: {
    auto A = wire::decodeAllocate(M);
    if (!A)
      return Malformed(A.error());
    return Call(A->Device, [&] { return allocate(*A); });
  }
  case wire::Kind::Release: {
    auto R = wire::decodeRelease(M);
    if (!R)
      defer(AnyDevice, R.error());
    else if (Status St = release(*R); !St)
      defer(R->Device, St.error());
    return Status::success();
  }
  case wire::Kind::Step: {
    auto St = wire::decodeStep(M);
    if (!St)
      defer(AnyDevice, St.error());
    else if (auto Sl = slot(St->Device); !Sl)
      defer(AnyDevice, Sl.error());
    else if (StepBatcher *B = batcher(St->Device))
      B->begin(this, *St);
    return Status::success();
  }
  case wire::Kind::Write: {
    auto T = wire::decodeTransfer(M);
    if (!T) {
      // Its data's length is unknown: the stream cannot be followed.
      (void)reply(Id, T.error());
      return T.error();
    }
    gate(T->Device, StepBatcher::Stage::In);
    bool Lost = false;
    Status St = write(*T, Lost);
    if (Lost)
      return St;
    if (!St)
      defer(T->Device, St.error());
    return Status::success();
  }
  case wire::Kind::Read: {
    auto T = wire::decodeTransfer(M);
    if (!T)
      return Malformed(T.error());
    if (auto F = takeDeferred(T->Device))
      return reply(Id, *F);
    gate(T->Device, StepBatcher::Stage::Out);
    return read(Id, *T);
  }
  case wire::Kind::Run: {
    auto R = wire::decodeRun(M);
    if (!R)
      return Malformed(R.error());
    // Its arguments are cached even behind a failure, as the client
    // counts on; the kernel runs only if none is pending.
    gate(R->Device, StepBatcher::Stage::Kernel);
    auto Ran = runKernel(*R);
    if (R->Flags & wire::Run::Queued) { // posted: its failure deferred
      if (!Ran)
        defer(R->Device, Ran.error());
      return Status::success();
    }
    return Call(R->Device, [&] { return Ran; });
  }
  case wire::Kind::Mark: {
    auto Q = wire::decodeQueueMark(M);
    if (!Q)
      return Malformed(Q.error());
    return markQueue(Id, *Q);
  }
  case wire::Kind::ReleaseMark: {
    auto Q = wire::decodeQueueMark(M);
    if (!Q)
      defer(AnyDevice, Q.error());
    else if (Status St = releaseMark(*Q); !St)
      defer(Q->Device, St.error());
    return Status::success();
  }
  case wire::Kind::Share: {
    bool Lost = false;
    auto R = share(M, Lost);
    if (Lost) {
      (void)reply(Id, R);
      return R ? Failure(ErrorCode::InvalidArgument, "Share lost the stream") : R.error();
    }
    return Call(AnyDevice, [&] { return R; });
  }
  case wire::Kind::Unshare: {
    auto U = wire::decodeUnshare(M);
    if (!U)
      defer(AnyDevice, U.error());
    else if (Status St = unshare(*U); !St)
      defer(AnyDevice, St.error());
    return Status::success();
  }
  case wire::Kind::WriteShared: {
    auto T = wire::decodeSharedTransfer(M);
    if (!T)
      return Malformed(T.error());
    gate(T->Device, StepBatcher::Stage::In);
    if (T->Flags & wire::SharedTransfer::AnswerWhenLanded) {
      if (auto F = takeDeferred(T->Device))
        return reply(Id, *F);
      bool Later = false;
      auto R = copyShared(*T, true, Id, &Later);
      return Later ? Status::success() : reply(Id, R);
    }
    if (deferred(T->Device))
      return Status::success(); // the next call reports the failure before
    if (auto R = copyShared(*T, true); !R)
      defer(T->Device, R.error());
    return Status::success();
  }
  case wire::Kind::ReadShared: {
    auto T = wire::decodeSharedTransfer(M);
    if (!T)
      return Malformed(T.error());
    if (auto F = takeDeferred(T->Device))
      return reply(Id, *F);
    gate(T->Device, StepBatcher::Stage::Out);
    bool Later = false;
    auto R = copyShared(*T, false, Id, &Later);
    return Later ? Status::success() : reply(Id, R);
  }
  default:
    return Malformed(Failure(ErrorCode::InvalidArgument,
                             std::string("a client does not send ") +
                                 wire::kindName(M.H.What)));
  }
}

StepBatcher *ClientSession::batcher(uint32_t Index) const {
  return Index < S.Devices.size() ? S.Devices[Index]->Batcher.get() : nullptr;
}

void ClientSession::gate(uint32_t Index, StepBatcher::Stage St) {
  if (StepBatcher *B = batcher(Index))
    B->enter(this, St);
}

Result<Server::Slot *> ClientSession::slot(uint32_t Index) {
  if (Index >= S.Devices.size())
    return Failure(ErrorCode::InvalidArgument,
                   "no device " + std::to_string(Index) + " (the server has " +
                       std::to_string(S.Devices.size()) + ")");
  return S.Devices[Index].get();
}

void ClientSession::noteUse(uint32_t Index) {
  Server::Slot &Sl = *S.Devices[Index];
  std::lock_guard<std::mutex> G(Sl.UsersLock);
  Sl.LastUse[this] = Clock::now();
}

Result<wire::Done> ClientSession::load(uint32_t Index) {
  auto Sl = slot(Index);
  if (!Sl)
    return Sl.error();
  std::lock_guard<std::mutex> G((*Sl)->UsersLock);
  uint64_t Others = 0;
  for (auto [Who, When] : (*Sl)->LastUse)
    if (Who != this && Clock::now() - When < std::chrono::seconds(1))
      ++Others;
  return wire::Done{Others, 0};
}

Device &ClientSession::handle(uint32_t Index) {
  auto It = Handles.find(Index);
  if (It == Handles.end()) {
    Server::Slot &Sl = *S.Devices[Index];
    std::lock_guard<std::mutex> G(Sl.Lock);
    It = Handles.emplace(Index, Sl.D->share()).first;
  }
  return It->second ? *It->second : *S.Devices[Index]->D;
}

std::unique_lock<std::mutex> ClientSession::exclusive(uint32_t Index) {
  auto It = Handles.find(Index);
  if (It != Handles.end() && It->second)
    return std::unique_lock<std::mutex>();
  return std::unique_lock<std::mutex>(S.Devices[Index]->Lock);
}

Result<DeviceMemory> ClientSession::allocationFor(uint32_t Device, uint64_t Address,
                                                  uint64_t Bytes) {
  auto &Mine = Allocations[Device];
  auto It = Mine.upper_bound(Address);
  if (It != Mine.begin()) {
    --It;
    if (Address - It->first <= It->second && Bytes <= It->second - (Address - It->first))
      return DeviceMemory{It->first, It->second};
  }
  return Failure(ErrorCode::InvalidArgument,
                 "bytes [" + std::to_string(Address) + ", +" + std::to_string(Bytes) +
                     ") of device " + std::to_string(Device) +
                     " are not in one of this client's allocations");
}

Status ClientSession::discard(uint64_t Bytes) {
  std::vector<char> Sink(std::min<uint64_t>(Bytes, wire::DataChunkBytes));
  while (Bytes) {
    uint64_t N = std::min<uint64_t>(Bytes, wire::DataChunkBytes);
    if (Status St = C.receiveData(Sink.data(), N, S.Options.Times.Silence); !St)
      return St;
    Bytes -= N;
  }
  return Status::success();
}

char *ClientSession::staging(uint32_t Device, unsigned Which) {
  std::unique_ptr<Staging> &B = Stagings[{Device, Which}];
  if (!B)
    B = std::make_unique<Staging>(*S.Devices[Device]->D, wire::DataChunkBytes);
  return B->data();
}

Result<wire::Done> ClientSession::loadModule(const wire::Message &M, bool &StreamLost) {
  auto L = wire::decodeLoadModule(M);
  if (!L) {
    StreamLost = true; // its bundle's length is unknown
    return L.error();
  }
  std::shared_ptr<const Bundle> B = S.bundle(L->Hash);
  if (L->BundleBytes) {
    if (L->BundleBytes > MaxBundleBytes) {
      StreamLost = true;
      return Failure(ErrorCode::InvalidArgument,
                     "a bundle of " + std::to_string(L->BundleBytes) + " bytes (at most " +
                         std::to_string(MaxBundleBytes) + ")");
    }
    std::vector<uint8_t> Bytes(L->BundleBytes);
    for (uint64_t At = 0; At < Bytes.size(); At += wire::DataChunkBytes)
      if (Status St = C.receiveData(Bytes.data() + At,
                                    std::min<uint64_t>(Bytes.size() - At, wire::DataChunkBytes),
                                    S.Options.Times.Silence);
          !St) {
        StreamLost = true;
        return St.error();
      }
    if (bundleHash(Bytes) != L->Hash)
      return Failure(ErrorCode::CorruptBundle, "the bundle's bytes do not match its hash");
    if (!B) {
      auto Read = Bundle::fromBytes(std::move(Bytes));
      if (!Read)
        return Read.error();
      B = std::make_shared<const Bundle>(std::move(*Read));
      S.keepBundle(L->Hash, B);
    }
  }
  if (!B)
    return Failure(ErrorCode::NotFound, "the server does not have this bundle: send it");
  auto Sl = slot(L->Device);
  if (!Sl)
    return Sl.error();
  std::lock_guard<std::mutex> G((*Sl)->Lock);
  std::shared_ptr<DeviceModule> &Loaded = (*Sl)->Modules[L->Hash];
  if (!Loaded) {
    auto R = (*Sl)->D->loadModule(*B);
    if (!R) {
      (*Sl)->Modules.erase(L->Hash);
      return R.error();
    }
    Loaded = *R;
  }
  Modules.push_back({Loaded, B, L->Device});
  return wire::Done{Modules.size() - 1, 0};
}

Result<wire::Done> ClientSession::loadKernel(const wire::LoadKernel &L) {
  if (L.Module >= Modules.size() || Modules[L.Module].Device != L.Device)
    return Failure(ErrorCode::InvalidArgument,
                   "no module " + std::to_string(L.Module) + " on device " +
                       std::to_string(L.Device));
  // Its steps on the device are to come: a barrier waits for them.
  if (StepBatcher *B = batcher(L.Device))
    B->join(this);
  Held &H = Modules[L.Module];
  const KernelInfo *Info = H.Source->metadata().findKernel(L.Kernel);
  if (!Info)
    return Failure(ErrorCode::NotFound, "the bundle has no kernel '" + L.Kernel + "'");
  auto Sl = slot(L.Device);
  if (!Sl)
    return Sl.error();
  std::lock_guard<std::mutex> G((*Sl)->Lock);
  auto K = (*Sl)->D->loadKernel(H.Module, *Info);
  if (!K)
    return K.error();
  bool Merge = (*K)->hasMerge();
  Kernels.push_back({std::move(*K), L.Device, {}});
  return wire::Done{Kernels.size() - 1, Merge ? 1u : 0u};
}

Result<wire::Done> ClientSession::allocate(const wire::Allocate &A) {
  auto Sl = slot(A.Device);
  if (!Sl)
    return Sl.error();
  if (A.Bytes == 0 || A.Bytes > (*Sl)->D->info().MemoryBytes)
    return Failure(ErrorCode::OutOfMemory, "cannot allocate " + std::to_string(A.Bytes) +
                                               " bytes on " + (*Sl)->D->info().Name);
  std::lock_guard<std::mutex> G((*Sl)->Lock);
  auto M = (*Sl)->D->allocate(A.Bytes);
  if (!M)
    return M.error();
  Allocations[A.Device][M->Address] = A.Bytes;
  ++S.Held;
  return wire::Done{M->Address, 0};
}

Status ClientSession::release(const wire::Release &R) {
  auto Sl = slot(R.Device);
  if (!Sl)
    return Sl.error();
  auto &Mine = Allocations[R.Device];
  auto It = Mine.find(R.Address);
  if (It == Mine.end())
    return Failure(ErrorCode::InvalidArgument,
                   "release of " + std::to_string(R.Address) +
                       ", which is not one of this client's allocations");
  std::lock_guard<std::mutex> G((*Sl)->Lock);
  (*Sl)->D->release(DeviceMemory{It->first, It->second});
  Mine.erase(It);
  --S.Held;
  return Status::success();
}

Status ClientSession::write(const wire::Transfer &T, bool &StreamLost) {
  uint64_t Total = T.Where.packedBytes();
  if (!Total)
    return Status::success();
  auto Refuse = [&](const Failure &F) -> Status {
    if (Status St = discard(Total); !St) {
      StreamLost = true;
      return St;
    }
    return F;
  };
  auto Sl = slot(T.Device);
  if (!Sl)
    return Refuse(Sl.error());
  auto Mem = allocationFor(T.Device, T.Where.Address, T.Where.span());
  if (!Mem)
    return Refuse(Mem.error());
  Device &D = handle(T.Device);
  noteUse(T.Device);
  // Two staging blocks: a block arrives while the one before it is copied
  // in (a GPU's copy from page-locked memory returns before it is done).
  uint64_t Block = std::min<uint64_t>(Total, wire::DataChunkBytes);
  uint64_t Base = T.Where.Address - Mem->Address;
  BytesIn += double(Total);
  Status Failed;
  for (uint64_t At = 0, N = 0; At < Total; At += Block, ++N) {
    uint64_t Bytes = std::min(Block, Total - At);
    char *Into = staging(T.Device, unsigned(N % 2));
    if (Status St = C.receiveData(Into, Bytes, S.Options.Times.Silence); !St) {
      StreamLost = true;
      return St;
    }
    if (!Failed)
      continue; // Still read the rest, to stay in step.
    auto G = exclusive(T.Device);
    if (At == 0)
      if (Status St = follow(T.Device, D, DeviceStream::ToDevice); !St) {
        Failed = St;
        continue;
      }
    // The block before this one has landed: its buffer is free next time.
    if (Status St = D.finishCopies(); !St) {
      Failed = St;
      continue;
    }
    Failed = eachRowPiece(T.Where, Base, At, Bytes,
                          [&](uint64_t Offset, uint64_t Done, uint64_t N) {
                            return D.copyIn(*Mem, Offset, Into + Done, N);
                          });
  }
  auto G = exclusive(T.Device);
  if (Failed)
    if (Status St = D.finishCopies(); !St)
      Failed = St;
  if (Failed)
    Failed = settle(T.Device, D, std::nullopt);
  return Failed;
}

Status ClientSession::read(uint64_t Id, const wire::Transfer &T) {
  uint64_t Total = T.Where.packedBytes();
  if (!Total)
    return reply(Id, Failure(ErrorCode::InvalidArgument, "a Read of no bytes"));
  auto Sl = slot(T.Device);
  if (!Sl)
    return reply(Id, Sl.error());
  auto Mem = allocationFor(T.Device, T.Where.Address, T.Where.span());
  if (!Mem)
    return reply(Id, Mem.error());
  if (Status St = finishSharedCopies(); !St)
    return reply(Id, St.error());
  Device &D = handle(T.Device);
  noteUse(T.Device);
  uint64_t Block = std::min<uint64_t>(Total, wire::DataChunkBytes);
  char *Buffer = staging(T.Device, 0);
  uint64_t Base = T.Where.Address - Mem->Address;
  auto Fill = [&](uint64_t At, uint64_t Bytes) -> Status {
    auto G = exclusive(T.Device);
    if (At == 0)
      if (Status St = follow(T.Device, D, DeviceStream::ToHost); !St)
        return St;
    Status St = eachRowPiece(T.Where, Base, At, Bytes,
                             [&](uint64_t Offset, uint64_t Done, uint64_t N) {
                               return D.copyOut(Buffer + Done, *Mem, Offset, N);
                             });
    // Copied: what the client queued before has run.
    return St && At == 0 ? settle(T.Device, D, std::nullopt) : St;
  };
  // The first block is read before ReadData goes out, so that a failing
  // device still gets an Error reply; a later failure breaks the stream.
  if (Status St = Fill(0, Block); !St)
    return reply(Id, St.error());
  BytesOut += double(Total);
  auto Lock = C.sending();
  if (Status St = C.sendFrame(wire::frame(wire::Kind::ReadData, Id,
                                          wire::encode(wire::ReadData{Total})));
      !St)
    return St;
  for (uint64_t At = 0; At < Total; At += Block) {
    uint64_t Bytes = std::min(Block, Total - At);
    if (At)
      if (Status St = Fill(At, Bytes); !St)
        return St;
    if (Status St = C.sendData(Buffer, Bytes); !St)
      return St;
  }
  return Status::success();
}

std::optional<Failure> ClientSession::takeDeferred(uint32_t Device) {
  for (uint32_t D : {Device, AnyDevice})
    if (auto It = Deferred.find(D); It != Deferred.end()) {
      Failure F = It->second;
      Deferred.erase(It);
      return F;
    }
  return std::nullopt;
}

Result<std::vector<DeviceArg>> ClientSession::runArguments(const wire::Run &R) {
  std::vector<DeviceArg> &Last = Kernels[R.Kernel].Last;
  std::vector<DeviceArg> Args;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    const wire::Arg &A = R.Args[I];
    if (A.K == wire::Arg::Same) {
      if (Last.size() != R.Args.size()) {
        // Whatever the client thinks the kernel's arguments are, they are
        // not what this server has: no later Same may stand for them.
        std::string Had = std::to_string(Last.size());
        Last.clear();
        return Failure(ErrorCode::InvalidArgument,
                       "Run's argument " + std::to_string(I) + " is the same as last time, "
                       "but kernel " + std::to_string(R.Kernel) + "'s last Run had " + Had +
                           " arguments, not " + std::to_string(R.Args.size()));
      }
      Args.push_back(Last[I]);
      continue;
    }
    DeviceArg D;
    D.K = A.K == wire::Arg::Buffer  ? DeviceArg::Buffer
          : A.K == wire::Arg::Local ? DeviceArg::Local
                                    : DeviceArg::Scalar;
    D.Address = A.Address;
    D.Bytes = A.Bytes;
    D.LocalBytes = A.LocalBytes;
    Args.push_back(std::move(D));
  }
  Last = Args;
  return Args;
}

Result<wire::Done> ClientSession::runKernel(const wire::Run &R) {
  if (R.Kernel >= Kernels.size() || Kernels[R.Kernel].Device != R.Device)
    return Failure(ErrorCode::InvalidArgument, "no kernel " + std::to_string(R.Kernel) +
                                                   " on device " + std::to_string(R.Device));
  auto Sl = slot(R.Device);
  if (!Sl)
    return Sl.error();
  auto Args = runArguments(R);
  if (!Args)
    return Args.error();
  // Behind a failure it does not run: the failure is the client's answer.
  if (deferred(R.Device))
    return wire::Done{};
  NDRange Range;
  Range.WorkDim = R.WorkDim;
  Range.GlobalOffset = R.GlobalOffset;
  Range.NumGroups = R.NumGroups;
  Range.LocalSize = R.LocalSize;
  Device &D = handle(R.Device);
  noteUse(R.Device);
  auto G = exclusive(R.Device);
  ++Runs;
  if (Status St = follow(R.Device, D, DeviceStream::Compute); !St)
    return St.error();
  if (R.Flags & wire::Run::Queued) {
    if (Status St = D.queueRun(*Kernels[R.Kernel].K, *Args, Range, R.First, R.Count); !St)
      return St.error();
    if (Status St = settle(R.Device, D, DeviceStream::Compute); !St)
      return St.error();
    return wire::Done{};
  }
  if (Status St = D.finishCopies(); !St)
    return St.error();
  if (Status St = D.run(*Kernels[R.Kernel].K, *Args, Range, R.First, R.Count); !St)
    return St.error();
  if (Status St = settle(R.Device, D, std::nullopt); !St)
    return St.error();
  return wire::Done{};
}

Status ClientSession::markQueue(uint64_t Id, const wire::QueueMark &Q) {
  {
    // Only this thread adds marks: what it checks here still holds below.
    std::lock_guard<std::mutex> G(MarksLock);
    if (Marks.count({Q.Device, Q.Mark}))
      return reply(Id, Failure(ErrorCode::InvalidArgument,
                               "mark " + std::to_string(Q.Mark) + " is made already"));
    if (Marks.size() >= MaxMarks)
      return reply(Id, Failure(ErrorCode::InvalidArgument,
                               "a client holds at most " + std::to_string(MaxMarks) +
                                   " marks: let some go (ReleaseMark)"));
  }
  Device *On = nullptr;
  auto Made = [&]() -> Result<uint64_t> {
    if (auto F = takeDeferred(Q.Device))
      return *F;
    if (auto Sl = slot(Q.Device); !Sl)
      return Sl.error();
    Device &D = handle(Q.Device);
    On = &D;
    auto G = exclusive(Q.Device);
    // After the client's last work on the device, which follows the rest.
    auto T = Tails.find(Q.Device);
    if (T == Tails.end())
      return uint64_t(0);
    return D.mark(T->second.Stream);
  }();
  // Whether it ends the client's step (before MarksLock: the batcher's
  // lock is never taken inside it).
  uint64_t StepEnd = 0;
  if (Made)
    if (StepBatcher *B = batcher(Q.Device))
      StepEnd = B->marked(this).value_or(0);
  std::unique_lock<std::mutex> G(MarksLock);
  // A failed mark is kept too, finished, so that the client's ReleaseMark
  // of it finds it.
  HeldMark &H = Marks[{Q.Device, Q.Mark}];
  if (!Made) {
    H.Finished = true;
    G.unlock();
    return reply(Id, Made.error());
  }
  H.OnDevice = *Made;
  H.On = On;
  ToComplete.push_back(
      {Id, On, Q.Device, *Made, MarkKey{Q.Device, Q.Mark}, RetiredCount, StepEnd});
  if (!Completions.joinable())
    Completions = std::thread([this] { completeMarks(); });
  G.unlock();
  MarksChanged.notify_all();
  return Status::success();
}

void ClientSession::releaseRetired(uint32_t Index, Device &D, uint64_t UpTo) {
  std::vector<uint64_t> Free;
  {
    std::lock_guard<std::mutex> G(MarksLock);
    for (auto It = Retired.begin(); It != Retired.end();)
      if (It->Index == Index && It->Number <= UpTo) {
        Free.push_back(It->Mark);
        It = Retired.erase(It);
      } else {
        ++It;
      }
  }
  for (uint64_t M : Free)
    D.releaseMark(M);
}

void ClientSession::answerWhenRun(uint64_t Id, Device &On, uint32_t Index, uint64_t OnDevice) {
  {
    std::lock_guard<std::mutex> G(MarksLock);
    ToComplete.push_back({Id, &On, Index, OnDevice, std::nullopt, RetiredCount});
    if (!Completions.joinable())
      Completions = std::thread([this] { completeMarks(); });
  }
  MarksChanged.notify_all();
}

void ClientSession::completeMarks() {
  std::unique_lock<std::mutex> G(MarksLock);
  for (;;) {
    MarksChanged.wait(G, [&] { return !ToComplete.empty() || MarksStopping; });
    if (ToComplete.empty())
      return;
    Completion Next = ToComplete.front();
    ToComplete.pop_front();
    G.unlock();
    // Not under the device's lock: other clients' calls go on meanwhile,
    // as a device's lanes do beside its completion lane.
    Device &D = *Next.On;
    Status Ran = Next.OnDevice ? D.finish(Next.OnDevice) : Status::success();
    (void)reply(Next.Request,
                Ran ? Result<wire::Done>(wire::Done{}) : Result<wire::Done>(Ran.error()));
    // Marks are let go without the device's lock (devices take them from
    // any thread, as a schedule's launching thread does): MarksLock is
    // never held while waiting for a device's lock.
    if (Ran)
      releaseRetired(Next.Index, D, Next.RetiredUpTo);
    if (Next.StepEnd)
      batcher(Next.Index)->stepRan(Next.StepEnd);
    if (!Next.Mark && Next.OnDevice) // a shared copy's: not needed again
      D.releaseMark(Next.OnDevice);
    G.lock();
    if (!Next.Mark)
      continue;
    HeldMark &Now = Marks.at(*Next.Mark);
    Now.Finished = true;
    if (Now.Released) {
      if (Now.OnDevice)
        D.releaseMark(Now.OnDevice);
      Marks.erase(*Next.Mark);
    }
  }
}

Status ClientSession::follow(uint32_t Index, Device &D, DeviceStream S) {
  auto T = Tails.find(Index);
  if (T == Tails.end() || T->second.Stream == S)
    return Status::success(); // nothing queued, or queued before on S
  return D.waitFor(S, T->second.Mark);
}

Status ClientSession::settle(uint32_t Index, Device &D, std::optional<DeviceStream> Queued) {
  auto T = Tails.find(Index);
  if (T != Tails.end()) {
    // Work queued since may still wait for it on the device: let it go
    // once that has run (a device's marks are kept until then).
    std::lock_guard<std::mutex> G(MarksLock);
    Retired.push_back({&D, Index, T->second.Mark, ++RetiredCount});
    Tails.erase(T);
  }
  if (!Queued) {
    // Everything the client sent the device has run.
    releaseRetired(Index, D, RetiredCount);
    return Status::success();
  }
  auto M = D.mark(*Queued);
  if (!M)
    return M.error();
  if (*M)
    Tails[Index] = Tail{*Queued, *M};
  return Status::success();
}

Status ClientSession::releaseMark(const wire::QueueMark &Q) {
  std::lock_guard<std::mutex> G(MarksLock);
  auto It = Marks.find({Q.Device, Q.Mark});
  if (It == Marks.end() || It->second.Released)
    return Failure(ErrorCode::InvalidArgument,
                   "ReleaseMark names mark " + std::to_string(Q.Mark) +
                       ", which this client holds on no device " + std::to_string(Q.Device));
  It->second.Released = true;
  // The completion thread lets it go once it has waited for it.
  if (!It->second.Finished)
    return Status::success();
  if (It->second.OnDevice)
    It->second.On->releaseMark(It->second.OnDevice);
  Marks.erase(It);
  return Status::success();
}

void ClientSession::stopMarks() {
  {
    std::lock_guard<std::mutex> G(MarksLock);
    MarksStopping = true;
  }
  MarksChanged.notify_all();
  // It answers what is queued first: the device's work touches memory
  // freeAll is about to free.
  if (Completions.joinable())
    Completions.join();
  for (auto &[Id, H] : Marks)
    if (H.OnDevice)
      H.On->releaseMark(H.OnDevice);
  Marks.clear();
}

void ClientSession::freeAll() {
  (void)finishSharedCopies();
  for (auto &[Index, T] : Tails) {
    Device &D = handle(Index);
    auto G = exclusive(Index);
    (void)D.finish(T.Mark);
    D.releaseMark(T.Mark);
  }
  Tails.clear();
  // Whatever waited for them has run (or never will: a failed device).
  for (const RetiredMark &R : Retired)
    R.On->releaseMark(R.Mark);
  Retired.clear();
  // The client's own streams run dry before its memory goes (a client
  // that died may have left work queued).
  for (auto &[Index, H] : Handles)
    if (H)
      for (DeviceStream St : {DeviceStream::ToDevice, DeviceStream::Compute,
                              DeviceStream::ToHost})
        if (auto M = H->mark(St); M && *M) {
          (void)H->finish(*M);
          H->releaseMark(*M);
        }
  Handles.clear();
  for (auto &[Id, Sh] : Segments)
    for (uint32_t D : Sh.Registered) {
      std::lock_guard<std::mutex> G(S.Devices[D]->Lock);
      S.Devices[D]->D->unregisterHost(Sh.Map->data());
    }
  S.SharedHeld -= Segments.size();
  Segments.clear();
  SharedBytes = 0;
  for (auto &[Key, B] : Stagings) {
    std::lock_guard<std::mutex> G(S.Devices[Key.first]->Lock);
    B.reset();
  }
  Stagings.clear();
  for (auto &[Device, Mine] : Allocations) {
    Server::Slot &Sl = *S.Devices[Device];
    std::lock_guard<std::mutex> G(Sl.Lock);
    for (auto [Address, Bytes] : Mine) {
      Sl.D->release(DeviceMemory{Address, Bytes});
      --S.Held;
    }
  }
  Allocations.clear();
  for (HeldKernel &K : Kernels) {
    std::lock_guard<std::mutex> G(S.Devices[K.Device]->Lock);
    K.K.reset();
  }
  Kernels.clear();
  Modules.clear();
}

Result<wire::Done> ClientSession::share(const wire::Message &M, bool &StreamLost) {
  // The descriptor's byte follows whatever the payload says.
  auto Sh = wire::decodeShare(M);
  auto Fd = C.receiveDescriptor(S.Options.Times.Silence);
  if (!Fd) {
    StreamLost = Fd.error().code() != ErrorCode::InvalidArgument;
    return Fd.error();
  }
  if (!Sh) {
    ::close(*Fd);
    return Sh.error();
  }
  if (Segments.count(Sh->Segment)) {
    ::close(*Fd);
    return Failure(ErrorCode::InvalidArgument,
                   "segment " + std::to_string(Sh->Segment) + " is shared already");
  }
  uint64_t Max = S.Options.MaxSharedBytes;
  if (!Max)
    Max = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 2;
  if (Sh->Bytes > Max - std::min(Max, SharedBytes)) {
    ::close(*Fd);
    return Failure(ErrorCode::OutOfMemory,
                   "sharing " + std::to_string(Sh->Bytes) + " more bytes would pass this "
                   "client's limit of " + std::to_string(Max) + " (" +
                       std::to_string(SharedBytes) + " shared)");
  }
  auto Map = MappedSegment::map(*Fd, Sh->Bytes);
  if (!Map)
    return Map.error();
  Shared &New = Segments[Sh->Segment];
  New.Map = std::move(*Map);
  SharedBytes += Sh->Bytes;
  ++S.SharedHeld;
  for (uint32_t D = 0; D < S.Devices.size(); ++D) {
    std::lock_guard<std::mutex> G(S.Devices[D]->Lock);
    if (S.Devices[D]->D->registerHost(New.Map->data(), New.Map->bytes()))
      New.Registered.push_back(D);
  }
  return wire::Done{};
}

Status ClientSession::unshare(const wire::Unshare &U) {
  auto It = Segments.find(U.Segment);
  if (It == Segments.end())
    return Failure(ErrorCode::InvalidArgument,
                   "Unshare of segment " + std::to_string(U.Segment) + ", which is not shared");
  // Posted copies may still read it.
  Status Finished = finishSharedCopies();
  for (uint32_t D : It->second.Registered) {
    std::lock_guard<std::mutex> G(S.Devices[D]->Lock);
    S.Devices[D]->D->unregisterHost(It->second.Map->data());
  }
  SharedBytes -= It->second.Map->bytes();
  Segments.erase(It);
  --S.SharedHeld;
  return Finished;
}

Result<wire::Done> ClientSession::copyShared(const wire::SharedTransfer &T, bool ToDevice,
                                             uint64_t AnswerId, bool *Later) {
  auto Sl = slot(T.Device);
  if (!Sl)
    return Sl.error();
  auto It = Segments.find(T.Segment);
  if (It == Segments.end())
    return Failure(ErrorCode::InvalidArgument,
                   "segment " + std::to_string(T.Segment) + " is not shared");
  char *Host = It->second.Map->data();
  if (T.hostEnd() > It->second.Map->bytes())
    return Failure(ErrorCode::InvalidArgument,
                   "bytes up to " + std::to_string(T.hostEnd()) + " of segment " +
                       std::to_string(T.Segment) + ", which has " +
                       std::to_string(It->second.Map->bytes()));
  auto Mem = allocationFor(T.Device, T.Where.Address, T.Where.span());
  if (!Mem)
    return Mem.error();
  Device &D = handle(T.Device);
  noteUse(T.Device);
  uint64_t Base = T.Where.Address - Mem->Address;
  Host += T.Offset;
  // A copy out reads what the posted copies in wrote.
  if (!ToDevice)
    if (Status St = finishSharedCopies(); !St)
      return St.error();
  auto G = exclusive(T.Device);
  const DeviceStream Stream = ToDevice ? DeviceStream::ToDevice : DeviceStream::ToHost;
  Status St = follow(T.Device, D, Stream);
  if (!St)
    return St.error();
  // Answered later where the device queues its work (a copy it stages
  // through pageable memory has run when the call returns; its mark
  // still says when the rest has).
  const bool Queue = AnswerId && D.info().QueuesWork;
  if (T.Where.Rows <= 1 || T.HostPitch == T.Where.Pitch) {
    // The same layout on both sides: one (strided) copy.
    Rect R{0, T.Where.RowBytes, T.Where.Rows <= 1 ? T.Where.RowBytes : T.Where.Pitch,
           T.Where.Rows};
    St = ToDevice ? D.copyInRect(*Mem, Base, Host, R)
         : Queue  ? D.queueCopyOutRect(Host, *Mem, Base, R)
                  : D.copyOutRect(Host, *Mem, Base, R);
    if (St && Queue) {
      auto Mark = D.mark(Stream);
      if (!Mark)
        return Mark.error();
      if (*Mark) {
        if (Status Se = settle(T.Device, D, Stream); !Se) {
          D.releaseMark(*Mark);
          return Se.error();
        }
        answerWhenRun(AnswerId, D, T.Device, *Mark);
        *Later = true;
        (ToDevice ? BytesIn : BytesOut) += double(T.Where.packedBytes());
        return wire::Done{};
      }
    }
  } else {
    for (uint64_t I = 0; I < T.Where.Rows && St; ++I)
      St = ToDevice ? D.copyIn(*Mem, Base + I * T.Where.Pitch, Host + I * T.HostPitch,
                               T.Where.RowBytes)
                    : D.copyOut(Host + I * T.HostPitch, *Mem, Base + I * T.Where.Pitch,
                                T.Where.RowBytes);
  }
  // A copy in lands when the device finishes its copies: at once when
  // the client waits for it, else at its Sync, Run or next read.
  bool Landed = !ToDevice || (T.Flags & wire::SharedTransfer::AnswerWhenLanded);
  if (St && ToDevice && Landed)
    St = D.finishCopies();
  else if (ToDevice)
    Unfinished.insert(T.Device);
  if (St)
    St = settle(T.Device, D,
                Landed ? std::nullopt : std::optional<DeviceStream>(DeviceStream::ToDevice));
  if (!St)
    return St.error();
  (ToDevice ? BytesIn : BytesOut) += double(T.Where.packedBytes());
  return wire::Done{};
}

Status ClientSession::finishSharedCopies() {
  Status First;
  for (uint32_t D : Unfinished) {
    Device &H = handle(D);
    auto G = exclusive(D);
    if (Status St = H.finishCopies(); !St && First)
      First = St;
  }
  Unfinished.clear();
  return First;
}

} // namespace skmd
