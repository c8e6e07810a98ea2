//===- Crc32.cpp - CRC-32 (IEEE 802.3) -------------------------------------===//
#include "bundle/Crc32.h"

#include <array>

namespace skmd {

static std::array<uint32_t, 256> makeTable() {
  std::array<uint32_t, 256> Table{};
  for (uint32_t I = 0; I < 256; ++I) {
    uint32_t C = I;
    for (int K = 0; K < 8; ++K)
      C = (C & 1) ? 0xEDB88320u ^ (C >> 1) : C >> 1;
    Table[I] = C;
  }
  return Table;
}

uint32_t crc32(const void *Data, size_t Size, uint32_t Crc) {
  static const std::array<uint32_t, 256> Table = makeTable();
  const auto *P = static_cast<const unsigned char *>(Data);
  Crc = ~Crc;
  for (size_t I = 0; I < Size; ++I)
    Crc = Table[(Crc ^ P[I]) & 0xFF] ^ (Crc >> 8);
  return ~Crc;
}

} // namespace skmd
