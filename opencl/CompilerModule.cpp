//===- CompilerModule.cpp - clBuildProgram's compiler, loaded on demand -----===//
//
// libSKMD_OpenCL_Compiler.so: the compiler behind skmd-cc (LLVM, Clang) for
// the SKMD platform, in a module of its own, so that the platform itself
// loads on hosts without LLVM (the GPU hosts) and opens this only when a
// program is built from source (opencl/Compiler.cpp). A program's source is
// compiled as skmd-cc would compile a file, with clBuildProgram's options
// (cache/BuildCache.h parses them); clCompileProgram and clLinkProgram
// go through Driver/SeparateCompilation.h.
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"

#include "Driver/BundleCompiler.h"
#include "Driver/SeparateCompilation.h"
#include "Frontend/OpenCLFrontend.h"
#include "cache/BuildCache.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace skmd;

namespace {

/// A program's source in a file of its own, for the frontend, which reads
/// files; removed with this.
class SourceFile {
public:
  explicit SourceFile(const std::string &Source) {
    char Made[] = "/tmp/skmd-opencl-XXXXXX";
    if (!mkdtemp(Made))
      return;
    Dir = Made;
    Path = Dir + "/program.cl";
    std::ofstream Out(Path, std::ios::binary);
    Out << Source;
    if (!Out)
      Path.clear();
  }
  ~SourceFile() {
    if (!Dir.empty()) {
      std::remove((Dir + "/program.cl").c_str());
      rmdir(Dir.c_str());
    }
  }
  /// Empty where the file could not be written.
  const std::string &path() const { return Path; }

private:
  std::string Dir, Path;
};

/// The build log: clang's diagnostics (warnings too), as it prints them,
/// then \p Why where the step failed.
std::string buildLog(const std::string &Diagnostics, llvm::Error Why) {
  std::string Log = Diagnostics;
  if (Why)
    Log += (Log.empty() || Log.back() == '\n' ? "" : "\n") + llvm::toString(std::move(Why));
  return Log;
}

/// Opts from clBuildProgram's \p Options for the source at \p Path, with
/// diagnostics to \p Diagnostics; false with the log's reason.
bool compilerOptions(const std::string &Options, const std::string &Path,
                     llvm::raw_ostream &Diagnostics, CompilerOptions &Opts, std::string &Log) {
  auto Parsed = parseBuildOptions(Options);
  if (!Parsed) {
    Log = Parsed.error().message();
    return false;
  }
  Opts.Frontend.Defines = Parsed->Defines;
  Opts.Frontend.IncludeDirs = Parsed->IncludeDirs;
  Opts.Frontend.CLStd = Parsed->CLStd;
  Opts.Frontend.WarningsAsErrors = Parsed->WarningsAsErrors;
  Opts.Frontend.NoWarnings = Parsed->NoWarnings;
  if (Parsed->OptDisable)
    Opts.Frontend.OptLevel = 0;
  Opts.Frontend.InputPath = Path;
  Opts.Frontend.Diagnostics = &Diagnostics;
  return true;
}

std::vector<TargetKind> targetsFrom(const char *Targets) {
  std::vector<TargetKind> Kinds;
  std::istringstream In(Targets ? Targets : "x86");
  for (std::string Name; std::getline(In, Name, ',');)
    if (auto K = targetKindFromName(Name))
      Kinds.push_back(*K);
  return Kinds;
}

/// Hands \p Bytes and \p Log back; returns \p Result.
int handBack(int Result, const std::vector<uint8_t> &Bytes, const std::string &Log,
             skmd_opencl_output_fn OnOutput, skmd_opencl_log_fn OnLog, void *Context) {
  if (OnLog)
    OnLog(Context, Log.c_str());
  if (Result == CL_SUCCESS && OnOutput)
    OnOutput(Context, Bytes.data(), Bytes.size());
  return Result;
}

/// \p Writer's bundle into \p Bytes; the failure's code otherwise.
int serializeBundle(llvm::Expected<BundleWriter> Writer, int Failed, std::vector<uint8_t> &Bytes,
                    std::string &Log) {
  if (!Writer) {
    Log = buildLog(Log, Writer.takeError());
    return Failed;
  }
  auto Serialized = Writer->serialize();
  if (!Serialized) {
    Log += Serialized.error().message();
    return Failed;
  }
  Bytes = std::move(*Serialized);
  return CL_SUCCESS;
}

} // namespace

namespace {

/// What compiling one source made: the result, the output and the log.
struct Made {
  int Result;
  std::vector<uint8_t> Bytes;
  std::string Log;
};

/// The steps both compile entries share: the source into a file, the
/// options parsed (refused as \p BadOptions), then \p Make with them and
/// the compiler's diagnostics so far.
int compileFromSource(const char *Source, const char *Options, const char *Targets,
                      int BadOptions,
                      llvm::function_ref<Made(const CompilerOptions &, const std::string &)> Make,
                      skmd_opencl_output_fn OnOutput, skmd_opencl_log_fn OnLog, void *Context) {
  SourceFile File(Source ? Source : "");
  std::string Diagnostics, Log;
  llvm::raw_string_ostream DiagOut(Diagnostics);
  CompilerOptions Opts;
  if (File.path().empty())
    return handBack(CL_OUT_OF_HOST_MEMORY, {}, "cannot write the source to a file", nullptr,
                    OnLog, Context);
  if (!compilerOptions(Options ? Options : "", File.path(), DiagOut, Opts, Log))
    return handBack(BadOptions, {}, Log, nullptr, OnLog, Context);
  Opts.Frontend.Variants = targetsFrom(Targets);
  Made M = Make(Opts, Diagnostics);
  return handBack(M.Result, M.Bytes, M.Log, OnOutput, OnLog, Context);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
skmd_opencl_compile(const char *Source, const char *Options, const char *Targets,
                    skmd_opencl_output_fn OnBundle, skmd_opencl_log_fn OnLog, void *Context) {
  auto Make = [](const CompilerOptions &Opts, const std::string &Diagnostics) {
    auto Writer = compileBundle(Opts, Opts.Frontend.Variants);
    Made M{CL_SUCCESS, {}, Diagnostics};
    M.Result = serializeBundle(std::move(Writer), CL_BUILD_PROGRAM_FAILURE, M.Bytes, M.Log);
    return M;
  };
  return compileFromSource(Source, Options, Targets, CL_INVALID_BUILD_OPTIONS, Make, OnBundle,
                           OnLog, Context);
}

extern "C" __attribute__((visibility("default"))) int
skmd_opencl_compile_object(const char *Source, const char *Options, const char *Targets,
                           skmd_opencl_output_fn OnObject, skmd_opencl_log_fn OnLog,
                           void *Context) {
  auto Make = [](const CompilerOptions &Opts, const std::string &Diagnostics) {
    auto Object = compileObject(Opts);
    if (!Object)
      return Made{CL_COMPILE_PROGRAM_FAILURE, {}, buildLog(Diagnostics, Object.takeError())};
    return Made{CL_SUCCESS, serialize(*Object), Diagnostics};
  };
  return compileFromSource(Source, Options, Targets, CL_INVALID_COMPILER_OPTIONS, Make, OnObject,
                           OnLog, Context);
}

extern "C" __attribute__((visibility("default"))) int
skmd_opencl_link(const unsigned char *const *Objects, const size_t *Sizes, size_t Count,
                 int Library, const char *Targets, skmd_opencl_output_fn OnOutput,
                 skmd_opencl_log_fn OnLog, void *Context) {
  std::vector<CompiledObject> Parsed;
  std::vector<uint8_t> Bytes;
  for (size_t I = 0; I < Count; ++I) {
    auto O = parseCompiledObject(std::vector<uint8_t>(Objects[I], Objects[I] + Sizes[I]));
    if (!O)
      return handBack(CL_INVALID_PROGRAM, Bytes,
                      "program " + std::to_string(I) + ": " + O.error().message(), nullptr,
                      OnLog, Context);
    Parsed.push_back(std::move(*O));
  }
  std::string Log;
  if (Library) {
    auto Linked = linkLibrary(Parsed);
    if (!Linked)
      return handBack(CL_LINK_PROGRAM_FAILURE, Bytes, buildLog("", Linked.takeError()), nullptr,
                      OnLog, Context);
    return handBack(CL_SUCCESS, serialize(*Linked), "", OnOutput, OnLog, Context);
  }
  std::string Diagnostics;
  llvm::raw_string_ostream DiagOut(Diagnostics);
  CompilerOptions Opts;
  Opts.Frontend.Diagnostics = &DiagOut;
  auto Writer = linkExecutable(Parsed, Opts, targetsFrom(Targets));
  Log = Diagnostics;
  int R = serializeBundle(std::move(Writer), CL_LINK_PROGRAM_FAILURE, Bytes, Log);
  return handBack(R, Bytes, Log, OnOutput, OnLog, Context);
}
