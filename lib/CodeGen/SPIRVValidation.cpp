//===- SPIRVValidation.cpp - In-process SPIR-V checks ---------------------===//
#include "CodeGen/SPIRVValidation.h"

#include "spirv-tools/libspirv.hpp"

#include <cstring>
#include <vector>

using namespace llvm;

namespace skmd {

namespace {

constexpr spv_target_env Environment = SPV_ENV_OPENCL_2_2;

Expected<std::vector<uint32_t>> toWords(std::string_view Binary) {
  if (Binary.empty() || Binary.size() % 4 != 0)
    return createStringError(inconvertibleErrorCode(),
                             "SPIR-V module of " + Twine(Binary.size()) +
                                 " bytes is not a whole number of words");
  std::vector<uint32_t> Words(Binary.size() / 4);
  std::memcpy(Words.data(), Binary.data(), Binary.size());
  return Words;
}

} // namespace

Error validateSPIRV(std::string_view Binary) {
  auto Words = toWords(Binary);
  if (!Words)
    return Words.takeError();
  std::string Messages;
  spvtools::SpirvTools Tools(Environment);
  Tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &Pos, const char *Msg) {
    Messages += "\n  word " + std::to_string(Pos.index) + ": " + Msg;
  });
  if (Tools.Validate(*Words))
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "the SPIR-V backend produced an invalid module "
                           "(SPIRV-Tools, OpenCL 2.2 rules):" +
                               Messages);
}

std::string storeHalfAsFloat16Buffer(std::string Binary) {
  constexpr uint32_t OpCapability = 17, Float16Buffer = 8, Float16 = 9;
  constexpr size_t HeaderWords = 5;
  auto Word = [&](size_t I) {
    uint32_t W;
    std::memcpy(&W, Binary.data() + 4 * I, 4);
    return W;
  };
  size_t Words = Binary.size() / 4;
  // Capabilities come first, right after the header.
  for (size_t I = HeaderWords; I + 1 < Words;) {
    uint32_t Count = Word(I) >> 16, Opcode = Word(I) & 0xffff;
    if (Opcode != OpCapability || Count != 2)
      break;
    if (Word(I + 1) == Float16) {
      std::memcpy(Binary.data() + 4 * (I + 1), &Float16Buffer, 4);
      break;
    }
    I += Count;
  }
  return Binary;
}

Expected<std::string> disassembleSPIRV(std::string_view Binary) {
  auto Words = toWords(Binary);
  if (!Words)
    return Words.takeError();
  spvtools::SpirvTools Tools(Environment);
  std::string Text;
  if (!Tools.Disassemble(*Words, &Text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                             SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return createStringError(inconvertibleErrorCode(),
                             "cannot disassemble the SPIR-V module");
  return Text;
}

} // namespace skmd
