#!/usr/bin/env bash
# Puts what the SKMD OpenCL platform's measurements need on a GPU host
# (which has no LLVM) in one folder the device tool can carry: skmd-bench,
# opencl-iterative, libskmd.so and libSKMD_OpenCL.so, the bench kernels'
# sources and bundles, and a build cache (skmd-cc --cache) holding every
# bench kernel as clBuildProgram builds it there ("-cl-std=CL1.2"), so the
# platform builds the applications' unmodified sources without a compiler.
#   bench/package-opencl-for-gpu-host.sh [folder]   (default: gpu-run/opencl)
# then, through the device tool:  bash gpu-run/opencl/run.sh [iterative|suite|all]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/gpu-run/opencl}
build=$root/build
cmake --build "$build" --target skmd-bench opencl-iterative SKMD_OpenCL skmd-cc
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/kernels" "$out/cache"
cp "$build/bin/skmd-bench" "$build/bin/opencl-iterative" "$out/bin/"
cp "$build/lib/libskmd.so" "$build/lib/libSKMD_OpenCL.so" "$out/lib/"
cp "$root"/bench/kernels/*.cl "$out/kernels/"
for cl in "$root"/bench/kernels/*.cl; do
  # The C API's bundles, with every variant.
  "$build/bin/skmd-cc" --cl-std=CL1.2 "$cl" -o "$out/kernels/$(basename "${cl%.cl}").skmd"
  # The platform's: the same source, keyed as clBuildProgram gets it.
  "$build/bin/skmd-cc" --cache="$out/cache" "$cl" > /dev/null
done
cp "$root/bench/run-opencl-on-gpu-host.sh" "$out/run.sh"
du -sh "$out"
