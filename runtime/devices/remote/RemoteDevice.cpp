//===- RemoteDevice.cpp - A device of an skmd-server ----------------------===//
#include "devices/remote/RemoteDevice.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <cstring>

namespace skmd {

namespace {

struct RemoteModule final : DeviceModule {
  uint64_t Id = 0;
};

struct RemoteKernel final : DeviceKernel {
  uint64_t Id = 0;
  bool Merge = false;
  bool hasMerge() const override { return Merge; }
  /// The arguments of its last Run, as the server keeps them; held from
  /// comparing them to sending the Run, so that Runs reach the server in
  /// the order their arguments were compared.
  std::mutex Lock;
  std::vector<wire::Arg> Last;
};

bool sameArg(const wire::Arg &A, const wire::Arg &B) {
  return A.K == B.K && A.Address == B.Address && A.Bytes == B.Bytes &&
         A.LocalBytes == B.LocalBytes;
}

DeviceInfo offerInfo(const ServerLink &Link, uint32_t Index) {
  const wire::DeviceOffer &O = Link.welcome().Devices[Index];
  DeviceInfo I;
  I.Name = Link.welcome().Server + "." + O.Name;
  I.Description = O.Description + " (on " + Link.name() + ")";
  I.Kind = DeviceKind::Remote;
  I.Variant = TargetKind(O.Variant);
  I.MemoryBytes = O.MemoryBytes;
  I.ComputeUnits = O.ComputeUnits;
  I.LanesPerUnit = O.LanesPerUnit;
  I.BuffersAreHandles = O.BuffersAreHandles;
  // Copies of ordinary memory take the staging ring's copiers on a node
  // shared with the server, else the one thread that feeds the socket.
  I.HostCopyCores = Link.sharesMemory() ? StagingRing::copiersWanted() : 1;
  // The server runs its device's queue: a piece's steps go out without
  // waiting, and each wait costs a round trip. SKMD_REMOTE_QUEUE=0 keeps
  // the host's hand-offs between them (to measure what queuing saves).
  I.QueuesWork = true;
  // Over a Unix socket the server and its other clients are on this node.
  I.OthersShareThisHost = Link.sharesMemory();
  const char *Queue = std::getenv("SKMD_REMOTE_QUEUE");
  I.CallsCostRoundTrips = !Queue || std::string(Queue) != "0";
  // The server's host link bounds ours; skmd-prof --links measures ours.
  I.LinkGBps = 0;
  return I;
}

wire::Region contiguous(uint64_t Address, uint64_t Bytes) {
  return wire::Region{Address, Bytes, Bytes, 1};
}

} // namespace

wire::Token bundleHash(const std::vector<uint8_t> &Bytes) {
  wire::Token T{};
  unsigned Size = 0;
  EVP_Digest(Bytes.data(), Bytes.size(), T.data(), &Size, EVP_sha256(), nullptr);
  return T;
}

RemoteDevice::RemoteDevice(std::shared_ptr<ServerLink> L, uint32_t Index)
    : Device(offerInfo(*L, Index)), Link(std::move(L)), Index(Index) {}

std::vector<std::unique_ptr<Device>>
RemoteDevice::offered(const std::shared_ptr<ServerLink> &Link) {
  std::vector<std::unique_ptr<Device>> Out;
  for (uint32_t I = 0; I < Link->welcome().Devices.size(); ++I) {
    // A variant this release does not know: leave the device out.
    if (Link->welcome().Devices[I].Variant > uint8_t(TargetKind::SPIRV))
      continue;
    Out.push_back(std::make_unique<RemoteDevice>(Link, I));
  }
  return Out;
}

Failure RemoteDevice::failed(const Failure &F) const {
  return Failure(F.code(), Info.Name + ": " + F.message());
}

Result<wire::Done> RemoteDevice::request(wire::Kind K, const wire::Writer &Payload,
                                         const void *Data, uint64_t DataBytes) {
  auto R = Link->call(K, Payload, Data, DataBytes);
  if (!R)
    return failed(R.error());
  auto D = wire::decodeDone(*R);
  if (!D)
    return failed(D.error());
  return D;
}

Result<std::shared_ptr<DeviceModule>> RemoteDevice::loadModule(const Bundle &B) {
  wire::LoadModule L;
  L.Device = Index;
  L.Hash = bundleHash(B.bytes());
  // Named by its hash first: the bytes cross only when the server lacks them.
  auto D = request(wire::Kind::LoadModule, wire::encode(L));
  if (!D && D.error().code() == ErrorCode::NotFound) {
    L.BundleBytes = B.bytes().size();
    D = request(wire::Kind::LoadModule, wire::encode(L), B.bytes().data(), L.BundleBytes);
  }
  if (!D)
    return D.error();
  auto M = std::make_shared<RemoteModule>();
  M->Id = D->Value;
  return std::shared_ptr<DeviceModule>(std::move(M));
}

Result<std::unique_ptr<DeviceKernel>>
RemoteDevice::loadKernel(const std::shared_ptr<DeviceModule> &Module, const KernelInfo &Kernel) {
  wire::LoadKernel L;
  L.Device = Index;
  L.Module = static_cast<const RemoteModule &>(*Module).Id;
  L.Kernel = Kernel.Name;
  auto D = request(wire::Kind::LoadKernel, wire::encode(L));
  if (!D)
    return D.error();
  auto K = std::make_unique<RemoteKernel>();
  K->Id = D->Value;
  K->Merge = D->Flags & 1;
  return std::unique_ptr<DeviceKernel>(std::move(K));
}

Result<DeviceMemory> RemoteDevice::allocate(uint64_t Bytes) {
  {
    std::lock_guard<std::mutex> G(KeptLock);
    if (auto It = Kept.find(Bytes); It != Kept.end()) {
      uint64_t Address = It->second;
      Kept.erase(It);
      KeptBytes -= Bytes;
      return DeviceMemory{Address, Bytes};
    }
  }
  auto D = request(wire::Kind::Allocate, wire::encode(wire::Allocate{Index, Bytes}));
  if (!D && D.error().code() == ErrorCode::OutOfMemory && dropKept())
    D = request(wire::Kind::Allocate, wire::encode(wire::Allocate{Index, Bytes}));
  if (!D)
    return D.error();
  return DeviceMemory{D->Value, Bytes};
}

void RemoteDevice::release(DeviceMemory Memory) {
  {
    std::lock_guard<std::mutex> G(KeptLock);
    if (Memory.Bytes <= MaxKeptBytes / 4 && KeptBytes + Memory.Bytes <= MaxKeptBytes &&
        Link->alive()) {
      Kept.emplace(Memory.Bytes, Memory.Address);
      KeptBytes += Memory.Bytes;
      return;
    }
  }
  // A failure (the server gone) frees it anyway: the server frees a lost
  // client's memory.
  (void)Link->post(wire::Kind::Release, wire::encode(wire::Release{Index, Memory.Address}));
}

bool RemoteDevice::dropKept() {
  std::multimap<uint64_t, uint64_t> Drop;
  {
    std::lock_guard<std::mutex> G(KeptLock);
    Drop.swap(Kept);
    KeptBytes = 0;
  }
  for (auto [Bytes, Address] : Drop)
    (void)Link->post(wire::Kind::Release, wire::encode(wire::Release{Index, Address}));
  return !Drop.empty();
}

namespace {

/// Where rows of \p Where lie on the host, from the first: their span.
uint64_t hostSpan(const wire::Region &Where) {
  return wire::Region{0, Where.RowBytes, Where.Pitch, Where.Rows}.span();
}

bool contiguousRows(const wire::Region &Where) {
  return Where.Rows <= 1 || Where.Pitch == Where.RowBytes;
}

wire::Region rectRegion(uint64_t Address, const Rect &R) {
  return wire::Region{Address + R.Offset, R.RowBytes, R.Rows <= 1 ? R.RowBytes : R.Pitch,
                      R.Rows};
}

} // namespace

StagingRing *RemoteDevice::ring() {
  std::lock_guard<std::mutex> G(RingLock);
  if (!Ring && !RingFailed) {
    auto R = StagingRing::create(Link);
    if (R)
      Ring = std::move(*R);
    else
      RingFailed = true; // the socket carries the copies instead
  }
  return Ring.get();
}

Result<std::optional<wire::SharedTransfer>>
RemoteDevice::sharedCopy(const wire::Region &Where, const char *Host) {
  auto Segment = segmentHolding(Host, hostSpan(Where));
  if (!Segment)
    return std::optional<wire::SharedTransfer>();
  if (Status S = Link->share(*Segment); !S)
    return failed(S.error());
  wire::SharedTransfer T;
  T.Device = Index;
  T.Where = Where;
  T.Segment = Segment->id();
  T.Offset = uint64_t(Host - Segment->data());
  T.HostPitch = Where.Pitch;
  return std::optional<wire::SharedTransfer>(T);
}

Status RemoteDevice::write(const wire::Region &Where, const char *Host) {
  uint64_t Packed = Where.packedBytes();
  if (!Packed)
    return Status::success();
  if (Link->sharesMemory()) {
    auto T = sharedCopy(Where, Host);
    if (!T)
      return T.error();
    if (*T) {
      if (Status S = Link->post(wire::Kind::WriteShared, wire::encode(**T)); !S)
        return failed(S.error());
      return Status::success();
    }
    if (Packed >= SharedCopyMinBytes)
      if (StagingRing *R = ring()) {
        if (Status S = R->toDevice(Index, Where, Host); !S)
          return failed(S.error());
        return Status::success();
      }
  }
  Status Sent;
  if (contiguousRows(Where)) {
    Sent = Link->post(wire::Kind::Write, wire::encode(wire::Transfer{Index, Where}), Host, Packed);
  } else {
    // The rows travel packed: one message, not one per row.
    std::vector<char> Rows(Packed);
    for (uint64_t I = 0; I < Where.Rows; ++I)
      std::memcpy(Rows.data() + I * Where.RowBytes, Host + I * Where.Pitch, Where.RowBytes);
    Sent = Link->post(wire::Kind::Write, wire::encode(wire::Transfer{Index, Where}), Rows.data(),
                      Packed);
  }
  return Sent ? Sent : Status(failed(Sent.error()));
}

Result<std::optional<RemoteDevice::PendingRead>>
RemoteDevice::startRead(const wire::Region &Where, char *Host) {
  using Started = std::optional<PendingRead>;
  PendingRead R;
  R.Where = Where;
  R.Host = Host;
  uint64_t Packed = Where.packedBytes();
  if (!Packed)
    return Started();
  if (Link->sharesMemory()) {
    auto T = sharedCopy(Where, Host);
    if (!T)
      return T.error();
    if (*T) {
      R.Reply = Link->begin(wire::Kind::ReadShared, wire::encode(**T));
      R.Host = nullptr; // the server puts the bytes in place
      return Started(std::move(R));
    }
    if (Packed >= SharedCopyMinBytes)
      if (StagingRing *Ring = ring()) {
        if (Status S = Ring->toHost(Index, Where, Host); !S)
          return failed(S.error());
        return Started();
      }
  }
  // Strided rows travel packed and are put in place once they arrived.
  char *Into = Host;
  if (!contiguousRows(Where)) {
    R.Packed.resize(Packed);
    Into = R.Packed.data();
  }
  R.Reply = Link->begin(wire::Kind::Read, wire::encode(wire::Transfer{Index, Where}), nullptr, 0,
                        Into, Packed);
  return Started(std::move(R));
}

Status RemoteDevice::completeRead(PendingRead &R) {
  auto M = Link->wait(R.Reply);
  if (!M)
    return failed(M.error());
  if (M->H.What == wire::Kind::Done)
    if (auto D = wire::decodeDone(*M); !D)
      return failed(D.error());
  if (!R.Packed.empty())
    for (uint64_t I = 0; I < R.Where.Rows; ++I)
      std::memcpy(R.Host + I * R.Where.Pitch, R.Packed.data() + I * R.Where.RowBytes,
                  R.Where.RowBytes);
  return Status::success();
}

Status RemoteDevice::read(const wire::Region &Where, char *Host) {
  auto R = startRead(Where, Host);
  if (!R)
    return R.error();
  return *R ? completeRead(**R) : Status::success();
}

Status RemoteDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                            uint64_t Bytes) {
  return write(contiguous(Dst.Address + DstOffset, Bytes), static_cast<const char *>(Src));
}

Status RemoteDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset, uint64_t Bytes) {
  return read(contiguous(Src.Address + SrcOffset, Bytes), static_cast<char *>(Dst));
}

Status RemoteDevice::copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                                const Rect &R) {
  return write(rectRegion(Dst.Address + DstOffset, R), static_cast<const char *>(Src) + R.Offset);
}

Status RemoteDevice::copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                 const Rect &R) {
  return read(rectRegion(Src.Address + SrcOffset, R), static_cast<char *>(Dst) + R.Offset);
}

void *RemoteDevice::allocPinnedHost(uint64_t Bytes) {
  if (!Link->sharesMemory())
    return nullptr;
  auto Segment = SharedSegment::create(Bytes);
  if (!Segment || !Link->share(**Segment))
    return nullptr;
  void *P = (*Segment)->data();
  publishSegment(std::move(*Segment));
  return P;
}

void RemoteDevice::freePinnedHost(void *Ptr) { withdrawSegment(Ptr); }

void RemoteDevice::refreshOtherUsers() {
  // SKMD_SHARED_LOAD=0: plans take the device as if it were this
  // process's alone (to compare, or where the others' use is known to be
  // brief).
  static const bool Ignore = [] {
    const char *V = std::getenv("SKMD_SHARED_LOAD");
    return V && std::string(V) == "0";
  }();
  if (Ignore)
    return;
  auto Now = std::chrono::steady_clock::now();
  if (Now - LoadAsked < std::chrono::milliseconds(100))
    return;
  LoadAsked = Now;
  if (auto D = request(wire::Kind::Load, wire::encode(wire::Sync{Index})))
    Info.OtherUsers = unsigned(std::min<uint64_t>(D->Value, 1u << 20));
}

void RemoteDevice::beginStep(const StepForecast &F) {
  // A launch that hands each step off (SKMD_REMOTE_QUEUE=0) sends no Mark
  // to end its step: a server would hold the others for it until its
  // window passed.
  if (!F.Runs || !Info.CallsCostRoundTrips)
    return;
  wire::Step S;
  S.Device = Index;
  S.Runs = unsigned(std::min<uint64_t>(F.Runs, wire::MaxStepRuns));
  S.Groups = F.Groups;
  // Sent as the device alone would take them: the server weighs its
  // clients' steps together itself.
  double Stretch = 1.0 + Info.OtherUsers;
  auto Clean = [](double Ms) { return Ms >= 0 && Ms <= 1e9 ? Ms : 0.0; };
  S.InMs = Clean(F.InMs);
  S.KernelMs = Clean(F.KernelMs / Stretch);
  S.OutMs = Clean(F.OutMs);
  S.Flags = F.CopiesOut ? wire::Step::CopiesOut : 0;
  // A lost step costs the server's order, never a result: no failure.
  (void)Link->post(wire::Kind::Step, wire::encode(S));
}

bool RemoteDevice::isPinnedHost(const void *Host, uint64_t Bytes) const {
  return Link->sharesMemory() && segmentHolding(Host, Bytes);
}

Status RemoteDevice::finishCopies() {
  auto D = request(wire::Kind::Sync, wire::encode(wire::Sync{Index}));
  return D ? Status::success() : Status(D.error());
}

wire::Run RemoteDevice::runRequest(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                                   const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<RemoteKernel &>(Kernel);
  wire::Run Ru;
  Ru.Device = Index;
  Ru.Kernel = K.Id;
  std::vector<wire::Arg> Now;
  for (const DeviceArg &A : Args) {
    wire::Arg W;
    W.K = A.K == DeviceArg::Buffer ? wire::Arg::Buffer
          : A.K == DeviceArg::Local ? wire::Arg::Local
                                    : wire::Arg::Scalar;
    W.Address = A.Address;
    W.Bytes = A.Bytes;
    W.LocalBytes = A.LocalBytes;
    Now.push_back(std::move(W));
  }
  Ru.WorkDim = Range.WorkDim;
  Ru.GlobalOffset = Range.GlobalOffset;
  Ru.NumGroups = Range.NumGroups;
  Ru.LocalSize = Range.LocalSize;
  Ru.First = First;
  Ru.Count = Count;
  // The server keeps each kernel's last arguments whatever becomes of its
  // Run, so both sides agree on them as long as the link lives.
  for (size_t I = 0; I < Now.size(); ++I) {
    bool Same = K.Last.size() == Now.size() && sameArg(K.Last[I], Now[I]);
    Ru.Args.push_back(Same ? wire::Arg::same() : Now[I]);
  }
  K.Last = std::move(Now);
  return Ru;
}

Status RemoteDevice::run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                         const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<RemoteKernel &>(Kernel);
  std::unique_lock<std::mutex> Order(K.Lock);
  auto T = Link->begin(wire::Kind::Run, wire::encode(runRequest(Kernel, Args, Range, First, Count)));
  Order.unlock();
  auto M = Link->wait(T);
  if (!M)
    return failed(M.error());
  auto D = wire::decodeDone(*M);
  return D ? Status::success() : Status(failed(D.error()));
}

Status RemoteDevice::queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                              const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<RemoteKernel &>(Kernel);
  std::lock_guard<std::mutex> Order(K.Lock);
  wire::Run Ru = runRequest(Kernel, Args, Range, First, Count);
  Ru.Flags = wire::Run::Queued;
  Status S = Link->post(wire::Kind::Run, wire::encode(Ru));
  return S ? S : Status(failed(S.error()));
}

Status RemoteDevice::queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                      const Rect &R) {
  auto Started =
      startRead(rectRegion(Src.Address + SrcOffset, R), static_cast<char *>(Dst) + R.Offset);
  if (!Started)
    return Started.error();
  if (*Started) {
    std::lock_guard<std::mutex> G(QueueLock);
    Unmarked.push_back(std::move(**Started));
  }
  return Status::success();
}

Result<uint64_t> RemoteDevice::mark(DeviceStream) {
  // The server runs this client's work on the device in the order sent,
  // whatever its streams: a mark on any of them follows all of it, and
  // takes every copy out queued before it.
  std::lock_guard<std::mutex> G(QueueLock);
  uint64_t Id = NextMark++;
  QueuedMark &M = Marks[Id];
  M.Reply = Link->begin(wire::Kind::Mark, wire::encode(wire::QueueMark{Index, Id}));
  M.Reads = std::move(Unmarked);
  Unmarked.clear();
  return Id;
}

Status RemoteDevice::finish(uint64_t Mark) {
  QueuedMark M;
  {
    std::lock_guard<std::mutex> G(QueueLock);
    auto It = Marks.find(Mark);
    if (It == Marks.end())
      return Status::success(); // waited for already
    M = std::move(It->second);
    Marks.erase(It);
  }
  // Every reply is waited for, the first failure kept: a copy out's
  // bytes may still be landing in memory its caller owns.
  Status First;
  for (PendingRead &R : M.Reads)
    if (Status S = completeRead(R); !S && First)
      First = S;
  auto Done = Link->wait(M.Reply);
  if (!Done && First)
    First = failed(Done.error());
  return First;
}

void RemoteDevice::releaseMark(uint64_t Mark) {
  if (!Mark)
    return;
  (void)finish(Mark);
  (void)Link->post(wire::Kind::ReleaseMark, wire::encode(wire::QueueMark{Index, Mark}));
}

RemoteDevice::~RemoteDevice() {
  dropKept();
  // Replies still to come write into memory their callers owned: wait
  // for them (a lost server answers them all at once).
  std::vector<uint64_t> Left;
  {
    std::lock_guard<std::mutex> G(QueueLock);
    for (auto &[Id, M] : Marks)
      Left.push_back(Id);
    for (PendingRead &R : Unmarked)
      (void)Link->wait(R.Reply);
  }
  for (uint64_t Id : Left)
    (void)finish(Id);
}

} // namespace skmd
