//===- FuzzCompiler.cpp - libFuzzer target: skmd-cc on any source ---------===//
//
// Any bytes as an OpenCL C file, through skmd-cc's whole path: the frontend
// and its checks, SKMD's analyses and variants, every target's lowering and
// the bundle. Each input must end in a diagnostic (an llvm::Error) or in a
// bundle that the runtime's loader accepts with every kernel present for
// every target (a source without kernels gives a bundle without kernels, as
// OpenCL builds such a program); a crash, a sanitizer report or a bundle SKMD
// itself cannot load is a finding. Seeds are kernels from the corpora
// (scripts/fuzz.sh).
//
//   build-fuzz/bin/fuzz-compiler -dict=test/fuzz/opencl.dict SEEDS...
//
//===----------------------------------------------------------------------===//
#include "Driver/BundleCompiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace llvm;

namespace {

std::string InputPath;

[[noreturn]] void finding(const std::string &What) {
  errs() << "fuzz-compiler: " << What << '\n';
  abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  SmallString<128> Dir;
  if (sys::fs::createUniqueDirectory("skmd-fuzz-compiler", Dir)) {
    errs() << "fuzz-compiler: cannot create a temporary directory\n";
    exit(1);
  }
  // The frontend reads a file, as skmd-cc does; one file per process.
  sys::path::append(Dir, "kernel.cl");
  InputPath = std::string(Dir);
  atexit([] {
    sys::fs::remove(InputPath);
    sys::fs::remove(sys::path::parent_path(InputPath));
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  {
    std::error_code EC;
    raw_fd_ostream OS(InputPath, EC);
    if (EC)
      finding("cannot write " + InputPath + ": " + EC.message());
    OS.write(reinterpret_cast<const char *>(Data), Size);
  }

  skmd::CompilerOptions Opts;
  Opts.Frontend.InputPath = InputPath;
  // The AVX-512 bodies are the same passes, compiled twice: half the time
  // per input for little more coverage.
  Opts.X86Avx512Bodies = false;
  const skmd::TargetKind Targets[] = {skmd::TargetKind::X86,
                                      skmd::TargetKind::PTX,
                                      skmd::TargetKind::SPIRV};
  auto Writer = skmd::compileBundle(Opts, Targets);
  if (!Writer) {
    consumeError(Writer.takeError());
    return 0;
  }

  auto Bytes = Writer->serialize();
  if (!Bytes)
    finding("the compiled bundle does not serialize: " +
            Bytes.error().message());
  auto Bundle = skmd::Bundle::fromBytes(std::move(*Bytes));
  if (!Bundle)
    finding("the loader refuses a bundle skmd-cc wrote: " +
            Bundle.error().message());
  const skmd::BundleMetadata &Meta = Bundle->metadata();
  for (const skmd::KernelInfo &K : Meta.Kernels)
    for (skmd::TargetKind T : Targets)
      if (!K.Symbols.count(T))
        finding("kernel '" + K.Name + "' has no " +
                std::string(skmd::targetKindName(T)) + " entry point");
  return 0;
}
