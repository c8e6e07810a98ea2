//===- BundleFormat.h - On-disk layout of a .skmd bundle ---------*- C++ -*-===//
//
// A bundle is a small container: a fixed header, a section table, and 64-byte
// aligned payloads. One section holds the metadata (JSON); the others hold one
// device variant each, with every kernel of the source file in it. The layout
// is written and read field by field in little-endian order, never by
// copying structs, so it does not depend on the compiler's struct layout.
// docs/bundle-format.md describes it and why it was chosen.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUNDLE_BUNDLEFORMAT_H
#define SKMD_BUNDLE_BUNDLEFORMAT_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace skmd::bundle {

inline constexpr char Magic[8] = {'S', 'K', 'M', 'D', 'B', 'N', 'D', 'L'};

/// A reader accepts any minor version of its major version; a new major
/// version means an incompatible layout.
inline constexpr uint16_t FormatMajor = 1;
inline constexpr uint16_t FormatMinor = 0;

inline constexpr uint64_t HeaderSize = 48;
inline constexpr uint64_t SectionEntrySize = 32;
inline constexpr uint64_t PayloadAlignment = 64;

/// Header field offsets.
inline constexpr uint64_t OffMagic = 0;
inline constexpr uint64_t OffMajor = 8;
inline constexpr uint64_t OffMinor = 10;
inline constexpr uint64_t OffSectionCount = 12;
inline constexpr uint64_t OffFileSize = 16;
inline constexpr uint64_t OffTableOffset = 24;
/// CRC-32 of the header (with this field as zero) followed by the table.
inline constexpr uint64_t OffHeaderCrc = 32;

/// Section entry field offsets, relative to the entry.
inline constexpr uint64_t OffEntryKind = 0;
inline constexpr uint64_t OffEntryOffset = 8;
inline constexpr uint64_t OffEntrySize = 16;
inline constexpr uint64_t OffEntryCrc = 24;

/// Caps that keep a corrupt file from asking for absurd allocations.
inline constexpr uint32_t MaxSections = 64;

enum class SectionKind : uint32_t {
  Metadata = 1,        ///< UTF-8 JSON, see docs/metadata.md.
  X86SharedObject = 2, ///< ELF x86-64 shared object.
  PTX = 3,             ///< PTX text, NUL-terminated for cuModuleLoadData.
  SPIRV = 4,           ///< SPIR-V binary module.
  Source = 5,          ///< UTF-8 JSON: the OpenCL C source and its headers.
};

std::string_view sectionKindName(SectionKind Kind);
std::optional<SectionKind> sectionKindFromValue(uint32_t Value);

} // namespace skmd::bundle

#endif // SKMD_BUNDLE_BUNDLEFORMAT_H
