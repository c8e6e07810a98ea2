//===- Compiler.cpp - clBuildProgram: the compiler module, opened on demand -===//
//
// The platform compiles source with libSKMD_OpenCL_Compiler.so (the
// compiler behind skmd-cc), found beside the platform's own library and
// opened on the first build (SKMD_OPENCL_COMPILER names another path).
// Without it (a host with no LLVM) the device
// says it has no compiler, and source builds take their bundle from the
// build cache (SKMD_CACHE, cache/BuildCache.h) or fail with
// CL_COMPILER_NOT_AVAILABLE; binaries (bundles) still load. With both, a
// build fills the cache with every variant, for the hosts without LLVM.
// clCompileProgram and clLinkProgram go through the module and the cache
// alike: a unit's compiled object keyed by its source, a link's output by
// its objects' bytes.
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"
#include "Icd.h"

#include "bundle/Bundle.h"
#include "bundle/CompiledObject.h"
#include "cache/BuildCache.h"

#include <algorithm>
#include <functional>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <type_traits>
#include <sys/stat.h>
#include <unistd.h>

namespace skmd::opencl {

namespace {

/// The compiler module, opened once; null with the reason in \p Why.
void *compilerModule(std::string *Why) {
  static std::once_flag Once;
  static void *Handle = nullptr;
  static std::string Failed;
  std::call_once(Once, [] {
    // Beside this library: its folder from one of its own addresses.
    Dl_info Self;
    std::string Dir;
    if (dladdr(reinterpret_cast<void *>(&compilerModule), &Self) && Self.dli_fname) {
      Dir = Self.dli_fname;
      Dir = Dir.substr(0, Dir.rfind('/') + 1);
    }
    std::string Path = Dir + SKMD_OPENCL_COMPILER_MODULE;
    if (const char *Env = std::getenv("SKMD_OPENCL_COMPILER"); Env && *Env)
      Path = Env;
    Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *E = dlerror();
      Failed = "the SKMD platform's compiler (" + Path + ") does not load" +
               (E ? std::string(": ") + E : std::string());
    }
  });
  if (!Handle && Why)
    *Why = Failed;
  return Handle;
}

/// The compiler module's entry point \p Name (CompilerModule.h).
template <typename Fn> Fn compilerEntry(const char *Name, std::string *Why) {
  void *Handle = compilerModule(Why);
  if (!Handle)
    return nullptr;
  auto Entry = reinterpret_cast<Fn>(dlsym(Handle, Name));
  if (!Entry && Why)
    *Why = std::string("the SKMD platform's compiler has no ") + Name;
  return Entry;
}

} // namespace

bool compilerAvailable() {
  return compilerEntry<skmd_opencl_compile_fn>("skmd_opencl_compile", nullptr) != nullptr;
}

std::vector<TargetKind> platformVariants() {
  std::vector<TargetKind> Kinds{TargetKind::X86};
  for (const DeviceInfo *I : platformSession(nullptr)->deviceInfos())
    if (std::find(Kinds.begin(), Kinds.end(), I->Variant) == Kinds.end())
      Kinds.push_back(I->Variant);
  return Kinds;
}

namespace {

std::string targetList(const std::vector<TargetKind> &Kinds) {
  std::string Targets;
  for (TargetKind K : Kinds)
    Targets += (Targets.empty() ? "" : ",") + std::string(targetKindName(K));
  return Targets;
}

/// Where the compiler module's callbacks put its output and log.
struct Into {
  std::vector<uint8_t> *Bytes;
  std::string *Log;
  static void output(void *C, const unsigned char *Data, size_t N) {
    static_cast<Into *>(C)->Bytes->assign(Data, Data + N);
  }
  static void log(void *C, const char *Text) { *static_cast<Into *>(C)->Log = Text; }
};

/// The variants of \p Needed that \p Bytes, a bundle or a compiled
/// object, lacks, by name.
std::string missingVariants(const std::vector<uint8_t> &Bytes,
                            const std::vector<TargetKind> &Needed) {
  std::string Missing;
  auto Lacks = [&](TargetKind K) {
    Missing += (Missing.empty() ? "" : ", ") + std::string(targetKindName(K));
  };
  if (isCompiledObject(Bytes)) {
    auto Object = parseCompiledObject(Bytes);
    if (!Object)
      return "a readable compiled object (" + Object.error().message() + ")";
    for (TargetKind K : Needed)
      if (!Object->Bitcode.count(K))
        Lacks(K);
    return Missing;
  }
  auto B = Bundle::fromBytes(Bytes);
  if (!B)
    return "a readable bundle (" + B.error().message() + ")";
  for (TargetKind K : Needed)
    if (B->variant(K).empty())
      Lacks(K);
  return Missing;
}

/// The program's headers as files under a folder of their own, for the
/// compiler's -I; removed with the object.
class HeaderFolder {
public:
  ~HeaderFolder() {
    for (auto It = Made.rbegin(); It != Made.rend(); ++It)
      (It->second ? rmdir : unlink)(It->first.c_str());
  }
  /// Why \p Included cannot be written (an include name that is absolute
  /// or climbs out, ".."), or "".
  static std::string refused(const Headers &Included) {
    for (const auto &[Name, Text] : Included)
      if (Name.empty() || Name[0] == '/' || ("/" + Name + "/").find("/../") != std::string::npos)
        return "header include name '" + Name + "' is absolute or leaves its folder";
    return "";
  }
  /// \p Options with the folder of \p Included as an include directory
  /// (the options themselves without headers); false with the reason.
  bool options(const Headers &Included, const std::string &Options, std::string &Out,
               std::string &Why) {
    Out = Options;
    if (Included.empty())
      return true;
    if (!write(Included, Why))
      return false;
    Out += " -I " + Root;
    return true;
  }

private:
  /// Writes \p Included (refused() first).
  bool write(const Headers &Included, std::string &Why) {
    if (Why = refused(Included); !Why.empty())
      return false;
    char Dir[] = "/tmp/skmd-headers-XXXXXX";
    if (!mkdtemp(Dir)) {
      Why = "cannot make a folder for the program's headers";
      return false;
    }
    Root = Dir;
    Made.push_back({Root, true});
    for (const auto &[Name, Text] : Included) {
      // Each folder of the name, then the file.
      for (size_t Slash = Name.find('/'); Slash != std::string::npos;
           Slash = Name.find('/', Slash + 1)) {
        std::string Sub = Root + "/" + Name.substr(0, Slash);
        if (mkdir(Sub.c_str(), 0700) == 0)
          Made.push_back({Sub, true});
      }
      std::string Path = Root + "/" + Name;
      std::ofstream Out(Path, std::ios::binary);
      Out << Text;
      if (!Out) {
        Why = "cannot write header " + Name;
        return false;
      }
      Made.push_back({Path, false});
    }
    return true;
  }

  std::string Root;
  std::vector<std::pair<std::string, bool>> Made; ///< Path, is a folder.
};

/// A build the build cache may serve. \p Build makes the output (a bundle
/// or a compiled object) with the compiler for the variants it is given; a
/// cache entry serves only with every variant the devices need.
using Builder = std::function<cl_int(const std::vector<TargetKind> &, std::vector<uint8_t> &,
                                     std::string &)>;

cl_int cachedBuild(const std::string &KeySource, const BuildOptions &KeyOptions,
                   const std::string &Unavailable, const Builder &Build,
                   std::vector<uint8_t> &Bytes, std::string &Log) {
  std::vector<TargetKind> Needed = platformVariants();
  std::optional<BuildCache> Cache = BuildCache::fromEnvironment();
  std::string CacheNote;
  if (Cache) {
    std::string Entry = Cache->entryPath(KeySource, KeyOptions) + ".skmd";
    if (auto Hit = Cache->find(KeySource, KeyOptions)) {
      std::string Missing = missingVariants(*Hit, Needed);
      if (Missing.empty()) {
        Bytes = std::move(*Hit);
        Log = "skmd: built ahead of time: " + Entry + "\n";
        return CL_SUCCESS;
      }
      CacheNote = "the build cache's " + Entry + " lacks " + Missing;
    } else {
      CacheNote = "the build cache " + Cache->dir() + " has no " + Entry;
    }
  }
  if (!Unavailable.empty()) {
    Log = Unavailable + (CacheNote.empty()
                             ? "; set SKMD_CACHE to a build cache filled where LLVM is (skmd-cc "
                               "--cache=DIR, or this program run with SKMD_CACHE=DIR)"
                             : "; " + CacheNote +
                                   " (fill it where LLVM is: skmd-cc --cache=DIR, or this "
                                   "program run with SKMD_CACHE=DIR)");
    return CL_COMPILER_NOT_AVAILABLE;
  }
  if (!Cache)
    return Build(Needed, Bytes, Log);
  // Filling the cache: every variant, so the entry serves hosts with other
  // devices (a GPU host); the needed ones alone where the others cannot be
  // built here (no CUDA libraries).
  cl_int R = Build({TargetKind::X86, TargetKind::PTX, TargetKind::SPIRV}, Bytes, Log);
  if (R != CL_SUCCESS) {
    std::string AllLog = Log;
    R = Build(Needed, Bytes, Log);
    if (R == CL_SUCCESS)
      Log += "skmd: stored in the build cache without every variant: " + AllLog;
  }
  if (R != CL_SUCCESS)
    return R;
  if (Status S = Cache->store(KeySource, KeyOptions, Bytes); !S)
    Log += "skmd: not stored in the build cache: " + S.error().message() + "\n";
  return CL_SUCCESS;
}

/// \p Source with its headers, as the cache's key holds them (not the
/// folder they are written to for a compile).
std::string keySource(const std::string &Source, const Headers &Included) {
  std::string Key = Source;
  for (const auto &[Name, Text] : Included)
    Key += "\n//skmd-header " + Name + "\n" + Text;
  return Key;
}

/// A source compiled by the compiler module's entry \p Entry (a bundle or
/// a compiled object: the same signature), through the build cache under
/// \p KeyPrefix; \p BadOptions is the code for options it refuses.
cl_int compileThrough(const char *Entry, const std::string &KeyPrefix, cl_int BadOptions,
                      const std::string &Source, const std::string &Options,
                      const Headers &Included, std::vector<uint8_t> &Out, std::string &Log) {
  auto Parsed = parseBuildOptions(Options);
  if (!Parsed) {
    Log = Parsed.error().message();
    return BadOptions;
  }
  if (std::string Bad = HeaderFolder::refused(Included); !Bad.empty()) {
    Log = Bad;
    return CL_INVALID_VALUE;
  }
  std::string Why;
  auto Compile = compilerEntry<skmd_opencl_compile_fn>(Entry, &Why);
  auto Build = [&](const std::vector<TargetKind> &Kinds, std::vector<uint8_t> &Bytes,
                   std::string &BuildLog) -> cl_int {
    // The headers go to disk only for a compile.
    HeaderFolder Folder;
    std::string CompileOptions, Failed;
    if (!Folder.options(Included, Options, CompileOptions, Failed)) {
      BuildLog = Failed;
      return CL_INVALID_VALUE;
    }
    Into To{&Bytes, &BuildLog};
    return Compile(Source.c_str(), CompileOptions.c_str(), targetList(Kinds).c_str(),
                   Into::output, Into::log, &To);
  };
  return cachedBuild(KeyPrefix + keySource(Source, Included), *Parsed, Compile ? "" : Why,
                     Build, Out, Log);
}

} // namespace

cl_int compileSource(const std::string &Source, const std::string &Options,
                     const Headers &Included, std::vector<uint8_t> &Bytes, std::string &Log) {
  return compileThrough("skmd_opencl_compile", "", CL_INVALID_BUILD_OPTIONS, Source, Options,
                        Included, Bytes, Log);
}

cl_int compileObjectSource(const std::string &Source, const std::string &Options,
                           const Headers &Included, std::vector<uint8_t> &Object,
                           std::string &Log) {
  // A compiled object's entry, apart from the same source's bundle.
  static_assert(std::is_same_v<skmd_opencl_compile_fn, skmd_opencl_compile_object_fn>);
  return compileThrough("skmd_opencl_compile_object", "//skmd-compiled-object\n",
                        CL_INVALID_COMPILER_OPTIONS, Source, Options, Included, Object, Log);
}

cl_int linkObjects(const std::vector<const std::vector<uint8_t> *> &Objects, bool Library,
                   std::vector<uint8_t> &Bytes, std::string &Log) {
  std::string Why;
  auto Link = compilerEntry<skmd_opencl_link_fn>("skmd_opencl_link", &Why);
  auto Build = [&](const std::vector<TargetKind> &Kinds, std::vector<uint8_t> &Out,
                   std::string &BuildLog) -> cl_int {
    std::vector<const unsigned char *> Data;
    std::vector<size_t> Sizes;
    for (const std::vector<uint8_t> *O : Objects) {
      Data.push_back(O->data());
      Sizes.push_back(O->size());
    }
    Into To{&Out, &BuildLog};
    return Link(Data.data(), Sizes.data(), Data.size(), Library, targetList(Kinds).c_str(),
                Into::output, Into::log, &To);
  };
  // Keyed by the objects' bytes, each with its length.
  std::string Key = Library ? "//skmd-link library\n" : "//skmd-link executable\n";
  for (const std::vector<uint8_t> *O : Objects)
    Key += std::to_string(O->size()) + "\n" + std::string(O->begin(), O->end());
  return cachedBuild(Key, BuildOptions(), Link ? "" : Why, Build, Bytes, Log);
}

} // namespace skmd::opencl
