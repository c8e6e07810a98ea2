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
