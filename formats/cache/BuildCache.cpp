//===- BuildCache.cpp - Bundles built ahead of time, by source and options -===//
#include "cache/BuildCache.h"

#include "bundle/Bundle.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>

namespace skmd {

namespace {

/// FNV-1a, 64 bits, from \p Seed: the entry's name only (the key file is
/// what decides a hit).
uint64_t fnv1a(const std::string &Text, uint64_t Seed) {
  uint64_t H = Seed;
  for (unsigned char C : Text) {
    H ^= C;
    H *= 0x100000001b3ULL;
  }
  return H;
}

std::string keyText(const std::string &Source, const BuildOptions &Options) {
  return Options.canonical() + '\n' + Source;
}

bool readAll(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  Out.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  return !In.bad();
}

Status makeDirs(const std::string &Dir) {
  for (size_t At = 1; At <= Dir.size(); ++At) {
    if (At != Dir.size() && Dir[At] != '/')
      continue;
    std::string Part = Dir.substr(0, At);
    if (mkdir(Part.c_str(), 0777) != 0 && errno != EEXIST)
      return Failure(ErrorCode::IOError,
                     "cannot make the build cache folder " + Part + ": " + std::strerror(errno));
  }
  return Status::success();
}

} // namespace

std::string BuildOptions::canonical() const {
  std::string S = "-cl-std=" + CLStd;
  for (const std::string &D : Defines)
    S += " -D" + D;
  for (const std::string &I : IncludeDirs)
    S += " -I" + I;
  if (OptDisable)
    S += " -cl-opt-disable";
  if (WarningsAsErrors)
    S += " -Werror";
  if (NoWarnings)
    S += " -w";
  return S;
}

Result<BuildOptions> parseBuildOptions(const std::string &Options) {
  std::istringstream In(Options);
  std::vector<std::string> Words;
  for (std::string W; In >> W;)
    Words.push_back(W);
  BuildOptions B;
  auto Unsupported = [](const std::string &W) {
    return Failure(ErrorCode::InvalidArgument, "unsupported build option '" + W + "'");
  };
  for (size_t I = 0; I < Words.size(); ++I) {
    const std::string &W = Words[I];
    // A flag's value, attached (-DN=4) or the next word (-D N=4).
    auto Value = [&](const char *Flag, std::string &Out) {
      size_t N = std::strlen(Flag);
      if (W.compare(0, N, Flag) != 0)
        return false;
      if (W.size() > N)
        Out = W.substr(N);
      else if (I + 1 < Words.size())
        Out = Words[++I];
      else
        Out.clear();
      return true;
    };
    std::string V;
    if (Value("-D", V)) {
      if (V.empty())
        return Unsupported(W);
      B.Defines.push_back(V);
    } else if (Value("-I", V)) {
      if (V.empty())
        return Unsupported(W);
      B.IncludeDirs.push_back(V);
    } else if (W.rfind("-cl-std=", 0) == 0) {
      std::string Std = W.substr(8);
      if (Std == "CL2.0" || Std == "CL3.0")
        return Failure(ErrorCode::InvalidArgument,
                       "build option '" + W + "' asks for OpenCL C " + Std.substr(2) +
                           "; the device's is OpenCL C 1.2 (CL_DEVICE_OPENCL_C_VERSION)");
      if (Std != "CL1.0" && Std != "CL1.1" && Std != "CL1.2")
        return Unsupported(W);
      B.CLStd = Std;
    } else if (W == "-cl-opt-disable") {
      B.OptDisable = true;
    } else if (W == "-Werror") {
      B.WarningsAsErrors = true;
    } else if (W == "-w") {
      B.NoWarnings = true;
    } else if (W == "-cl-fast-relaxed-math" ||
               W == "-cl-mad-enable" || W == "-cl-no-signed-zeros" ||
               W == "-cl-unsafe-math-optimizations" || W == "-cl-finite-math-only" ||
               W == "-cl-denorms-are-zero" || W == "-cl-single-precision-constant" ||
               W == "-cl-kernel-arg-info" || W == "-cl-strict-aliasing" ||
               W == "-cl-uniform-work-group-size" || W == "-cl-no-subgroup-ifp") {
      // Precise math stays as it is.
    } else {
      return Unsupported(W);
    }
  }
  return B;
}

std::optional<BuildCache> BuildCache::fromEnvironment() {
  const char *Dir = std::getenv("SKMD_CACHE");
  if (!Dir || !*Dir)
    return std::nullopt;
  return BuildCache(Dir);
}

std::string BuildCache::entryPath(const std::string &Source, const BuildOptions &Options) const {
  std::string Key = keyText(Source, Options);
  char Name[40];
  std::snprintf(Name, sizeof Name, "%016llx%016llx",
                static_cast<unsigned long long>(fnv1a(Key, 0xcbf29ce484222325ULL)),
                static_cast<unsigned long long>(fnv1a(Key, 0x84222325cbf29ce4ULL)));
  return Dir + "/" + Name;
}

std::optional<std::vector<uint8_t>> BuildCache::find(const std::string &Source,
                                                     const BuildOptions &Options) const {
  std::string Path = entryPath(Source, Options), Key, Bytes;
  if (!readAll(Path + ".key", Key) || Key != keyText(Source, Options) ||
      !readAll(Path + ".skmd", Bytes))
    return std::nullopt;
  return std::vector<uint8_t>(Bytes.begin(), Bytes.end());
}

Status BuildCache::store(const std::string &Source, const BuildOptions &Options,
                         const std::vector<uint8_t> &Bundle) const {
  if (Status S = makeDirs(Dir); !S)
    return S;
  std::string Path = entryPath(Source, Options);
  // The bundle first: a key file is only there when its bundle is.
  if (Status S = writeFileAtomically(
          Path + ".skmd",
          std::string_view(reinterpret_cast<const char *>(Bundle.data()), Bundle.size()));
      !S)
    return S;
  return writeFileAtomically(Path + ".key", keyText(Source, Options));
}

} // namespace skmd
