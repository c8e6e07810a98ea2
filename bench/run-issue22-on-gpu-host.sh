#!/bin/bash
# The physical-bound issue's measurements on a GPU host, in one call (after
# bench/package-for-gpu-host.sh; a profiles.sqlite from an earlier call
# next to this script skips the profiling): the memory-bound applications
# under every vendor device and SKMD alone and auto, on pageable and
# page-locked buffers, with the bound; then SKMD's CPU device against PoCL
# on the shapes where PoCL led. Results go to $OUT.
#   bash gpu-run/bench/run-issue22.sh
cd "$(dirname "$0")"
bash run-suite.sh vector-add,black-scholes,transpose,box-muller,sobel,median-filter \
  --plans=single,auto --memory=both --runs=5 --time-limit=3 > "$OUT/suite.txt" 2>&1
echo "suite rc=$?"
tail -n 12 "$OUT/suite.txt"
bin/cpu-vs-pocl --kernels-dir=kernels --bundles-dir=kernels \
  --only=nbody-float3,reduction-strided,reduction,binomial-option,aes-encrypt,black-scholes \
  --runs=3 --json="$OUT/cpu-vs-pocl.json" > "$OUT/cpu-vs-pocl.md" 2> "$OUT/cpu-vs-pocl.log"
echo "cpu-vs-pocl rc=$?"
cat "$OUT/cpu-vs-pocl.md"
cp profiles.sqlite "$OUT/"
