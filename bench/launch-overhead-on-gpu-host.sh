#!/usr/bin/env bash
# Host time per OpenCL launch (bench/LaunchOverhead.cpp) on a GPU host:
# the SKMD platform on cuda, cpu,cuda, the default list and cpu, beside
# NVIDIA's OpenCL and PoCL on the same host.
#   here:          bench/launch-overhead-on-gpu-host.sh --pack [--perf]   (into gpu-run/launch)
#   on the host:   OUT=$OUT bash gpu-run/launch/run.sh [launches]
# --perf also packs this machine's perf and its libraries (about 28 MB; the
# GPU hosts have no profiler): the run then records launches on cuda and
# leaves perf script's text of them in $OUT/perf-cuda.txt.xz.
# The package holds launch-overhead, the platform's libraries, a build cache
# with the benchmark's kernel in every variant (the host has no LLVM) and
# Debian's ocl-icd loader (the host's Khronos loader ignores
# OCL_ICD_VENDORS).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --pack ]; then
  root=$(cd "$here/.." && pwd)
  perf=0
  [ "${2:-}" = --perf ] && { perf=1; shift; }
  build=${2:-$root/build}
  out=$root/gpu-run/launch
  cmake --build "$build" --target launch-overhead SKMD_OpenCL || exit 2
  rm -rf "$out" && mkdir -p "$out/bin" "$out/lib" "$out/icd" "$out/cache"
  cp "$build/bin/launch-overhead" "$out/bin/"
  cp "$build/lib/libskmd.so" "$build/lib/libSKMD_OpenCL.so" "$out/lib/"
  cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/icd/"
  OCL_ICD_VENDORS=$build/opencl/vendors SKMD_CACHE=$out/cache SKMD_DEVICES=cpu \
    "$build/bin/launch-overhead" --launches=1 --patterns=independent > /dev/null || exit 2
  cp "$0" "$out/run.sh"
  if [ $perf = 1 ]; then
    mkdir -p "$out/perf"
    cp "$(command -v perf)" "$out/perf/"
    # Its libraries but the C and C++ runtimes, which the host has newer.
    ldd "$(command -v perf)" | awk '$3 ~ /^\// { print $3 }' |
      grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
      xargs -r cp -L -t "$out/perf/"
  fi
  du -sh "$out"
  exit 0
fi
OUT=${OUT:-/tmp/out}
launches=${1:-10000}
mkdir -p "$OUT" "$here/vendors"
export LD_LIBRARY_PATH=$here/icd:$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SKMD_CACHE=$here/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
echo "$here/lib/libSKMD_OpenCL.so" > "$here/vendors/skmd.icd"
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/{print $NF; exit}')
[ -n "$nv" ] && echo "$nv" > "$here/vendors/nvidia.icd"
pocl=$(ldconfig -p | awk '/libpocl.so/{print $NF; exit}')
[ -n "$pocl" ] && echo "$pocl" > "$here/vendors/pocl.icd"
export OCL_ICD_VENDORS=$here/vendors
# The vendors' devices once, then SKMD's on each device list.
"$here/bin/launch-overhead" --launches="$launches" --devices=nvidia,pocl \
  --json="$OUT/vendors.json" 2>&1 | tee "$OUT/vendors.txt"
for list in cuda cpu,cuda default cpu; do
  echo "== SKMD_DEVICES=$list"
  if [ $list = default ]; then unset SKMD_DEVICES; else export SKMD_DEVICES=$list; fi
  "$here/bin/launch-overhead" --launches="$launches" --devices=skmd \
    --json="$OUT/skmd-${list//,/+}.json" 2>&1 | grep -v '^| --- \|^| device\|launches per'
done 2>&1 | tee "$OUT/skmd.txt"
# What a launch on cuda is made of, as SKMD explains it.
SKMD_DEVICES=cuda SKMD_EXPLAIN=1 "$here/bin/launch-overhead" --launches=2 --devices=skmd \
  --patterns=independent > "$OUT/explain-cuda.txt" 2>&1
# Where a launch's host time goes on cuda, with the perf packed by --perf.
if [ -x "$here/perf/perf" ]; then
  perf="env LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$here/perf $here/perf/perf"
  SKMD_DEVICES=cuda $perf record -F 4000 --call-graph dwarf,16384 -o "$OUT/perf.data" \
    "$here/bin/launch-overhead" --launches=3000 --devices=skmd --patterns=independent \
    > /dev/null 2>&1 &&
    $perf script -i "$OUT/perf.data" -F comm,tid,ip,sym --no-demangle 2>/dev/null |
      xz -3 > "$OUT/perf-cuda.txt.xz"
  rm -f "$OUT/perf.data"
fi
