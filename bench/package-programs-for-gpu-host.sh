#!/usr/bin/env bash
# Puts what bench/programs-on-gpu-host.sh needs on a GPU host (no LLVM
# there) in gpu-run/: the platform's libraries, test/programs' programs and
# their kernels, a build cache holding every program's kernels in every
# variant (PTX among them), and Debian's ocl-icd loader (the host's Khronos
# loader ignores OCL_ICD_VENDORS). Then, through the device tool, carry
# gpu-run and run:  OUT=$OUT bash gpu-run/run.sh
#   bench/package-programs-for-gpu-host.sh [build-dir]   (default build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/gpu-run
mkdir -p "$(git -C "$root" rev-parse --git-common-dir)/info"
exclude=$(git -C "$root" rev-parse --git-common-dir)/info/exclude
grep -qx "gpu-run/" "$exclude" 2>/dev/null || echo "gpu-run/" >> "$exclude"
rm -rf "$out"
mkdir -p "$out/lib" "$out/programs" "$out/icd"
cp "$build/lib/libskmd.so" "$build/lib/libSKMD_OpenCL.so" "$out/lib/"
for cl in "$build"/test/programs/*.cl; do
  cp "$cl" "${cl%.cl}" "$out/programs/"
done
cp "$build/bin/opencl-release-then-exit" "$out/programs/"
"$root/test/programs/run-all.sh" --fill-cache "$out/cache" "$build" | tail -1
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/icd/"
cp "$root/bench/programs-on-gpu-host.sh" "$out/run.sh"
du -sh "$out"
