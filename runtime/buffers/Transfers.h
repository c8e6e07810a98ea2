//===- Transfers.h - Which bytes each device needs ---------------*- C++ -*-===//
//
// From the bundle's footprints, for each piece of a launch (a device and
// its range of groups) and each buffer argument:
//
//   affine, and its writes overlap no other piece's:
//     copy in the bytes it reads (and the bytes it writes, unless every one
//     of them is written, so that the bytes it skips come back unchanged);
//     copy out the bytes it writes.
//   affine, but its writes may overlap another piece's (the footprint is
//   an over-approximation, e.g. boxes of a strided kernel):
//     copy in what it reads; bring its copy back to the host, where the
//     merge kernel, run over its groups, stores exactly the bytes those
//     groups wrote.
//   unknown ("whole"): the whole buffer goes in if the kernel reads it,
//     and the merge kernel takes the results.
//
// Each device allocates the hull of what it needs and receives the address
// the buffer's byte 0 would have, so kernels index as on the host.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUFFERS_TRANSFERS_H
#define SKMD_BUFFERS_TRANSFERS_H

#include "bundle/Metadata.h"
#include "devices/Device.h"
#include "footprint/Footprint.h"

#include <cstdint>
#include <optional>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace skmd {

class BufferObject;

/// An argument as the user set it.
struct HostArg {
  enum Kind { Unset, Buffer, Scalar, Local } K = Unset;
  void *Data = nullptr; ///< Buffer: its host memory.
  uint64_t Bytes = 0;   ///< Buffer
  /// Buffer: where its bytes are (buffers/BufferObject.h). Null for
  /// memory the launch treats as the user's alone: a buffer object of the
  /// launch's own, host-coherent, made and released with it.
  BufferObject *Object = nullptr;
  std::vector<uint8_t> Value; ///< Scalar
  uint64_t LocalBytes = 0;    ///< Local

  /// A buffer argument set to no buffer (OpenCL allows a null cl_mem): the
  /// kernel sees a null pointer on every device, and nothing moves.
  bool isNullBuffer() const { return K == Buffer && !Data && Bytes == 0; }
};

/// One device's share of a launch.
struct Piece {
  unsigned Device = 0;
  uint64_t First = 0, Count = 0;
  /// A device with its own memory runs the share as this many consecutive
  /// chunks of groups, pipelined: the copies in of chunk k + 1, the kernel
  /// on chunk k and the copies out of chunk k - 1 at once (the launcher
  /// splits it; docs/runtime.md, "Pipelined shares"). 1 for the others.
  unsigned Chunks = 1;
  bool operator==(const Piece &O) const {
    return Device == O.Device && First == O.First && Count == O.Count && Chunks == O.Chunks;
  }
};

/// What moves for one buffer argument of one piece.
struct BufferMove {
  unsigned Arg = 0;
  /// The device allocation holds bytes [Lo, Hi) of the buffer.
  int64_t Lo = 0, Hi = 0;
  IntervalSet In;  ///< Copied to the device before the kernel.
  IntervalSet Out; ///< Copied back to the user's buffer.
  /// The device's [Lo, Hi) comes back to a host copy that the merge kernel
  /// reads.
  bool Merge = false;
  /// A buffer only commutative atomics update: the device starts from the
  /// operation's identity (add, xor) or the buffer's bytes (the others),
  /// and its copy comes back to be combined into the user's buffer.
  std::optional<CombinedArg> Combine;
};

/// Whether a combined buffer's device copy starts from zeros (the
/// identity of add and xor) rather than the buffer's own bytes.
bool startsFromIdentity(CombineOp Op);

/// Applies a device's copy of a combined buffer to the user's: \p Bytes
/// bytes of \p Into and \p From, as integers of \p C's width.
void combineInto(void *Into, const void *From, uint64_t Bytes, const CombinedArg &C);

/// \p Set as strided rects: runs of equally long intervals at a constant
/// pitch (a box's rows) become one rect each, offsets from \p Base.
std::vector<Rect> toRects(const IntervalSet &Set, int64_t Base);

/// __global and __constant pointers: the arguments that are buffers.
bool isBufferArg(ArgKind Kind);

/// Checks the arguments against the kernel's signature: the count, each
/// one set and of the right kind and size. Errors name the argument.
Status checkArgs(const KernelInfo &K, const std::vector<HostArg> &Args);

/// The launch values footprints are evaluated with.
LaunchValues launchValues(const KernelInfo &K, const std::vector<HostArg> &Args,
                          const NDRange &Range);

/// Checks that no buffer is smaller than the bytes the launch surely
/// touches (accesses not under a condition).
Status checkBufferSizes(const KernelInfo &K, const std::vector<HostArg> &Args,
                        const NDRange &Range);

/// Where a split of a kernel's launch-tested buffers (KernelInfo::
/// LaunchTested) meets: the first bytes one piece reads that another
/// writes, as "'a' bytes [x, y) are read by groups [..) and written by
/// groups [..)". Empty when every piece reads only bytes no other piece
/// writes (with the scalar arguments' values, and guards that bound an
/// index), so the pieces may run on devices with separate memories.
Result<std::string> firstConflict(const KernelInfo &K, const std::vector<HostArg> &Args,
                                  const NDRange &Range, const std::vector<Piece> &Pieces);

/// The moves of every piece whose device does not share host memory
/// (empty for the others, unless \p HostPieces: then their moves say what
/// they read and write in place, which residency needs when the host's
/// copy is not current). \p HasMerge: whether the kernel has a merge
/// kernel; without one, copies whose writes may overlap are an error.
Result<std::vector<std::vector<BufferMove>>>
planMoves(const KernelInfo &K, const std::vector<HostArg> &Args,
          const NDRange &Range, const std::vector<Piece> &Pieces,
          const std::vector<bool> &SharesHostMemory, bool HasMerge,
          bool HostPieces = false);

/// planMoves for the last launches: a launch's moves depend on the
/// kernel, the buffers' sizes, the scalars, the range and the pieces, and
/// planning them from the footprints costs milliseconds for 10^5 groups
/// (a stencil's boxes have a row per grid row), while launches repeat.
/// Safe to use from several threads.
class MovesCache {
public:
  /// \p KernelId: what identifies the kernel's compilation beyond \p K's
  /// address (which a later bundle may reuse), e.g. its source's hash.
  Result<std::vector<std::vector<BufferMove>>>
  plan(const KernelInfo &K, const std::string &KernelId, const std::vector<HostArg> &Args,
       const NDRange &Range,
       const std::vector<Piece> &Pieces, const std::vector<bool> &SharesHostMemory,
       bool HasMerge, bool HostPieces = false);

  /// checkBufferSizes, once per launch shape: its footprint over every
  /// group cost 0.3-0.6 ms a launch for a 2-D stencil of 4094^2 items
  /// (whatever the plan), more than the H100 took to run it.
  Status checkSizes(const KernelInfo &K, const std::string &KernelId,
                    const std::vector<HostArg> &Args, const NDRange &Range);

  /// How many plans were not found in the cache.
  uint64_t misses() {
    std::lock_guard<std::mutex> Hold(Lock);
    return Misses;
  }

private:
  /// Enough for applications that cycle through several kernels and
  /// shapes: scan's five launches, or skmd-bench's five plans of one
  /// application taken in turn (with 8, scan's auto plan was planned
  /// again every run, 3 ms of a 6 ms run on the 2xH200 host).
  static constexpr size_t Entries = 64;
  std::mutex Lock;
  /// Most recently used first.
  std::deque<std::pair<std::string, std::vector<std::vector<BufferMove>>>> Recent;
  /// Launch shapes whose buffer sizes passed, most recent first.
  std::deque<std::string> SizesChecked;
  uint64_t Misses = 0;
};

/// MovesCache's key: every input of planMoves but the buffers' addresses.
std::string movesKey(const KernelInfo &K, const std::string &KernelId,
                     const std::vector<HostArg> &Args, const NDRange &Range,
                     const std::vector<Piece> &Pieces,
                     const std::vector<bool> &SharesHostMemory, bool HasMerge,
                     bool HostPieces = false);

} // namespace skmd

#endif // SKMD_BUFFERS_TRANSFERS_H
