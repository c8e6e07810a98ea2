//===- BlockCache.h - Freed device memory kept for the next launches -*- C++ -*-===//
//
// A device's allocator keeps the blocks launches release: a fresh cudaMalloc
// or cuMemFree of hundreds of MB takes milliseconds, and fresh host memory
// (a HostDiscrete device's) is faulted in page by page inside the timed
// copies. Blocks are whole granules, so requests that differ a little reuse
// each other's; a cached block up to twice the request will do; beyond a
// limit, the largest cached blocks go back first. The device owns the real
// allocation and release; this class only keeps the books, under its own
// lock (a launch's copies and a profiling run may allocate at once).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_BLOCKCACHE_H
#define SKMD_DEVICES_BLOCKCACHE_H

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace skmd {

class BlockCache {
public:
  /// Blocks of whole \p Granule bytes; at most \p MaxCachedBytes kept.
  BlockCache(uint64_t Granule, uint64_t MaxCachedBytes)
      : Granule(Granule), MaxCached(MaxCachedBytes) {}

  /// The block size a request of \p Bytes takes.
  uint64_t blockFor(uint64_t Bytes) const {
    return (std::max<uint64_t>(Bytes, 1) + Granule - 1) / Granule * Granule;
  }
  /// A cached block for a request of block size \p Block, now live; none
  /// when no cached block fits.
  std::optional<uint64_t> take(uint64_t Block) {
    std::lock_guard<std::mutex> Hold(Lock);
    auto Hit = Cached.lower_bound(Block);
    if (Hit == Cached.end() || Hit->first > 2 * Block)
      return std::nullopt;
    uint64_t Address = Hit->second;
    Live[Address] = Hit->first;
    CachedBytes -= Hit->first;
    Cached.erase(Hit);
    return Address;
  }
  /// A block the device just allocated.
  void adopt(uint64_t Address, uint64_t Block) {
    std::lock_guard<std::mutex> Hold(Lock);
    Live[Address] = Block;
  }
  /// Takes back live block \p Address; returns the blocks (address, size)
  /// the device must now free, the cache being over its limit. Unknown
  /// addresses are ignored.
  std::vector<std::pair<uint64_t, uint64_t>> give(uint64_t Address) {
    std::lock_guard<std::mutex> Hold(Lock);
    std::vector<std::pair<uint64_t, uint64_t>> Free;
    auto It = Live.find(Address);
    if (It == Live.end())
      return Free;
    Cached.emplace(It->second, It->first);
    CachedBytes += It->second;
    Live.erase(It);
    while (CachedBytes > MaxCached && !Cached.empty()) {
      auto Largest = std::prev(Cached.end());
      Free.push_back({Largest->second, Largest->first});
      CachedBytes -= Largest->first;
      Cached.erase(Largest);
    }
    return Free;
  }
  /// Empties the cache (the device ran out of memory, or is closing):
  /// the blocks to free.
  std::vector<std::pair<uint64_t, uint64_t>> drainCached() {
    std::lock_guard<std::mutex> Hold(Lock);
    std::vector<std::pair<uint64_t, uint64_t>> Free;
    for (auto [Size, Address] : Cached)
      Free.push_back({Address, Size});
    Cached.clear();
    CachedBytes = 0;
    return Free;
  }
  /// Every block, cached or live, forgotten: for the device's destructor.
  std::vector<std::pair<uint64_t, uint64_t>> drainAll() {
    auto Free = drainCached();
    std::lock_guard<std::mutex> Hold(Lock);
    for (auto [Address, Size] : Live)
      Free.push_back({Address, Size});
    Live.clear();
    return Free;
  }
  bool anyCached() {
    std::lock_guard<std::mutex> Hold(Lock);
    return !Cached.empty();
  }

private:
  const uint64_t Granule, MaxCached;
  std::mutex Lock;
  /// Cached blocks by size; live blocks by address.
  std::multimap<uint64_t, uint64_t> Cached;
  std::map<uint64_t, uint64_t> Live;
  uint64_t CachedBytes = 0;
};

} // namespace skmd

#endif // SKMD_DEVICES_BLOCKCACHE_H
