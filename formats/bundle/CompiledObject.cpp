//===- CompiledObject.cpp - clCompileProgram's output, clLinkProgram's input -===//
#include "bundle/CompiledObject.h"

#include <nlohmann/json.hpp>

#include <cstring>

namespace skmd {

namespace {

constexpr char Magic[8] = {'S', 'K', 'M', 'D', 'O', 'B', 'J', '1'};

void putInt(std::vector<uint8_t> &Out, uint64_t V, unsigned Bytes) {
  for (unsigned I = 0; I < Bytes; ++I)
    Out.push_back(uint8_t(V >> (8 * I)));
}

void putBytes(std::vector<uint8_t> &Out, std::string_view Data) {
  putInt(Out, Data.size(), 8);
  Out.insert(Out.end(), Data.begin(), Data.end());
}

/// Reads the layout front to back; every read checks what is left.
class Reader {
public:
  explicit Reader(const std::vector<uint8_t> &Bytes) : Bytes(Bytes) {}

  bool integer(uint64_t &V, unsigned Size) {
    if (Bytes.size() - At < Size)
      return false;
    V = 0;
    for (unsigned I = 0; I < Size; ++I)
      V |= uint64_t(Bytes[At + I]) << (8 * I);
    At += Size;
    return true;
  }

  bool bytes(std::string &Out) {
    uint64_t N;
    if (!integer(N, 8) || Bytes.size() - At < N)
      return false;
    Out.assign(reinterpret_cast<const char *>(Bytes.data()) + At, N);
    At += N;
    return true;
  }

  bool atEnd() const { return At == Bytes.size(); }

private:
  const std::vector<uint8_t> &Bytes;
  size_t At = sizeof Magic;
};

Failure corrupt(const std::string &Why) {
  return Failure(ErrorCode::CorruptBundle, "not a valid SKMD compiled object: " + Why);
}

} // namespace

bool isCompiledObject(const std::vector<uint8_t> &Bytes) {
  return Bytes.size() >= sizeof Magic && std::memcmp(Bytes.data(), Magic, sizeof Magic) == 0;
}

std::vector<uint8_t> serialize(const CompiledObject &Object) {
  nlohmann::ordered_json Header = {{"library", Object.Library},
                                   {"opt_level", Object.OptLevel},
                                   {"options", Object.Options},
                                   {"kernels", kernelSignaturesToJson(Object.Kernels)}};
  std::vector<uint8_t> Out(Magic, Magic + sizeof Magic);
  putBytes(Out, Header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  putInt(Out, Object.Bitcode.size(), 4);
  for (const auto &[Target, Code] : Object.Bitcode) {
    putInt(Out, uint32_t(Target), 4);
    putBytes(Out, Code);
  }
  return Out;
}

Result<CompiledObject> parseCompiledObject(const std::vector<uint8_t> &Bytes) {
  if (!isCompiledObject(Bytes))
    return corrupt("it does not start with SKMDOBJ1");
  Reader R(Bytes);
  std::string HeaderText;
  if (!R.bytes(HeaderText))
    return corrupt("its header is cut short");
  nlohmann::json Header =
      nlohmann::json::parse(HeaderText, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (Header.is_discarded() || !Header.is_object() || !Header.contains("library") ||
      !Header["library"].is_boolean() || !Header.contains("opt_level") ||
      !Header["opt_level"].is_number_unsigned() || !Header.contains("options") ||
      !Header["options"].is_array() || !Header.contains("kernels") ||
      !Header["kernels"].is_string())
    return corrupt("its header lacks library, opt_level, options or kernels");
  CompiledObject Object;
  Object.Library = Header["library"].get<bool>();
  Object.OptLevel = Header["opt_level"].get<unsigned>();
  for (const auto &O : Header["options"]) {
    if (!O.is_string())
      return corrupt("an option is not a string");
    Object.Options.push_back(O.get<std::string>());
  }
  auto Kernels = parseKernelSignatures(Header["kernels"].get<std::string>());
  if (!Kernels)
    return corrupt(Kernels.error().message());
  Object.Kernels = std::move(*Kernels);
  uint64_t Count;
  if (!R.integer(Count, 4))
    return corrupt("its section count is cut short");
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Kind;
    std::string Code;
    if (!R.integer(Kind, 4) || !R.bytes(Code))
      return corrupt("a bitcode section is cut short");
    if (Kind > uint64_t(TargetKind::SPIRV) || Object.Bitcode.count(TargetKind(Kind)))
      return corrupt("a bitcode section's target is unknown or repeated");
    Object.Bitcode[TargetKind(Kind)] = std::move(Code);
  }
  if (!R.atEnd())
    return corrupt("bytes follow its last section");
  return Object;
}

} // namespace skmd
