#!/usr/bin/env bash
# Puts what the GPU checks need on a GPU host (which has no LLVM) in one
# folder the device tool can carry: the test and tool binaries, libskmd.so,
# the corpus, example and bench-kernel bundles, and the run scripts.
#   test/gpu/package.sh [folder]   (default: gpu-run/runtime)
# then, through the device tool:  bash gpu-run/runtime/run.sh [runtime|model|all]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/gpu-run/runtime}
build=$root/build
cmake --build "$build" --target skmd-corpus-tests skmd-run skmd-prof transfer-bandwidth \
  range-kernel-check partitioner-time skmd-cc resident-loop SKMD_OpenCL opencl-api-tests
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/corpus" "$out/examples" "$out/bench"
cp "$build"/bin/{skmd-corpus-tests,skmd-run,skmd-prof,transfer-bandwidth,range-kernel-check,partitioner-time,resident-loop} \
  "$out/bin/"
cp "$build/lib/libskmd.so" "$build/lib/libSKMD_OpenCL.so" "$out/lib/"
cp "$build/bin/opencl-api-tests" "$out/bin/"
cp "$build"/test/corpus/*.skmd "$out/corpus/"
for cl in "$root"/examples/*.cl; do
  "$build/bin/skmd-cc" "$cl" -o "$out/examples/$(basename "${cl%.cl}").skmd"
done
# The bench kernels with every variant (the bench builds them x86-only).
for cl in "$root"/bench/kernels/*.cl; do
  "$build/bin/skmd-cc" --cl-std=CL1.2 "$cl" -o "$out/bench/$(basename "${cl%.cl}").skmd"
done
cp "$root/test/gpu/run-on-gpu-host.sh" "$out/run.sh"
cp "$root/bench/prediction-error.sh" "$out/prediction-error.sh"
cp "$root/bench/queued-chunks-on-gpu-host.sh" "$out/queued-chunks.sh"
du -sh "$out"
