//===- Compiler.cpp - clBuildProgram's in-process compile -----------------===//
//
// With the compiler library linked in (SKMD_OPENCL_HAVE_COMPILER), a
// program's source is compiled as skmd-cc would compile a file, to the
// variants the platform's devices run (x86 always: the CPU runs merges and
// re-runs; PTX where a CUDA device is open; SPIR-V where an OpenCL one is).
// Build options follow clBuildProgram's: -D, -I, -cl-std, -w and the
// -cl-* optimization switches (which only allow less precise math: SKMD
// keeps the precise).
//
//===----------------------------------------------------------------------===//
#include "Icd.h"

#ifdef SKMD_OPENCL_HAVE_COMPILER
#include "Driver/BundleCompiler.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>
#endif

namespace skmd::opencl {

#ifndef SKMD_OPENCL_HAVE_COMPILER

bool compilerAvailable() { return false; }

cl_int compileSource(const std::string &, const std::string &, std::vector<uint8_t> &,
                     std::string &Log) {
  Log = "this SKMD platform was built without the compiler (skmd-cc)";
  return CL_COMPILER_NOT_AVAILABLE;
}

#else

bool compilerAvailable() { return true; }

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

cl_int compileSource(const std::string &Source, const std::string &Options,
                     std::vector<uint8_t> &Bytes, std::string &Log) {
  CompilerOptions Opts;
  Opts.Frontend.CLStd = "CL1.2";
  std::string Bad;
  if (!parseOptions(Options, Opts.Frontend, Bad)) {
    Log = "unsupported build option '" + Bad + "'";
    return CL_INVALID_BUILD_OPTIONS;
  }
  std::vector<TargetKind> Targets{TargetKind::X86};
  for (const DeviceInfo *I : platformSession(nullptr)->deviceInfos())
    if (I->Variant != TargetKind::X86 &&
        std::find(Targets.begin(), Targets.end(), I->Variant) == Targets.end())
      Targets.push_back(I->Variant);
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

#endif

} // namespace skmd::opencl
