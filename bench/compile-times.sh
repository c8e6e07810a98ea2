#!/usr/bin/env bash
# Compile time and bundle size of each example, best of 5 runs.
#   bench/compile-times.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| kernel | compile, best of 5 (ms) | bundle (bytes) | x86 | ptx | spirv |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
for cl in "$root"/examples/*.cl; do
  name=$(basename "${cl%.cl}")
  best=""
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$build/bin/skmd-cc" "$cl" -o "$tmp/$name.skmd"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  sizes=$("$build/bin/skmd-info" "$tmp/$name.skmd" |
          awk '/^variants:/{v=1;next} /^kernels:/{v=0} v{printf "| %s ", $(NF-1)}')
  printf '| %s | %s | %s %s|\n' "$name" "$best" "$(stat -c %s "$tmp/$name.skmd")" "$sizes"
done
