//===- StagingRing.cpp - Copies of ordinary memory through shared slots ---===//
#include "devices/remote/StagingRing.h"

#include <cstdlib>
#include <cstring>

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
                                                         uint64_t SlotBytes, unsigned Slots) {
  auto Segment = SharedSegment::create(SlotBytes * Slots);
  if (!Segment)
    return Segment.error();
  if (Status S = Link->share(**Segment); !S)
    return S.error();
  return std::unique_ptr<StagingRing>(
      new StagingRing(std::move(Link), std::move(*Segment), SlotBytes, Slots));
}

Result<std::unique_ptr<StagingRing>> StagingRing::create(std::shared_ptr<ServerLink> Link) {
  uint64_t SlotBytes = uint64_t(envCount("SKMD_REMOTE_SLOT_MB", 4, 1024)) << 20;
  return create(std::move(Link), SlotBytes, envCount("SKMD_REMOTE_SLOTS", 4, 64));
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

Status StagingRing::toDevice(uint32_t Device, const wire::Region &Where, const char *Host) {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<ServerLink::Ticket> InFlight(Slots);
  std::vector<bool> Busy(Slots, false);
  Status First;
  auto Collect = [&](unsigned S) {
    if (!Busy[S])
      return;
    Busy[S] = false;
    auto R = Link->wait(InFlight[S]);
    if (R)
      if (auto D = wire::decodeDone(*R); !D)
        R = D.error();
    if (!R && First)
      First = R.error();
  };
  uint64_t N = pieces(Where);
  for (uint64_t I = 0; I < N; ++I) {
    unsigned S = unsigned(I % Slots);
    Collect(S);
    if (!First)
      break;
    Piece P = piece(Where, I);
    eachPackedRow(P.Where, [&](uint64_t InSlot, uint64_t OnHost) {
      std::memcpy(slot(S) + InSlot, Host + P.HostOffset + OnHost, P.Where.RowBytes);
    });
    InFlight[S] = Link->begin(wire::Kind::WriteShared,
                              wire::encode(transfer(Device, P, S,
                                                    wire::SharedTransfer::AnswerWhenLanded)));
    Busy[S] = true;
  }
  for (unsigned S = 0; S < Slots; ++S)
    Collect(S);
  return First;
}

Status StagingRing::toHost(uint32_t Device, const wire::Region &Where, char *Host) {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<ServerLink::Ticket> InFlight(Slots);
  std::vector<bool> Busy(Slots, false);
  uint64_t N = pieces(Where);
  auto Ask = [&](uint64_t I) {
    unsigned S = unsigned(I % Slots);
    InFlight[S] =
        Link->begin(wire::Kind::ReadShared, wire::encode(transfer(Device, piece(Where, I), S, 0)));
    Busy[S] = true;
  };
  // Every slot asks at once; each, once emptied, asks for the piece a
  // ring's turn later.
  for (uint64_t I = 0; I < N && I < Slots; ++I)
    Ask(I);
  Status First;
  for (uint64_t I = 0; I < N; ++I) {
    unsigned S = unsigned(I % Slots);
    if (!Busy[S])
      break; // an earlier failure stopped the asking
    Busy[S] = false;
    auto R = Link->wait(InFlight[S]);
    if (R)
      if (auto D = wire::decodeDone(*R); !D)
        R = D.error();
    if (!R) {
      if (First)
        First = R.error();
      continue;
    }
    if (!First)
      continue;
    Piece P = piece(Where, I);
    eachPackedRow(P.Where, [&](uint64_t InSlot, uint64_t OnHost) {
      std::memcpy(Host + P.HostOffset + OnHost, slot(S) + InSlot, P.Where.RowBytes);
    });
    if (I + Slots < N)
      Ask(I + Slots);
  }
  for (unsigned S = 0; S < Slots; ++S)
    if (Busy[S])
      (void)Link->wait(InFlight[S]);
  return First;
}

} // namespace skmd
