//===- Compiler.cpp - clBuildProgram: the compiler module, opened on demand -===//
//
// The platform compiles source with libSKMD_OpenCL_Compiler.so (the
// compiler behind skmd-cc), found beside the platform's own library and
// opened on the first build (SKMD_OPENCL_COMPILER names another path).
// Without it (a host with no LLVM) the device
// says it has no compiler and source builds fail with
// CL_COMPILER_NOT_AVAILABLE; binaries (bundles) still load.
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"
#include "Icd.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

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

cl_int compileSource(const std::string &Source, const std::string &Options,
                     std::vector<uint8_t> &Bytes, std::string &Log) {
  std::string Why;
  skmd_opencl_compile_fn Compile = compilerEntry(&Why);
  if (!Compile) {
    Log = Why;
    return CL_COMPILER_NOT_AVAILABLE;
  }
  // The variants the devices run: x86 always (the CPU merges and re-runs).
  std::vector<TargetKind> Kinds{TargetKind::X86};
  for (const DeviceInfo *I : platformSession(nullptr)->deviceInfos())
    if (std::find(Kinds.begin(), Kinds.end(), I->Variant) == Kinds.end())
      Kinds.push_back(I->Variant);
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

} // namespace skmd::opencl
