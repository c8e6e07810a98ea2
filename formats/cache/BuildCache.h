//===- BuildCache.h - Bundles built ahead of time, by source and options --*- C++ -*-===//
//
// The SKMD OpenCL platform builds programs from source with the compiler
// module, which needs LLVM; the GPU hosts have none. They take bundles from
// a build cache instead: a folder of bundles keyed by a program's source
// and its build options, filled where LLVM is (`skmd-cc --cache=DIR`, or a
// run of the program with SKMD_CACHE=DIR) and read where it is not
// (SKMD_CACHE=DIR).
//
// An entry is <key>.skmd beside <key>.key, which holds the canonical
// options and the whole source: a lookup compares them, so two programs
// whose keys collide never share a bundle. The key covers the source text
// and the options, not the files the source #includes.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CACHE_BUILDCACHE_H
#define SKMD_CACHE_BUILDCACHE_H

#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// clBuildProgram's options as SKMD compiles with them.
struct BuildOptions {
  std::vector<std::string> Defines;     ///< -D name[=value]
  std::vector<std::string> IncludeDirs; ///< -I dir
  std::string CLStd = "CL1.2";          ///< -cl-std=: CL1.0, CL1.1 or CL1.2
  bool OptDisable = false;              ///< -cl-opt-disable
  bool WarningsAsErrors = false;        ///< -Werror
  bool NoWarnings = false;              ///< -w

  /// The options as one string in a fixed form ("-cl-std=CL1.2 -DN=4
  /// -Iinc"): equal for option strings that build the same program.
  std::string canonical() const;
};

/// Parses \p Options as clBuildProgram takes them: -D, -I (attached or
/// not), -cl-std= up to the devices' OpenCL C 1.2, -cl-opt-disable, -w
/// and -Werror; the -cl-* math and argument-info switches are accepted and
/// change nothing here (SKMD keeps precise math). Anything else fails,
/// naming it.
Result<BuildOptions> parseBuildOptions(const std::string &Options);

class BuildCache {
public:
  explicit BuildCache(std::string Dir) : Dir(std::move(Dir)) {}
  /// SKMD_CACHE's folder, if it is set.
  static std::optional<BuildCache> fromEnvironment();

  const std::string &dir() const { return Dir; }
  /// The entry's path without its extension.
  std::string entryPath(const std::string &Source, const BuildOptions &Options) const;
  /// The bundle built from \p Source with \p Options; nullopt when there is
  /// none (or only one whose key file differs).
  std::optional<std::vector<uint8_t>> find(const std::string &Source,
                                           const BuildOptions &Options) const;
  /// Stores \p Bundle for \p Source and \p Options (atomically: a reader
  /// never sees half an entry), making the folder if needed.
  Status store(const std::string &Source, const BuildOptions &Options,
               const std::vector<uint8_t> &Bundle) const;

private:
  std::string Dir;
};

} // namespace skmd

#endif // SKMD_CACHE_BUILDCACHE_H
