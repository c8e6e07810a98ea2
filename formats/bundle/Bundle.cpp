//===- Bundle.cpp - Reading and writing .skmd bundles ---------------------===//
#include "bundle/Bundle.h"
#include "bundle/Crc32.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace skmd {

using namespace bundle;

namespace {

uint64_t readLE(const uint8_t *P, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= static_cast<uint64_t>(P[I]) << (8 * I);
  return V;
}

void writeLE(uint8_t *P, uint64_t V, unsigned Bytes) {
  for (unsigned I = 0; I < Bytes; ++I)
    P[I] = static_cast<uint8_t>(V >> (8 * I));
}

uint64_t alignUp(uint64_t V, uint64_t A) { return (V + A - 1) / A * A; }

Failure corrupt(const std::string &What) {
  return Failure(ErrorCode::CorruptBundle, What);
}

/// CRC over the header (its CRC field taken as zero) and the section table.
uint32_t headerCrc(const uint8_t *File, uint64_t TableEnd) {
  uint8_t Header[HeaderSize];
  std::memcpy(Header, File, HeaderSize);
  writeLE(Header + OffHeaderCrc, 0, 4);
  uint32_t Crc = crc32(Header, HeaderSize);
  return crc32(File + HeaderSize, TableEnd - HeaderSize, Crc);
}

} // namespace

std::string_view bundle::sectionKindName(SectionKind Kind) {
  switch (Kind) {
  case SectionKind::Metadata:
    return "metadata";
  case SectionKind::X86SharedObject:
    return "x86-shared-object";
  case SectionKind::PTX:
    return "ptx";
  case SectionKind::SPIRV:
    return "spirv";
  case SectionKind::Source:
    return "source";
  }
  return "?";
}

std::optional<SectionKind> bundle::sectionKindFromValue(uint32_t Value) {
  switch (Value) {
  case static_cast<uint32_t>(SectionKind::Metadata):
  case static_cast<uint32_t>(SectionKind::X86SharedObject):
  case static_cast<uint32_t>(SectionKind::PTX):
  case static_cast<uint32_t>(SectionKind::SPIRV):
  case static_cast<uint32_t>(SectionKind::Source):
    return static_cast<SectionKind>(Value);
  default:
    return std::nullopt;
  }
}

SectionKind sectionKindFor(TargetKind Target) {
  switch (Target) {
  case TargetKind::X86:
    return SectionKind::X86SharedObject;
  case TargetKind::PTX:
    return SectionKind::PTX;
  case TargetKind::SPIRV:
    return SectionKind::SPIRV;
  }
  return SectionKind::Metadata;
}

Result<Bundle> Bundle::fromBytes(std::vector<uint8_t> Bytes) {
  const uint64_t Size = Bytes.size();
  const uint8_t *P = Bytes.data();
  if (Size < HeaderSize)
    return corrupt("file is " + std::to_string(Size) +
                   " bytes, too short for a bundle header");
  if (std::memcmp(P + OffMagic, Magic, sizeof(Magic)) != 0)
    return corrupt("not an SKMD bundle (bad magic)");

  uint16_t Major = readLE(P + OffMajor, 2);
  uint16_t Minor = readLE(P + OffMinor, 2);
  if (Major != FormatMajor)
    return Failure(ErrorCode::UnsupportedBundleVersion,
                 "bundle format " + std::to_string(Major) + "." +
                     std::to_string(Minor) + " is not supported (this runtime "
                     "reads format " + std::to_string(FormatMajor) + ".x)");

  uint64_t DeclaredSize = readLE(P + OffFileSize, 8);
  if (DeclaredSize != Size)
    return corrupt("file is " + std::to_string(Size) + " bytes but its header "
                   "says " + std::to_string(DeclaredSize) +
                   " (truncated or extended)");

  uint32_t Count = readLE(P + OffSectionCount, 4);
  uint64_t TableOffset = readLE(P + OffTableOffset, 8);
  if (Count == 0 || Count > MaxSections)
    return corrupt("section count " + std::to_string(Count) +
                   " is out of range");
  if (TableOffset != HeaderSize)
    return corrupt("section table is not where format 1 puts it");
  uint64_t TableEnd = TableOffset + uint64_t(Count) * SectionEntrySize;
  if (TableEnd > Size)
    return corrupt("section table runs past the end of the file");
  if (headerCrc(P, TableEnd) != readLE(P + OffHeaderCrc, 4))
    return corrupt("header checksum mismatch");

  Bundle B;
  B.Minor = Minor;
  const BundleSection *MetaSection = nullptr;
  for (uint32_t I = 0; I < Count; ++I) {
    const uint8_t *E = P + TableOffset + uint64_t(I) * SectionEntrySize;
    std::string Name = "section " + std::to_string(I);
    uint32_t RawKind = readLE(E + OffEntryKind, 4);
    auto Kind = sectionKindFromValue(RawKind);
    if (!Kind)
      return corrupt(Name + " has unknown kind " + std::to_string(RawKind));
    BundleSection S{*Kind, readLE(E + OffEntryOffset, 8),
                    readLE(E + OffEntrySize, 8),
                    static_cast<uint32_t>(readLE(E + OffEntryCrc, 4))};
    if (S.Offset < TableEnd || S.Offset > Size || S.Size > Size - S.Offset)
      return corrupt(Name + " (" + std::string(sectionKindName(S.Kind)) +
                     ") lies outside the file");
    if (crc32(P + S.Offset, S.Size) != S.Crc)
      return corrupt(Name + " (" + std::string(sectionKindName(S.Kind)) +
                     ") checksum mismatch");
    for (const BundleSection &Other : B.Sections)
      if (Other.Kind == S.Kind)
        return corrupt("two " + std::string(sectionKindName(S.Kind)) +
                       " sections");
    B.Sections.push_back(S);
  }
  for (const BundleSection &S : B.Sections)
    if (S.Kind == SectionKind::Metadata)
      MetaSection = &S;
  if (!MetaSection)
    return corrupt("bundle has no metadata section");

  // Sections must not overlap, and the padding between them must be zero:
  // then every byte of the file is checked, and no flipped bit goes unseen.
  std::vector<BundleSection> Sorted = B.Sections;
  std::sort(Sorted.begin(), Sorted.end(),
            [](const BundleSection &L, const BundleSection &R) {
              return L.Offset < R.Offset;
            });
  uint64_t Covered = TableEnd;
  for (size_t I = 0; I <= Sorted.size(); ++I) {
    uint64_t Next = I < Sorted.size() ? Sorted[I].Offset : Size;
    if (Next < Covered)
      return corrupt("sections overlap");
    for (uint64_t Off = Covered; Off < Next; ++Off)
      if (P[Off] != 0)
        return corrupt("padding at byte " + std::to_string(Off) +
                       " is not zero");
    if (I < Sorted.size())
      Covered = Sorted[I].Offset + Sorted[I].Size;
  }

  B.Bytes = std::move(Bytes);
  auto Meta = parseMetadata(B.payload(*MetaSection));
  if (!Meta)
    return Meta.error();
  B.Meta = std::move(Meta.value());

  // Every target the metadata names has its variant, and nothing else is
  // there: a bundle that lies about its contents is corrupt.
  for (const TargetInfo &T : B.Meta.Targets)
    if (B.variant(T.Kind).empty())
      return corrupt("metadata lists target " +
                     std::string(targetKindName(T.Kind)) +
                     " but the bundle has no such variant");
  for (const BundleSection &S : B.Sections) {
    if (S.Kind == SectionKind::Metadata || S.Kind == SectionKind::Source)
      continue;
    bool Listed = false;
    for (const TargetInfo &T : B.Meta.Targets)
      Listed |= sectionKindFor(T.Kind) == S.Kind;
    if (!Listed)
      return corrupt(std::string(sectionKindName(S.Kind)) +
                     " section has no target in the metadata");
  }
  return B;
}

Result<Bundle> Bundle::fromFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Failure(ErrorCode::IOError,
                 "cannot open '" + Path + "': " + std::strerror(errno));
  std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                             std::istreambuf_iterator<char>());
  if (In.bad())
    return Failure(ErrorCode::IOError, "cannot read '" + Path + "'");
  auto B = fromBytes(std::move(Bytes));
  if (!B)
    return Failure(B.error().code(), Path + ": " + B.error().message());
  return B;
}

std::string_view Bundle::variant(TargetKind Target) const {
  SectionKind Kind = sectionKindFor(Target);
  for (const BundleSection &S : Sections)
    if (S.Kind == Kind)
      return payload(S);
  return {};
}

std::string_view Bundle::payload(const BundleSection &S) const {
  return {reinterpret_cast<const char *>(Bytes.data()) + S.Offset, S.Size};
}

namespace {

/// Sources are bytes, and JSON strings UTF-8: a comment in Latin-1 is
/// valid OpenCL C. A string that is not UTF-8 is written as {"hex": ...}.
nlohmann::ordered_json bytesToJson(const std::string &S) {
  try {
    (void)nlohmann::ordered_json(S).dump();
    return S;
  } catch (const nlohmann::json::type_error &) {
    static const char Digits[] = "0123456789abcdef";
    std::string Hex;
    Hex.reserve(2 * S.size());
    for (unsigned char C : S) {
      Hex += Digits[C >> 4];
      Hex += Digits[C & 15];
    }
    return nlohmann::ordered_json{{"hex", Hex}};
  }
}

std::optional<std::string> bytesFromJson(const nlohmann::json &J) {
  if (J.is_string())
    return J.get<std::string>();
  if (!J.is_object() || J.size() != 1 || !J.contains("hex") || !J["hex"].is_string())
    return std::nullopt;
  const std::string &Hex = J["hex"].get_ref<const std::string &>();
  if (Hex.size() % 2)
    return std::nullopt;
  auto Digit = [](char C) -> int {
    if (C >= '0' && C <= '9')
      return C - '0';
    if (C >= 'a' && C <= 'f')
      return C - 'a' + 10;
    return -1;
  };
  std::string Out;
  Out.reserve(Hex.size() / 2);
  for (size_t I = 0; I < Hex.size(); I += 2) {
    int Hi = Digit(Hex[I]), Lo = Digit(Hex[I + 1]);
    if (Hi < 0 || Lo < 0)
      return std::nullopt;
    Out += static_cast<char>(Hi * 16 + Lo);
  }
  return Out;
}

} // namespace

std::string toJson(const BundleSource &S) {
  nlohmann::ordered_json Options = nlohmann::ordered_json::array();
  for (const std::string &O : S.Options)
    Options.push_back(bytesToJson(O));
  nlohmann::ordered_json Files = nlohmann::ordered_json::array();
  for (const auto &[Name, Text] : S.Files)
    Files.push_back({{"name", bytesToJson(Name)}, {"text", bytesToJson(Text)}});
  return nlohmann::ordered_json{
      {"main", bytesToJson(S.Main)}, {"options", Options}, {"files", Files}}
      .dump(1);
}

Result<BundleSource> parseBundleSource(std::string_view Json) {
  auto Bad = [](const std::string &What) {
    return Failure(ErrorCode::CorruptBundle, "the bundle's source section " + What);
  };
  nlohmann::json J = nlohmann::json::parse(Json, nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || !J.contains("main") || !J.contains("options") ||
      !J["options"].is_array() || !J.contains("files") || !J["files"].is_array())
    return Bad("is not an object with main, options and files");
  BundleSource S;
  auto Main = bytesFromJson(J["main"]);
  if (!Main)
    return Bad("has a main file name that is not a string");
  S.Main = std::move(*Main);
  for (const auto &O : J["options"]) {
    auto Option = bytesFromJson(O);
    if (!Option)
      return Bad("has an option that is not a string");
    S.Options.push_back(std::move(*Option));
  }
  bool HasMain = false;
  for (const auto &F : J["files"]) {
    std::optional<std::string> Name, Text;
    if (F.is_object() && F.contains("name") && F.contains("text")) {
      Name = bytesFromJson(F["name"]);
      Text = bytesFromJson(F["text"]);
    }
    if (!Name || !Text)
      return Bad("has a file without a name and a text");
    // Names are written into a scratch folder: nothing may leave it.
    if (Name->empty() || (*Name)[0] == '/' || Name->find("..") != std::string::npos ||
        Name->find('\0') != std::string::npos)
      return Bad("names a file outside its folder: '" + *Name + "'");
    HasMain |= *Name == S.Main;
    S.Files.emplace_back(std::move(*Name), std::move(*Text));
  }
  if (!HasMain)
    return Bad("lacks its main file '" + S.Main + "'");
  return S;
}

Result<BundleSource> Bundle::source() const {
  for (const BundleSection &S : Sections)
    if (S.Kind == SectionKind::Source)
      return parseBundleSource(payload(S));
  return Failure(ErrorCode::NotFound,
                 "the bundle carries no source (compiled by an skmd-cc before "
                 "bundles did); compile it again");
}

void BundleWriter::addVariant(TargetKind Target, std::string Bytes) {
  Variants.emplace_back(Target, std::move(Bytes));
}

Result<std::vector<uint8_t>> BundleWriter::serialize() const {
  for (const TargetInfo &T : Meta.Targets) {
    bool Found = false;
    for (const auto &V : Variants)
      Found |= V.first == T.Kind;
    if (!Found)
      return Failure(ErrorCode::InvalidArgument,
                   "no variant for target " +
                       std::string(targetKindName(T.Kind)));
  }
  for (const auto &V : Variants) {
    if (!Meta.findTarget(V.first))
      return Failure(ErrorCode::InvalidArgument,
                   "variant " + std::string(targetKindName(V.first)) +
                       " has no target in the metadata");
    if (V.second.empty())
      return Failure(ErrorCode::InvalidArgument,
                   "variant " + std::string(targetKindName(V.first)) +
                       " is empty");
  }

  std::vector<std::pair<SectionKind, std::string_view>> Payloads;
  std::string MetaJson = toJson(Meta);
  Payloads.emplace_back(SectionKind::Metadata, MetaJson);
  for (const auto &V : Variants)
    Payloads.emplace_back(sectionKindFor(V.first), V.second);
  std::string SourceJson = Source ? toJson(*Source) : std::string();
  if (Source)
    Payloads.emplace_back(SectionKind::Source, SourceJson);

  const uint64_t TableEnd = HeaderSize + Payloads.size() * SectionEntrySize;
  uint64_t Cursor = alignUp(TableEnd, PayloadAlignment);
  std::vector<uint64_t> Offsets;
  for (const auto &PL : Payloads) {
    Offsets.push_back(Cursor);
    Cursor = alignUp(Cursor + PL.second.size(), PayloadAlignment);
  }
  const uint64_t FileSize = Offsets.back() + Payloads.back().second.size();

  std::vector<uint8_t> Out(FileSize, 0);
  uint8_t *P = Out.data();
  std::memcpy(P + OffMagic, Magic, sizeof(Magic));
  writeLE(P + OffMajor, FormatMajor, 2);
  writeLE(P + OffMinor, FormatMinor, 2);
  writeLE(P + OffSectionCount, Payloads.size(), 4);
  writeLE(P + OffFileSize, FileSize, 8);
  writeLE(P + OffTableOffset, HeaderSize, 8);
  for (size_t I = 0; I < Payloads.size(); ++I) {
    uint8_t *E = P + HeaderSize + I * SectionEntrySize;
    std::string_view Data = Payloads[I].second;
    writeLE(E + OffEntryKind, static_cast<uint32_t>(Payloads[I].first), 4);
    writeLE(E + OffEntryOffset, Offsets[I], 8);
    writeLE(E + OffEntrySize, Data.size(), 8);
    writeLE(E + OffEntryCrc, crc32(Data.data(), Data.size()), 4);
    std::memcpy(P + Offsets[I], Data.data(), Data.size());
  }
  writeLE(P + OffHeaderCrc, headerCrc(P, TableEnd), 4);
  return Out;
}

Status BundleWriter::writeFile(const std::string &Path) const {
  auto Bytes = serialize();
  if (!Bytes)
    return Bytes.error();
  return writeFileAtomically(
      Path, std::string_view(reinterpret_cast<const char *>(Bytes->data()),
                             Bytes->size()));
}

Status writeFileAtomically(const std::string &Path, std::string_view Data) {
  std::string Temp = Path + ".tmp-XXXXXX";
  int Fd = mkstemp(Temp.data());
  if (Fd < 0)
    return Failure(ErrorCode::IOError, "cannot create a temporary file for '" +
                                         Path + "': " + std::strerror(errno));
  auto Fail = [&](const std::string &What) {
    int Saved = errno;
    close(Fd);
    unlink(Temp.c_str());
    return Failure(ErrorCode::IOError,
                 What + " '" + Path + "': " + std::strerror(Saved));
  };
  size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t N = write(Fd, Data.data() + Done, Data.size() - Done);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return Fail("cannot write");
    }
    Done += static_cast<size_t>(N);
  }
  // mkstemp creates 0600; a bundle is an ordinary output file.
  mode_t Mask = umask(0);
  umask(Mask);
  if (fchmod(Fd, 0666 & ~Mask) != 0)
    return Fail("cannot set the mode of");
  if (close(Fd) != 0) {
    int Saved = errno;
    unlink(Temp.c_str());
    return Failure(ErrorCode::IOError,
                 "cannot write '" + Path + "': " + std::strerror(Saved));
  }
  if (std::rename(Temp.c_str(), Path.c_str()) != 0) {
    int Saved = errno;
    unlink(Temp.c_str());
    return Failure(ErrorCode::IOError,
                 "cannot rename into '" + Path + "': " + std::strerror(Saved));
  }
  return Status::success();
}

} // namespace skmd
