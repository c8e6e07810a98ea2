//===- CompilerModule.cpp - clBuildProgram's compiler, loaded on demand -----===//
//
// libSKMD_OpenCL_Compiler.so: the compiler behind skmd-cc (LLVM, Clang) for
// the SKMD platform, in a module of its own, so that the platform itself
// loads on hosts without LLVM (the GPU hosts) and opens this only when a
// program is built from source (opencl/Compiler.cpp). A program's source is
// compiled as skmd-cc would compile a file. Build options follow
// clBuildProgram's: -D, -I, -cl-std, -w and the -cl-* optimization
// switches (which only allow less precise math: SKMD keeps the precise).
//
//===----------------------------------------------------------------------===//
#include "CompilerModule.h"

#include "Driver/BundleCompiler.h"

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

namespace {

/// clBuildProgram's options into the frontend's; false for one it does not
/// know.
bool parseOptions(const std::string &Options, FrontendOptions &F, std::string &Bad) {
  std::istringstream In(Options);
  std::vector<std::string> Words;
  for (std::string W; In >> W;)
    Words.push_back(W);
  for (size_t I = 0; I < Words.size(); ++I) {
    const std::string &W = Words[I];
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
      if (V.empty()) {
        Bad = W;
        return false;
      }
      F.Defines.push_back(V);
    } else if (Value("-I", V)) {
      if (V.empty()) {
        Bad = W;
        return false;
      }
      F.IncludeDirs.push_back(V);
    } else if (W.rfind("-cl-std=", 0) == 0) {
      std::string Std = W.substr(8);
      if (Std != "CL1.0" && Std != "CL1.1" && Std != "CL1.2" && Std != "CL2.0" &&
          Std != "CL3.0") {
        Bad = W;
        return false;
      }
      F.CLStd = Std == "CL1.0" || Std == "CL1.1" ? "CL1.2" : Std;
    } else if (W == "-cl-opt-disable") {
      F.OptLevel = 0;
    } else if (W == "-w" || W == "-Werror" || W == "-cl-fast-relaxed-math" ||
               W == "-cl-mad-enable" || W == "-cl-no-signed-zeros" ||
               W == "-cl-unsafe-math-optimizations" || W == "-cl-finite-math-only" ||
               W == "-cl-denorms-are-zero" || W == "-cl-single-precision-constant" ||
               W == "-cl-kernel-arg-info" || W == "-cl-strict-aliasing" ||
               W == "-cl-uniform-work-group-size" || W == "-cl-no-subgroup-ifp") {
      // Precise math and all warnings stay as they are.
    } else {
      Bad = W;
      return false;
    }
  }
  return true;
}

} // namespace

static cl_int compile(const std::string &Source, const std::string &Options,
               const std::vector<TargetKind> &Targets, std::vector<uint8_t> &Bytes,
               std::string &Log) {
  CompilerOptions Opts;
  Opts.Frontend.CLStd = "CL1.2";
  std::string Bad;
  if (!parseOptions(Options, Opts.Frontend, Bad)) {
    Log = "unsupported build option '" + Bad + "'";
    return CL_INVALID_BUILD_OPTIONS;
  }
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
  auto Writer = compileBundle(Opts, Targets);
  cl_int Result = CL_SUCCESS;
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
