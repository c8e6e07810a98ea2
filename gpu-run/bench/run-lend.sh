#!/bin/bash
# The CPU lending cores to staged copies (devices/HostCores.h) on a GPU
# host, after bench/package-for-gpu-host.sh: skmd-bench on APPS (default
# the six memory-bound applications), pageable buffers, PLANS (default
# SKMD's devices alone and auto), the CPU computing beside the staged
# copies on the cores they leave (the default) and after the staged inputs
# (SKMD_STAGING_LEND=0), the two interleaved for ROUNDS rounds (default 2);
# then cpu-vs-pocl on KERNELS (default the five where PoCL led or came
# near; none for none). Results go to $OUT, with the profiles.
#   bash gpu-run/bench/run-lend.sh [ROUNDS] [KERNELS] [PLANS] [APPS]
cd "$(dirname "$0")"
rounds=${1:-2}
kernels=${2:-aes-encrypt,aes-decrypt,binomial-option,nbody-float3,reduction-strided}
plans=${3:-single,auto}
apps=${4:-vector-add,black-scholes,transpose,box-muller,sobel,median-filter}
[ -e "$OUT/machine.txt" ] || { lscpu; echo; free -g; echo; nvidia-smi; } > "$OUT/machine.txt" 2>&1
for round in $(seq "$rounds"); do
  for lend in 1 0; do
    name=lend$lend-round$round
    SKMD_STAGING_LEND=$lend bin/skmd-bench --only="$apps" --opencl=none --plans="$plans" \
      --memory=pageable --runs=5 --time-limit=3 --kernels-dir=kernels --bundles-dir=kernels \
      --db=profiles.sqlite --json="$OUT/$name.json" --markdown="$OUT/$name.md" \
      2> "$OUT/$name.log"
    echo "== SKMD_STAGING_LEND=$lend round $round: rc=$?"
    grep -E '^\| [a-z]' "$OUT/$name.md" | grep -v '^| application'
  done
done
if [ "$kernels" != none ]; then
  bin/cpu-vs-pocl --kernels-dir=kernels --bundles-dir=kernels --only="$kernels" --runs=3 \
    --json="$OUT/cpu-vs-pocl.json" > "$OUT/cpu-vs-pocl.md" 2> "$OUT/cpu-vs-pocl.log"
  echo "cpu-vs-pocl rc=$?"
  cat "$OUT/cpu-vs-pocl.md"
fi
cp profiles.sqlite "$OUT/"
