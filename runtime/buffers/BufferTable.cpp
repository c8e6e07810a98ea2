//===- BufferTable.cpp - A session's buffer objects and their views -------===//
#include "buffers/BufferTable.h"

#include <algorithm>

namespace skmd {

BufferTable::~BufferTable() {
  for (auto &[Key, Object] : Objects) {
    void *Owned = Object.second;
    Object.first.reset();
    Memory.free(Owned);
  }
}

BufferObject *BufferTable::add(void *Host, void *Owned, uint64_t Bytes) {
  auto B = std::make_unique<BufferObject>(Buffers, Host ? Host : Owned, Bytes,
                                          Host ? BufferObject::Coherence::HostCoherent
                                               : BufferObject::Coherence::Resident);
  BufferObject *Raw = B.get();
  Objects[Raw] = {std::move(B), Host ? nullptr : Owned};
  return Raw;
}

Result<BufferObject *> BufferTable::addView(BufferObject &Of, uint64_t Offset, uint64_t Bytes) {
  // The view starts from the host's bytes: make them current.
  if (Status S = beforeUse(Of); !S)
    return S.error();
  IntervalSet Range;
  Range.add(int64_t(Offset), int64_t(Offset + Bytes));
  if (auto Moved = Of.bringToHost(Range); !Moved)
    return Moved.error();
  BufferObject *Root = &Of;
  uint64_t At = Offset;
  if (auto It = Aliases.find(&Of); It != Aliases.end()) {
    Root = It->second.Root;
    At += It->second.Offset;
  } else {
    Aliases[&Of] = Alias{&Of, 0, {}};
    Families[&Of] = {&Of};
  }
  auto B = std::make_unique<BufferObject>(Buffers, static_cast<char *>(Of.host()) + Offset,
                                          Bytes, Of.coherence());
  BufferObject *Raw = B.get();
  Objects[Raw] = {std::move(B), nullptr};
  Aliases[Raw] = Alias{Root, At, {}};
  Families[Root].push_back(Raw);
  return Raw;
}

Status BufferTable::flush(BufferObject &B) {
  Alias &Me = Aliases.at(&B);
  if (Me.Dirty.empty())
    return Status::success();
  if (auto Moved = B.bringToHost(Me.Dirty); !Moved)
    return Moved.error();
  for (BufferObject *Other : Families.at(Me.Root)) {
    if (Other == &B)
      continue;
    // Shifted into the other's offsets, within it.
    const Alias &Them = Aliases.at(Other);
    const int64_t Shift = int64_t(Me.Offset) - int64_t(Them.Offset);
    IntervalSet Theirs;
    for (auto [Lo, Hi] : Me.Dirty.intervals()) {
      int64_t L = std::max<int64_t>(Lo + Shift, 0);
      int64_t H = std::min<int64_t>(Hi + Shift, int64_t(Other->bytes()));
      if (L < H)
        Theirs.add(L, H);
    }
    Other->hostWrote(Theirs);
  }
  Me.Dirty = IntervalSet();
  return Status::success();
}

Status BufferTable::beforeUse(BufferObject &B) {
  auto It = Aliases.find(&B);
  if (It == Aliases.end())
    return Status::success();
  const Alias &Me = It->second;
  for (BufferObject *Other : Families.at(Me.Root)) {
    const Alias &Them = Aliases.at(Other);
    bool Overlaps = Them.Offset < Me.Offset + B.bytes() && Me.Offset < Them.Offset + Other->bytes();
    if (Other != &B && Overlaps)
      if (Status S = flush(*Other); !S)
        return S;
  }
  return Status::success();
}

void BufferTable::wrote(BufferObject &B, const IntervalSet &Set) {
  if (auto It = Aliases.find(&B); It != Aliases.end())
    It->second.Dirty.add(Set);
}

void BufferTable::release(BufferObject *B) { Memory.free(forget(B)); }

void *BufferTable::forget(BufferObject *B) {
  auto It = Objects.find(B);
  if (It == Objects.end())
    return nullptr;
  if (auto A = Aliases.find(B); A != Aliases.end()) {
    // What only it holds reaches the host, where its family sees it.
    (void)flush(*B);
    BufferObject *Root = A->second.Root;
    Aliases.erase(A);
    auto &Members = Families.at(Root);
    Members.erase(std::find(Members.begin(), Members.end(), B));
    bool RootLive = std::find(Members.begin(), Members.end(), Root) != Members.end();
    if (Members.empty() || (Members.size() == 1 && RootLive)) {
      // The family is gone (or the root alone is left, an ordinary buffer
      // again); a released root's memory goes with its last view.
      Families.erase(Root);
      Aliases.erase(Root);
      if (!RootLive && Root != B) {
        void *RootHost = Objects.at(Root).second;
        Objects.erase(Root);
        Memory.free(RootHost);
      }
    } else if (B == Root) {
      // Views remain: the root's memory stays, the object unused.
      It->second.first->onlyOnHost();
      return nullptr;
    }
  }
  void *Host = It->second.second;
  Objects.erase(It);
  return Host;
}

} // namespace skmd
