#!/usr/bin/env bash
# Puts what cpu-vs-pocl and skmd-bench need on a GPU host (which has no
# LLVM) in one folder that the device tool can carry: the binaries,
# libskmd.so, the kernels' sources and bundles (default with PTX,
# x86-64-v4, AVX2 alone), and the run scripts.
#   bench/package-for-gpu-host.sh [folder]   (default: gpu-run/bench)
# then, through the device tool:  bash gpu-run/bench/run.sh  (cpu-vs-pocl)
#                            or:  bash gpu-run/bench/run-suite.sh APPS [options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/gpu-run/bench}
build=$root/build
cmake --build "$build" --target cpu-vs-pocl skmd-bench merge-bandwidth ptx-overhead \
  partitioner-time batch-latency skmd-info skmd-prof skmd-run skmd-server remote-overhead
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/kernels" "$out/kernels-x86-64-v4" \
  "$out/kernels-x86-64-v3-only"
cp "$build/bin/cpu-vs-pocl" "$build/bin/skmd-bench" "$build/bin/merge-bandwidth" \
  "$build/bin/ptx-overhead" "$build/bin/partitioner-time" "$build/bin/batch-latency" \
  "$build/bin/skmd-info" "$build/bin/skmd-prof" "$build/bin/skmd-run" \
  "$build/bin/skmd-server" "$build/bin/remote-overhead" "$out/bin/"
cp "$build/lib/libskmd.so" "$out/lib/"
cp "$root"/bench/kernels/*.cl "$build"/bench/kernels/*.skmd "$out/kernels/"
for variant in x86-64-v4 x86-64-v3-only; do
  cp "$root"/bench/kernels/*.cl "$build"/bench/kernels-$variant/*.skmd \
    "$out/kernels-$variant/"
done
cp "$root/bench/run-on-gpu-host.sh" "$out/run.sh"
cp "$root/bench/run-suite-on-gpu-host.sh" "$out/run-suite.sh"
cp "$root/bench/run-issue22-on-gpu-host.sh" "$out/run-issue22.sh"
cp "$root/bench/run-issue23-on-gpu-host.sh" "$out/run-issue23.sh"
cp "$root/bench/run-issue24-on-gpu-host.sh" "$out/run-issue24.sh"
cp "$root/bench/run-issue26-on-gpu-host.sh" "$out/run-issue26.sh"
cp "$root/bench/shared-gpu-on-gpu-host.sh" "$out/run-shared.sh"
cp "$root/bench/lend-cores-on-gpu-host.sh" "$out/run-lend.sh"
du -sh "$out"
