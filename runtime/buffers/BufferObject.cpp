//===- BufferObject.cpp - A buffer, its copies, and where each byte is valid ---===//
#include "buffers/BufferObject.h"

#include "buffers/Transfers.h"

#include <algorithm>
#include <limits>

namespace skmd {

/// OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN as most drivers give it (1024
/// bits): the alignment kernels may assume of a buffer's base, which
/// compilers turn into aligned vector accesses (a double4 at 32 bytes).
constexpr uint64_t BufferBaseAlign = 128;

BufferObject::BufferObject(Residency &R, void *Host, uint64_t Bytes, Coherence C)
    : Owner(R), Host(Host), Bytes(Bytes), Mode(C) {
  HostValid = all();
  Owner.Objects.insert(this);
}

BufferObject::~BufferObject() {
  for (auto &C : Copies)
    C->On->release(C->Memory);
  Owner.Objects.erase(this);
}

IntervalSet BufferObject::all() const {
  IntervalSet S;
  S.add(0, int64_t(Bytes));
  return S;
}

BufferObject::DeviceCopy *BufferObject::copyOn(const Device &D) {
  for (auto &C : Copies)
    if (C->On == &D)
      return C.get();
  return nullptr;
}

IntervalSet BufferObject::onlyOn(const Device &D) const {
  IntervalSet Only;
  for (auto &C : Copies)
    if (C->On == &D)
      Only = C->Valid;
  Only.subtract(HostValid);
  for (auto &C : Copies)
    if (C->On != &D)
      Only.subtract(C->Valid);
  return Only;
}

void BufferObject::hostWrote(const IntervalSet &Set) { wroteAt(nullptr, Set); }

void BufferObject::nowValid(const Device *On, const IntervalSet &Set) {
  if (!On) {
    HostValid.add(Set);
    return;
  }
  for (auto &C : Copies)
    if (C->On == On) {
      IntervalSet In = Set;
      In.clamp(C->Lo, C->Hi);
      C->Valid.add(In);
    }
}

void BufferObject::wroteAt(const Device *On, const IntervalSet &Set) {
  if (Set.empty())
    return;
  HostValid.subtract(Set);
  for (auto &C : Copies)
    C->Valid.subtract(Set);
  Lost.subtract(Set);
  nowValid(On, Set);
}

void BufferObject::onlyOnHost() {
  HostValid = all();
  Lost = IntervalSet();
  for (auto &C : Copies)
    C->Valid = IntervalSet();
}

Result<uint64_t> BufferObject::bringToHost(const IntervalSet &Want, const Device *Except) {
  IntervalSet Stale = Want;
  Stale.clamp(0, int64_t(Bytes));
  Stale.subtract(HostValid);
  if (Stale.empty())
    return uint64_t(0);
  IntervalSet Gone = IntervalSet::intersect(Stale, Lost);
  if (!Gone.empty())
    return Failure(ErrorCode::DeviceFailed,
                   "bytes [" + std::to_string(Gone.intervals().front().first) + ", " +
                       std::to_string(Gone.intervals().front().second) +
                       ") of a buffer were lost with a device that failed while it held "
                       "their only copy");
  uint64_t Moved = 0;
  // The failed device last, and only for what no other copy holds.
  std::vector<DeviceCopy *> Order;
  for (auto &C : Copies)
    if (C->On != Except)
      Order.push_back(C.get());
  for (auto &C : Copies)
    if (C->On == Except)
      Order.push_back(C.get());
  for (DeviceCopy *C : Order) {
    IntervalSet Take = IntervalSet::intersect(Stale, C->Valid);
    if (Take.empty())
      continue;
    auto *Region = static_cast<char *>(Host) + C->Lo;
    for (const Rect &R : toRects(Take, C->Lo))
      if (Status S = C->On->copyOutRect(Region, C->Memory, C->At, R); !S)
        return Failure(ErrorCode::DeviceFailed, C->On->info().Name +
                                                    " failed bringing a buffer's bytes back: " +
                                                    S.error().message());
    Moved += uint64_t(Take.bytes());
    HostValid.add(Take);
    Stale.subtract(Take);
    if (Stale.empty())
      return Moved;
  }
  return Failure(ErrorCode::DeviceFailed,
                 "bytes [" + std::to_string(Stale.intervals().front().first) + ", " +
                     std::to_string(Stale.intervals().front().second) +
                     ") of a buffer are current nowhere");
}

Status BufferObject::evict(const Device &D) {
  auto It = std::find_if(Copies.begin(), Copies.end(),
                         [&](const auto &C) { return C->On == &D; });
  if (It == Copies.end())
    return Status::success();
  if (auto Moved = bringToHost(onlyOn(D)); !Moved)
    return Moved.error();
  (*It)->On->release((*It)->Memory);
  Copies.erase(It);
  return Status::success();
}

void BufferObject::dropAfterFailure(const Device &D, const IntervalSet &Garbled) {
  auto It = std::find_if(Copies.begin(), Copies.end(),
                         [&](const auto &C) { return C->On == &D; });
  if (It == Copies.end())
    return;
  IntervalSet Only = onlyOn(D);
  IntervalSet Saved = Only;
  Saved.subtract(Garbled);
  (*It)->Valid = Saved;
  if (!bringToHost(Saved)) {
    Saved.subtract(HostValid);
    Lost.add(Saved);
  }
  Lost.add(IntervalSet::intersect(Only, Garbled));
  (*It)->On->release((*It)->Memory);
  Copies.erase(It);
}

Result<BufferObject::DeviceCopy> BufferObject::allocateRegion(Device &D, int64_t Lo,
                                                              int64_t Hi) {
  // A device whose buffers are handles takes the allocation itself as the
  // kernel's argument: it holds the buffer from byte 0. Elsewhere the
  // allocation holds [Lo, Hi) alone, the kernel indexing from an address Lo
  // bytes before it: at Lo modulo the base alignment, so that that address
  // is aligned as a whole buffer's would be (at 0, a region starting 8
  // bytes into double4s faulted on the first aligned access).
  bool Handles = D.info().BuffersAreHandles;
  if (Handles)
    Lo = 0;
  Hi = std::max(Hi, Lo + 1);
  DeviceCopy C;
  C.On = &D;
  C.Lo = Lo;
  C.Hi = Hi;
  C.At = Handles ? uint64_t(Lo) : uint64_t(Lo) % BufferBaseAlign;
  auto Mem = D.allocate(C.At + uint64_t(Hi - Lo));
  if (!Mem)
    return Mem.error();
  C.Memory = *Mem;
  return C;
}

Result<BufferObject::DeviceCopy *> BufferObject::copyFor(Device &D, int64_t Lo, int64_t Hi) {
  if (D.info().BuffersAreHandles)
    Lo = 0;
  Hi = std::max(Hi, Lo + 1);
  if (DeviceCopy *C = copyOn(D)) {
    if (C->Lo <= Lo && C->Hi >= Hi) {
      C->LastUse = Owner.now();
      return C;
    }
    // Grown to the whole buffer: a plan whose pieces move a little at every
    // launch (a range that shrinks, a column per launch) reallocates once,
    // not at every launch, each time starting from an empty copy.
    Lo = 0;
    Hi = std::max(Hi, int64_t(Bytes));
    if (Status S = evict(D); !S)
      return S.error();
  }
  auto C = allocateRegion(D, Lo, Hi);
  while (!C && C.error().code() == ErrorCode::OutOfMemory && Owner.evictOne(D, this))
    C = allocateRegion(D, Lo, Hi);
  if (!C)
    return C.error();
  C->LastUse = Owner.now();
  Copies.push_back(std::make_unique<DeviceCopy>(std::move(*C)));
  return Copies.back().get();
}

bool Residency::evictOne(const Device &D, const BufferObject *Keep) {
  BufferObject *Oldest = nullptr;
  uint64_t When = std::numeric_limits<uint64_t>::max();
  for (BufferObject *B : Objects) {
    if (B == Keep)
      continue;
    for (auto &C : B->Copies)
      if (C->On == &D && C->LastUse < Clock && C->LastUse < When) {
        Oldest = B;
        When = C->LastUse;
      }
  }
  return Oldest && Oldest->evict(D);
}

uint64_t Residency::deviceBytes(const Device &D) const {
  uint64_t N = 0;
  for (BufferObject *B : Objects)
    for (auto &C : B->Copies)
      if (C->On == &D)
        N += C->Memory.Bytes;
  return N;
}

} // namespace skmd
