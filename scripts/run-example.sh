#!/usr/bin/env bash
# The main job, end to end on a fresh machine: installs what is missing,
# builds SKMD, compiles the example kernels into bundles and shows what each
# holds (variants, kernels, arguments), then runs two of them on the CPU
# device with a correctness check.
#   scripts/run-example.sh [kernel.cl ...]   (default: examples/*.cl)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build"

out="$root/build/examples"
mkdir -p "$out"
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=("$root"/examples/*.cl)
for cl in "${kernels[@]}"; do
  bundle="$out/$(basename "${cl%.cl}").skmd"
  echo "== skmd-cc $cl -o $bundle"
  "$root/build/bin/skmd-cc" -v "$cl" -o "$bundle"
  "$root/build/bin/skmd-info" "$bundle"
done

# Until the multi-device runtime lands, the devices run one at a time: the
# CPU device runs the tiled matmul and n-body from their bundles on every
# core and is checked against PoCL (when installed) and a C++ reference.
echo "== cpu-vs-pocl --scale=16 --only=matmul_tiled,nbody"
"$root/build/bin/cpu-vs-pocl" --scale=16 --only=matmul_tiled,nbody
