#!/bin/bash
# Runs cpu-vs-pocl on a GPU host: the default bundles (x86-64-v3 with an
# AVX-512 body picked at load), the ones built for x86-64-v4 alone where
# the CPU has AVX-512, and AVX2 alone. Results go to $OUT.
cd "$(dirname "$0")"
{ lscpu; echo; nproc; echo; free -g; echo; clinfo -l 2>&1 || true; } > "$OUT/machine.txt" 2>&1
bin/cpu-vs-pocl --kernels-dir=kernels --bundles-dir=kernels --json="$OUT/default.json" \
  > "$OUT/default.md" 2> "$OUT/default.log"
echo "default rc=$?"
if grep -q avx512f /proc/cpuinfo; then
  bin/cpu-vs-pocl --kernels-dir=kernels-x86-64-v4 --bundles-dir=kernels-x86-64-v4 \
    --json="$OUT/x86-64-v4.json" > "$OUT/x86-64-v4.md" 2> "$OUT/x86-64-v4.log"
  echo "x86-64-v4 rc=$?"
fi
bin/cpu-vs-pocl --kernels-dir=kernels-x86-64-v3-only --bundles-dir=kernels-x86-64-v3-only \
  --json="$OUT/x86-64-v3-only.json" > "$OUT/x86-64-v3-only.md" 2> "$OUT/x86-64-v3-only.log"
echo "x86-64-v3-only rc=$?"
grep -E "Model name|^CPU\(s\)|Thread|Socket" "$OUT/machine.txt"
cat "$OUT"/*.md
