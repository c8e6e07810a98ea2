//===- BufferTable.h - A session's buffer objects and their views -*- C++ -*-===//
//
// Every buffer object a front end created, with the host memory the table
// allocated for it, and the families that views (OpenCL sub-buffers) make:
// a view is a buffer object over part of another's host memory, with
// device copies of its own. The members of one family stay coherent:
// before one is used (beforeUse), bytes another wrote and still holds on
// a device come to the host and the user's copies of them elsewhere become
// stale. A root's host memory lives until its last view is released.
//
// Used by one thread at a time, as the buffer objects are.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUFFERS_BUFFERTABLE_H
#define SKMD_BUFFERS_BUFFERTABLE_H

#include "buffers/BufferObject.h"
#include "buffers/HostMemory.h"

#include <map>
#include <memory>
#include <vector>

namespace skmd {

class BufferTable {
public:
  BufferTable(Residency &Buffers, HostMemory &Memory) : Buffers(Buffers), Memory(Memory) {}
  /// Destroys every object left and frees the memory the table allocated.
  ~BufferTable();
  BufferTable(const BufferTable &) = delete;
  BufferTable &operator=(const BufferTable &) = delete;

  /// An object over the user's memory \p Host (HostCoherent), or, with
  /// \p Host null, over \p Owned, which the table frees with it (Resident).
  BufferObject *add(void *Host, void *Owned, uint64_t Bytes);
  /// An object over bytes [Offset, Offset + Bytes) of \p Of, in its family.
  Result<BufferObject *> addView(BufferObject &Of, uint64_t Offset, uint64_t Bytes);
  /// Destroys \p B; what only it holds reaches its family first.
  void release(BufferObject *B);

  /// Before \p B is used: every other member's dirty bytes that overlap it
  /// are made current on the host and stale in the other members.
  Status beforeUse(BufferObject &B);
  /// After \p Set of \p B was written (through a launch or the host).
  void wrote(BufferObject &B, const IntervalSet &Set);
  /// Whether \p B shares its host memory with other objects (a view, or
  /// the root of views).
  bool inFamily(const BufferObject *B) const {
    return Aliases.count(const_cast<BufferObject *>(B)) != 0;
  }

private:
  /// A member of a family: the root it is part of, where it starts in it,
  /// and the bytes written through it since the family last saw them (in
  /// its own offsets).
  struct Alias {
    BufferObject *Root = nullptr;
    uint64_t Offset = 0;
    IntervalSet Dirty;
  };
  /// Makes \p B's dirty bytes current on the host, stale in the others.
  Status flush(BufferObject &B);
  /// Drops \p B (and its family's bookkeeping); the host memory to free.
  void *forget(BufferObject *B);

  Residency &Buffers;
  HostMemory &Memory;
  /// Each object and the host memory the table allocated for it.
  std::map<BufferObject *, std::pair<std::unique_ptr<BufferObject>, void *>> Objects;
  std::map<BufferObject *, Alias> Aliases;
  /// Root -> the live members of its family (the root while not released).
  std::map<BufferObject *, std::vector<BufferObject *>> Families;
};

} // namespace skmd

#endif // SKMD_BUFFERS_BUFFERTABLE_H
