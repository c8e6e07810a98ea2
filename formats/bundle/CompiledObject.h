//===- CompiledObject.h - clCompileProgram's output, clLinkProgram's input -*- C++ -*-===//
//
// A compiled object is one OpenCL C unit after the frontend: its LLVM
// bitcode for each target's triple (x86, PTX, SPIR-V), the host-side
// description of the kernels it defines, and the options it was compiled
// with. A library is the same for units already linked together.
// clLinkProgram links the objects' bitcode (llvm::Linker, so that each
// unit's static functions stay its own) and runs the pipeline a source
// build runs after the frontend. The platform reads these without LLVM
// (a binary's type, the build cache); the bitcode is only the compiler's.
//
// Layout: "SKMDOBJ1", a u64 length and that much JSON (library, opt_level,
// options, kernels), a u32 count of bitcode sections, each a u32 target
// kind (TargetKind), a u64 length and the bytes; integers little-endian.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUNDLE_COMPILEDOBJECT_H
#define SKMD_BUNDLE_COMPILEDOBJECT_H

#include "bundle/Metadata.h"
#include "support/Result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace skmd {

struct CompiledObject {
  /// A library (clLinkProgram -create-library), else one unit.
  bool Library = false;
  /// -O level of the pipeline after linking: 0 where -cl-opt-disable.
  unsigned OptLevel = 3;
  /// Each unit's compile options, as describeOptions gives them.
  std::vector<std::string> Options;
  /// The kernels the units define, as the frontend describes them.
  std::vector<KernelInfo> Kernels;
  /// Per target, the units' LLVM bitcode.
  std::map<TargetKind, std::string> Bitcode;
};

/// Whether \p Bytes start as a compiled object does.
bool isCompiledObject(const std::vector<uint8_t> &Bytes);

std::vector<uint8_t> serialize(const CompiledObject &Object);
Result<CompiledObject> parseCompiledObject(const std::vector<uint8_t> &Bytes);

/// The kernels' frontend descriptions (names, arguments, attributes) as
/// JSON, and back (bundle/Metadata.cpp).
std::string kernelSignaturesToJson(const std::vector<KernelInfo> &Kernels);
Result<std::vector<KernelInfo>> parseKernelSignatures(std::string_view Json);

} // namespace skmd

#endif // SKMD_BUNDLE_COMPILEDOBJECT_H
