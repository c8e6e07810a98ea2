#!/usr/bin/env bash
# Rewrites the fuzzers' bundle and metadata seeds with the skmd-cc of a
# build, after the metadata schema changes (stale seeds only exercise the
# loader's version check).
#   test/fuzz/corpus/regenerate.sh [build-dir]   (default build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cc=${1:-$root/build}/bin/skmd-cc
here=$root/test/fuzz/corpus
declare -A sources=(
  [vector_add]=examples/vector_add.cl
  [typed-args]=test/lit/skmd-run/Inputs/typed-args.cl
  [dependence]=test/lit/skmd-run/Inputs/dependence.cl
  [guards]=test/corpus/guards.cl
)
for name in "${!sources[@]}"; do
  src=$root/${sources[$name]}
  "$cc" --emit=meta "$src" -o "$here/metadata/$name.json" 2>/dev/null
  # The bundle seeds hold one small variant: libFuzzer mutates every byte.
  if [ "$name" != guards ]; then
    "$cc" --targets=spirv "$src" -o "$here/bundle/$name.skmd" 2>/dev/null
  fi
done
ls -la "$here/metadata" "$here/bundle"
