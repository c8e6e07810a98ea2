#!/usr/bin/env bash
# The main job, end to end on a fresh machine: installs what is missing,
# builds SKMD, compiles the example kernels into bundles and shows what each
# holds (variants, kernels, arguments).
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
