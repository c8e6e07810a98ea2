//===- StreamCopy.h - memcpy that leaves the cache alone ----------*- C++ -*-===//
//
// Copies into staging memory that a DMA engine reads next (a GPU's
// page-locked chunks, a server's shared slots) use non-temporal stores:
// the destination's lines are not read first (a plain store reads each
// line before writing it) and do not evict the cache, which matters when
// the copies share the memory bus with the DMA engine.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_STREAMCOPY_H
#define SKMD_DEVICES_STREAMCOPY_H

#include <cstdint>

namespace skmd {

/// memcpy of \p N bytes, with non-temporal stores where the host has AVX2.
void streamCopy(void *Dst, const void *Src, uint64_t N);

} // namespace skmd

#endif // SKMD_DEVICES_STREAMCOPY_H
