//===- Crc32.h - CRC-32 (IEEE 802.3) ------------------------------*- C++ -*-===//
#ifndef SKMD_BUNDLE_CRC32_H
#define SKMD_BUNDLE_CRC32_H

#include <cstddef>
#include <cstdint>

namespace skmd {

/// CRC-32 with the reflected polynomial 0xEDB88320 (zlib's), continuing from
/// \p Crc so that a checksum can be computed over several pieces.
uint32_t crc32(const void *Data, size_t Size, uint32_t Crc = 0);

} // namespace skmd

#endif // SKMD_BUNDLE_CRC32_H
