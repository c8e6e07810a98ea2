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
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"
#include "Icd.h"

#include "bundle/Bundle.h"
#include "cache/BuildCache.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace skmd::opencl {

namespace {

skmd_opencl_compile_fn compilerEntry(std::string *Why) {
  static std::once_flag Once;
  static skmd_opencl_compile_fn Entry = nullptr;
  static std::string Failed;
  std::call_once(Once, [] {
    // Beside this library: its folder from one of its own addresses.
    Dl_info Self;
    std::string Dir;
    if (dladdr(reinterpret_cast<void *>(&compilerEntry), &Self) && Self.dli_fname) {
      Dir = Self.dli_fname;
      Dir = Dir.substr(0, Dir.rfind('/') + 1);
    }
    std::string Path = Dir + SKMD_OPENCL_COMPILER_MODULE;
    if (const char *Env = std::getenv("SKMD_OPENCL_COMPILER"); Env && *Env)
      Path = Env;
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *E = dlerror();
      Failed = "the SKMD platform's compiler (" + Path + ") does not load" +
               (E ? std::string(": ") + E : std::string());
      return;
    }
    Entry = reinterpret_cast<skmd_opencl_compile_fn>(dlsym(Handle, "skmd_opencl_compile"));
    if (!Entry)
      Failed = Path + " has no skmd_opencl_compile";
  });
  if (!Entry && Why)
    *Why = Failed;
  return Entry;
}

} // namespace

bool compilerAvailable() { return compilerEntry(nullptr) != nullptr; }

namespace {

/// The variants the platform's devices run: x86 always (the CPU merges and
/// re-runs).
std::vector<TargetKind> neededVariants() {
  std::vector<TargetKind> Kinds{TargetKind::X86};
  for (const DeviceInfo *I : platformSession(nullptr)->deviceInfos())
    if (std::find(Kinds.begin(), Kinds.end(), I->Variant) == Kinds.end())
      Kinds.push_back(I->Variant);
  return Kinds;
}

cl_int runCompiler(skmd_opencl_compile_fn Compile, const std::string &Source,
                   const std::string &Options, const std::vector<TargetKind> &Kinds,
                   std::vector<uint8_t> &Bytes, std::string &Log) {
  std::string Targets;
  for (TargetKind K : Kinds)
    Targets += (Targets.empty() ? "" : ",") + std::string(targetKindName(K));
  struct Out {
    std::vector<uint8_t> *Bytes;
    std::string *Log;
  } Into{&Bytes, &Log};
  return Compile(
      Source.c_str(), Options.c_str(), Targets.c_str(),
      [](void *C, const unsigned char *Data, size_t N) {
        static_cast<Out *>(C)->Bytes->assign(Data, Data + N);
      },
      [](void *C, const char *Text) { *static_cast<Out *>(C)->Log = Text; }, &Into);
}

/// The variants of \p Needed that the bundle \p Bytes lacks, by name.
std::string missingVariants(const std::vector<uint8_t> &Bytes,
                            const std::vector<TargetKind> &Needed) {
  auto B = Bundle::fromBytes(Bytes);
  if (!B)
    return "a readable bundle (" + B.error().message() + ")";
  std::string Missing;
  for (TargetKind K : Needed)
    if (B->variant(K).empty())
      Missing += (Missing.empty() ? "" : ", ") + std::string(targetKindName(K));
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

} // namespace

cl_int compileSource(const std::string &Source, const std::string &Options,
                     const Headers &Included, std::vector<uint8_t> &Bytes, std::string &Log) {
  auto Parsed = parseBuildOptions(Options);
  if (!Parsed) {
    Log = Parsed.error().message();
    return CL_INVALID_BUILD_OPTIONS;
  }
  if (std::string Bad = HeaderFolder::refused(Included); !Bad.empty()) {
    Log = Bad;
    return CL_INVALID_VALUE;
  }
  // The cache's key holds the headers' text, not the folder they are
  // written to for this compile.
  std::string KeySource = Source;
  for (const auto &[Name, Text] : Included)
    KeySource += "\n//skmd-header " + Name + "\n" + Text;
  std::vector<TargetKind> Needed = neededVariants();
  std::optional<BuildCache> Cache = BuildCache::fromEnvironment();
  std::string CacheNote;
  if (Cache) {
    std::string Entry = Cache->entryPath(KeySource, *Parsed) + ".skmd";
    if (auto Hit = Cache->find(KeySource, *Parsed)) {
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
  std::string Why;
  skmd_opencl_compile_fn Compile = compilerEntry(&Why);
  if (!Compile) {
    Log = Why + (CacheNote.empty()
                     ? "; set SKMD_CACHE to a build cache filled where LLVM is (skmd-cc "
                       "--cache=DIR, or this program run with SKMD_CACHE=DIR)"
                     : "; " + CacheNote +
                           " (fill it where LLVM is: skmd-cc --cache=DIR, or this program "
                           "run with SKMD_CACHE=DIR)");
    return CL_COMPILER_NOT_AVAILABLE;
  }
  // The headers go to disk only for a compile.
  HeaderFolder Folder;
  std::string CompileOptions;
  if (!Folder.options(Included, Options, CompileOptions, Why)) {
    Log = Why;
    return CL_INVALID_VALUE;
  }
  if (!Cache)
    return runCompiler(Compile, Source, CompileOptions, Needed, Bytes, Log);
  // Filling the cache: every variant, so the entry serves hosts with other
  // devices (a GPU host); the needed ones alone where the others cannot be
  // built here (no CUDA libraries).
  cl_int R = runCompiler(Compile, Source, CompileOptions,
                         {TargetKind::X86, TargetKind::PTX, TargetKind::SPIRV}, Bytes, Log);
  if (R != CL_SUCCESS) {
    std::string AllLog = Log;
    R = runCompiler(Compile, Source, CompileOptions, Needed, Bytes, Log);
    if (R != CL_SUCCESS)
      return R;
    Log += "skmd: stored in the build cache without every variant: " + AllLog;
  }
  if (Status S = Cache->store(KeySource, *Parsed, Bytes); !S)
    Log += "skmd: not stored in the build cache: " + S.error().message() + "\n";
  return CL_SUCCESS;
}

cl_int checkSource(const std::string &Source, const std::string &Options,
                   const Headers &Included, std::string &Log) {
  if (auto Parsed = parseBuildOptions(Options); !Parsed) {
    Log = Parsed.error().message();
    return CL_INVALID_BUILD_OPTIONS;
  }
  std::string Why;
  skmd_opencl_compile_fn Compile = compilerEntry(&Why);
  if (!Compile) {
    if (BuildCache::fromEnvironment()) {
      Log = "skmd: not checked here (no compiler); the link builds from the build cache\n";
      return CL_SUCCESS;
    }
    Log = Why;
    return CL_COMPILER_NOT_AVAILABLE;
  }
  HeaderFolder Folder;
  std::string CheckOptions;
  if (!Folder.options(Included, Options, CheckOptions, Why)) {
    Log = Why;
    return CL_INVALID_VALUE;
  }
  std::vector<uint8_t> None;
  return runCompiler(Compile, Source, CheckOptions, {}, None, Log);
}

} // namespace skmd::opencl
