//===- CompilerModule.cpp - clBuildProgram's compiler, loaded on demand -----===//
//
// libSKMD_OpenCL_Compiler.so: the compiler behind skmd-cc (LLVM, Clang) for
// the SKMD platform, in a module of its own, so that the platform itself
// loads on hosts without LLVM (the GPU hosts) and opens this only when a
// program is built from source (opencl/Compiler.cpp). A program's source is
// compiled as skmd-cc would compile a file, with clBuildProgram's options
// (cache/BuildCache.h parses them).
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"

#include "Driver/BundleCompiler.h"
#include "Frontend/OpenCLFrontend.h"
#include "cache/BuildCache.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <CL/cl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace skmd;


static cl_int compile(const std::string &Source, const std::string &Options,
                      const std::vector<TargetKind> &Targets, std::vector<uint8_t> &Bytes,
                      std::string &Log) {
  auto Parsed = parseBuildOptions(Options);
  if (!Parsed) {
    Log = Parsed.error().message();
    return CL_INVALID_BUILD_OPTIONS;
  }
  CompilerOptions Opts;
  Opts.Frontend.Defines = Parsed->Defines;
  Opts.Frontend.IncludeDirs = Parsed->IncludeDirs;
  Opts.Frontend.CLStd = Parsed->CLStd;
  if (Parsed->OptDisable)
    Opts.Frontend.OptLevel = 0;
  // The frontend reads a file: the source goes to one of its own.
  char Dir[] = "/tmp/skmd-opencl-XXXXXX";
  if (!mkdtemp(Dir)) {
    Log = "cannot make a temporary folder for the source";
    return CL_OUT_OF_HOST_MEMORY;
  }
  std::string Path = std::string(Dir) + "/program.cl";
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << Source;
  }
  Opts.Frontend.InputPath = Path;
  // The build log: clang's diagnostics (warnings too), as it prints them.
  std::string Diagnostics;
  llvm::raw_string_ostream DiagOut(Diagnostics);
  Opts.Frontend.Diagnostics = &DiagOut;
  cl_int Result = CL_SUCCESS;
  if (Targets.empty()) {
    // clCompileProgram's check: parsed and checked, nothing generated (a
    // unit may call functions another defines, and define no kernel).
    auto Checked = analyzeKernels(Opts.Frontend);
    Log = Diagnostics;
    if (!Checked) {
      std::string Why = llvm::toString(Checked.takeError());
      Log += (Log.empty() || Log.back() == '\n' ? "" : "\n") + Why;
      Result = CL_BUILD_PROGRAM_FAILURE;
    }
    std::remove(Path.c_str());
    rmdir(Dir);
    return Result;
  }
  auto Writer = compileBundle(Opts, Targets);
  Log = Diagnostics;
  if (!Writer) {
    std::string Why = llvm::toString(Writer.takeError());
    Log += (Log.empty() || Log.back() == '\n' ? "" : "\n") + Why;
    Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (auto Serialized = Writer->serialize()) {
    Bytes = std::move(*Serialized);
  } else {
    Log = Serialized.error().message();
    Result = CL_BUILD_PROGRAM_FAILURE;
  }
  std::remove(Path.c_str());
  rmdir(Dir);
  return Result;
}

extern "C" __attribute__((visibility("default"))) int
skmd_opencl_compile(const char *Source, const char *Options, const char *Targets,
                    void (*OnBundle)(void *, const unsigned char *, size_t),
                    void (*OnLog)(void *, const char *), void *Context) {
  // No targets: check the source only.
  std::vector<TargetKind> Kinds;
  std::istringstream In(Targets ? Targets : "x86");
  for (std::string Name; std::getline(In, Name, ',');)
    if (auto K = targetKindFromName(Name))
      Kinds.push_back(*K);
  std::vector<uint8_t> Bytes;
  std::string Log;
  cl_int R = compile(Source ? Source : "", Options ? Options : "", Kinds, Bytes, Log);
  if (OnLog)
    OnLog(Context, Log.c_str());
  if (R == CL_SUCCESS && OnBundle)
    OnBundle(Context, Bytes.data(), Bytes.size());
  return R;
}
