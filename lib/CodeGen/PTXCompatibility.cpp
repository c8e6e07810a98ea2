//===- PTXCompatibility.cpp - PTX the CUDA driver's JIT accepts -----------===//
#include "CodeGen/PTXCompatibility.h"

#include <regex>

namespace skmd {

std::string dropSharedPointerParamAttributes(std::string PTX) {
  static const std::regex SharedParam(R"((\.param \.u(32|64)) \.ptr \.shared \.align [0-9]+)");
  return std::regex_replace(PTX, SharedParam, "$1");
}

} // namespace skmd
