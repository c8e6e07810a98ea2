//===- StagingRing.cpp - Copies of ordinary memory through shared slots ---===//
#include "devices/remote/StagingRing.h"
#include "devices/HostCores.h"
#include "devices/StreamCopy.h"

#include <cstdlib>
#include <cstring>
#include <thread>

namespace skmd {

namespace {

unsigned envCount(const char *Name, unsigned Default, unsigned Max) {
  if (const char *Env = std::getenv(Name)) {
    long V = std::atol(Env);
    if (V > 0 && V <= long(Max))
      return unsigned(V);
  }
  return Default;
}

/// The piece's rows, packed in the slot: \p Pack(Slot row, host row).
template <typename Fn> void eachPackedRow(const wire::Region &Where, Fn &&Row) {
  for (uint64_t R = 0; R < Where.Rows; ++R)
    Row(R * Where.RowBytes, R * Where.Pitch);
}

} // namespace

Result<std::unique_ptr<StagingRing>> StagingRing::create(std::shared_ptr<ServerLink> Link,
                                                         uint64_t SlotBytes, unsigned Copiers) {
  auto Segment = SharedSegment::create(SlotBytes * 2 * Copiers);
  if (!Segment)
    return Segment.error();
  if (Status S = Link->share(**Segment); !S)
    return S.error();
  return std::unique_ptr<StagingRing>(
      new StagingRing(std::move(Link), std::move(*Segment), SlotBytes, Copiers));
}

unsigned StagingRing::copiersWanted() {
  unsigned Hardware = std::max(1u, std::thread::hardware_concurrency());
  return std::min(envCount("SKMD_REMOTE_COPY_THREADS", 8, 256), Hardware);
}

Result<std::unique_ptr<StagingRing>> StagingRing::create(std::shared_ptr<ServerLink> Link) {
  uint64_t SlotBytes = uint64_t(envCount("SKMD_REMOTE_SLOT_MB", 4, 1024)) << 20;
  return create(std::move(Link), SlotBytes, copiersWanted());
}

uint64_t StagingRing::pieces(const wire::Region &Where) const {
  if (Where.RowBytes <= SlotBytes) {
    uint64_t RowsPer = SlotBytes / Where.RowBytes;
    return (Where.Rows + RowsPer - 1) / RowsPer;
  }
  return Where.Rows * ((Where.RowBytes + SlotBytes - 1) / SlotBytes);
}

StagingRing::Piece StagingRing::piece(const wire::Region &Where, uint64_t I) const {
  Piece P;
  if (Where.RowBytes <= SlotBytes) {
    // Whole rows, as many as a slot takes.
    uint64_t RowsPer = SlotBytes / Where.RowBytes, First = I * RowsPer;
    P.Where = {Where.Address + First * Where.Pitch, Where.RowBytes, Where.Pitch,
               std::min(RowsPer, Where.Rows - First)};
    P.HostOffset = First * Where.Pitch;
    return P;
  }
  // A row longer than a slot: a slot's worth of it.
  uint64_t PerRow = (Where.RowBytes + SlotBytes - 1) / SlotBytes;
  uint64_t Row = I / PerRow, InRow = I % PerRow * SlotBytes;
  P.Where = {Where.Address + Row * Where.Pitch + InRow,
             std::min(SlotBytes, Where.RowBytes - InRow), Where.Pitch, 1};
  P.HostOffset = Row * Where.Pitch + InRow;
  return P;
}

wire::SharedTransfer StagingRing::transfer(uint32_t Device, const Piece &P, unsigned Slot,
                                           uint32_t Flags) const {
  wire::SharedTransfer T;
  T.Device = Device;
  T.Where = P.Where;
  T.Segment = Segment->id();
  T.Offset = Slot * SlotBytes;
  T.HostPitch = P.Where.RowBytes; // packed in the slot
  T.Flags = Flags;
  return T;
}

void StagingRing::fail(const Failure &F) {
  std::lock_guard<std::mutex> G(FirstLock);
  if (First)
    First = F;
}

bool StagingRing::failed() {
  std::lock_guard<std::mutex> G(FirstLock);
  return !First;
}

bool StagingRing::settle(unsigned S) {
  Slot &Sl = Slots[S];
  if (!Sl.Busy)
    return true;
  Sl.Busy = false;
  auto R = Link->wait(Sl.Request);
  if (R)
    if (auto D = wire::decodeDone(*R); !D)
      R = D.error();
  if (!R)
    fail(R.error());
  return R.ok();
}

Status StagingRing::toDevice(uint32_t Device, const wire::Region &Where, const char *Host) {
  std::lock_guard<std::mutex> G(Lock);
  First = Status::success();
  uint64_t N = pieces(Where);
  auto Cores = HostCores::instance().borrow(unsigned(std::min<uint64_t>(Copiers.size(), N)));
  Copiers.parallelFor(N, 1, [&](unsigned W, uint64_t Begin, uint64_t End) {
    for (uint64_t I = Begin; I < End; ++I) {
      unsigned S = nextSlot(W);
      // The slot's last piece must have landed before it is refilled.
      if (!settle(S) || failed())
        continue;
      Piece P = piece(Where, I);
      eachPackedRow(P.Where, [&](uint64_t InSlot, uint64_t OnHost) {
        streamCopy(slot(S) + InSlot, Host + P.HostOffset + OnHost, P.Where.RowBytes);
      });
      Slots[S].Request = Link->begin(
          wire::Kind::WriteShared,
          wire::encode(transfer(Device, P, S, wire::SharedTransfer::AnswerWhenLanded)));
      Slots[S].Busy = true;
    }
  });
  for (unsigned S = 0; S < Slots.size(); ++S)
    settle(S);
  return First;
}

Status StagingRing::toHost(uint32_t Device, const wire::Region &Where, char *Host) {
  std::lock_guard<std::mutex> G(Lock);
  First = Status::success();
  uint64_t N = pieces(Where);
  // Takes slot S's piece once it came.
  auto Unpack = [&](unsigned S) {
    bool Asked = Slots[S].Busy;
    if (!settle(S) || !Asked || failed())
      return;
    Piece P = piece(Where, Slots[S].Piece);
    eachPackedRow(P.Where, [&](uint64_t InSlot, uint64_t OnHost) {
      streamCopy(Host + P.HostOffset + OnHost, slot(S) + InSlot, P.Where.RowBytes);
    });
  };
  auto Cores = HostCores::instance().borrow(unsigned(std::min<uint64_t>(Copiers.size(), N)));
  Copiers.parallelFor(N, 1, [&](unsigned W, uint64_t Begin, uint64_t End) {
    for (uint64_t I = Begin; I < End; ++I) {
      unsigned S = nextSlot(W);
      Unpack(S);
      if (failed())
        continue;
      Slots[S].Request = Link->begin(wire::Kind::ReadShared,
                                     wire::encode(transfer(Device, piece(Where, I), S, 0)));
      Slots[S].Busy = true;
      Slots[S].Piece = I;
    }
  });
  // The last pieces, unpacked on every copier.
  Copiers.parallelFor(Slots.size(), 1, [&](unsigned, uint64_t Begin, uint64_t End) {
    for (uint64_t S = Begin; S < End; ++S)
      Unpack(unsigned(S));
  });
  return First;
}

} // namespace skmd
