//===- ArgSpecs.h - Kernel arguments from the command line ------*- C++ -*-===//
//
// What skmd-run and skmd-prof share: sizes, scalar values and generated
// buffer contents from --global/--local/--arg specs, and the errors that
// end the tool.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TOOLS_ARGSPECS_H
#define SKMD_TOOLS_ARGSPECS_H

#include "skmd/skmd.h"

#include <cstdint>
#include <string>
#include <vector>

namespace skmd::tools {

/// Prefixes error messages.
extern const char *ToolName;

[[noreturn]] void die(const std::string &Message);
/// Dies with \p What and the API's message unless \p S is success.
void check(skmd_status S, const std::string &What);

/// The value of option \p Name at Argv[I], given as --name=value or as
/// --name value (then I moves past it); null when Argv[I] is another
/// option. Dies when the value is missing.
const char *optionValue(int Argc, char **Argv, int &I, const char *Name);

std::vector<std::string> split(const std::string &S, char Sep);
/// A non-negative integer, or a product of them (1024*1024).
uint64_t parseCount(const std::string &S, const std::string &What);
/// 1 to 3 comma-separated counts.
std::vector<size_t> parseSizes(const std::string &S, const std::string &What);
/// The scalar element type behind an OpenCL type name ("float4*" -> float).
std::string baseType(std::string T);
/// Whether OpenCL scalar type \p T is half, float or double.
bool isFloatType(const std::string &T);
/// The scalars of argument \p Index's element (skmd_get_kernel_arg_layout);
/// for bundles without layouts, the scalar or vector type its name gives;
/// empty if neither tells.
std::vector<skmd_scalar_run> argLayout(skmd_kernel K, unsigned Index,
                                       const skmd_arg_info &Info);
/// \p Text as the value of a value argument: one number for every scalar
/// of \p Layout, or one each, comma-separated (a struct's members in
/// order).
std::vector<uint8_t> scalarValue(const skmd_arg_info &Info,
                                 const std::vector<skmd_scalar_run> &Layout,
                                 const std::string &Text);
/// COUNT[:FILL[:SEED]] elements of the buffer's type; FILL is random, zero,
/// iota, a number or LO..HI, given to every scalar of \p Layout.
std::vector<uint8_t> bufferContents(const skmd_arg_info &Info,
                                    const std::vector<skmd_scalar_run> &Layout,
                                    const std::string &Spec);

/// Sets \p K's arguments from one spec each: scalar and __local ones on the
/// kernel, buffers' generated contents returned (empty for non-buffers).
/// Dies naming the signature if the count is wrong.
std::vector<std::vector<uint8_t>> setArguments(skmd_kernel K, const std::string &Kernel,
                                               const std::vector<std::string> &Specs,
                                               std::vector<skmd_arg_info> &Infos);

/// Wraps \p Buffers (one per argument, empty for non-buffers) and sets them
/// as \p K's buffer arguments; returns the handles to release.
std::vector<skmd_buffer> setBuffers(skmd_context Ctx, skmd_kernel K,
                                    std::vector<std::vector<uint8_t>> &Buffers,
                                    const std::vector<skmd_arg_info> &Infos);
/// The same with the memory given as (address, bytes) per argument.
std::vector<skmd_buffer> setBuffers(skmd_context Ctx, skmd_kernel K,
                                    const std::vector<std::pair<void *, size_t>> &Memory,
                                    const std::vector<skmd_arg_info> &Infos);

} // namespace skmd::tools

#endif // SKMD_TOOLS_ARGSPECS_H
