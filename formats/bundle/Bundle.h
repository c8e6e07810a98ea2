//===- Bundle.h - Reading and writing .skmd bundles --------------*- C++ -*-===//
//
// Bundle::fromBytes validates everything before it hands out a Bundle: the
// header, the table, every section's bounds and CRC, and the metadata schema,
// and that each target named in the metadata has its variant. A truncated or
// corrupted file is a Failure that names what is wrong, never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUNDLE_BUNDLE_H
#define SKMD_BUNDLE_BUNDLE_H

#include "bundle/BundleFormat.h"
#include "bundle/Metadata.h"
#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace skmd {

/// The kernels' OpenCL C source as compiled: the file, the headers it
/// included (not the compiler's own), and the options that shaped it, so an
/// OpenCL driver can build the same program as an independent reference
/// (skmd-run --check=opencl).
struct BundleSource {
  std::string Main; ///< The file's name, a key of Files.
  std::vector<std::string> Options; ///< -D..., -cl-std=...
  std::vector<std::pair<std::string, std::string>> Files; ///< name, text
};
std::string toJson(const BundleSource &S);
Result<BundleSource> parseBundleSource(std::string_view Json);

struct BundleSection {
  bundle::SectionKind Kind;
  uint64_t Offset = 0;
  uint64_t Size = 0;
  uint32_t Crc = 0;
};

class Bundle {
public:
  /// Validates and takes a copy of a whole bundle file's bytes.
  static Result<Bundle> fromBytes(std::vector<uint8_t> Bytes);
  static Result<Bundle> fromFile(const std::string &Path);

  const BundleMetadata &metadata() const { return Meta; }
  /// The whole file's bytes, as validated (what a remote device sends).
  const std::vector<uint8_t> &bytes() const { return Bytes; }
  uint16_t formatMinor() const { return Minor; }
  const std::vector<BundleSection> &sections() const { return Sections; }

  /// The variant for a target, or an empty view when the bundle has none.
  std::string_view variant(TargetKind Target) const;
  /// The raw bytes of a section.
  std::string_view payload(const BundleSection &S) const;
  /// The source the bundle was compiled from; an error where it carries
  /// none (bundles of skmd-cc before the section existed).
  Result<BundleSource> source() const;

private:
  Bundle() = default;
  std::vector<uint8_t> Bytes;
  std::vector<BundleSection> Sections;
  BundleMetadata Meta;
  uint16_t Minor = 0;
};

/// The section that holds a target's variant.
bundle::SectionKind sectionKindFor(TargetKind Target);

/// Assembles a bundle. The metadata's targets must match the variants added.
class BundleWriter {
public:
  explicit BundleWriter(BundleMetadata Meta) : Meta(std::move(Meta)) {}
  const BundleMetadata &metadata() const { return Meta; }

  void addVariant(TargetKind Target, std::string Bytes);
  void setSource(BundleSource S) { Source = std::move(S); }

  /// The complete file image; fails if a target lacks its variant or a
  /// variant has no target in the metadata.
  Result<std::vector<uint8_t>> serialize() const;

  /// Writes atomically: a temporary file beside \p Path, renamed into place
  /// only when complete, so a failure never leaves a partial bundle.
  Status writeFile(const std::string &Path) const;

private:
  BundleMetadata Meta;
  std::vector<std::pair<TargetKind, std::string>> Variants;
  std::optional<BundleSource> Source;
};

/// Writes \p Data to \p Path through a temporary file and rename(2).
Status writeFileAtomically(const std::string &Path, std::string_view Data);

} // namespace skmd

#endif // SKMD_BUNDLE_BUNDLE_H
