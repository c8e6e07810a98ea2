#!/bin/bash
# The batch-transfer issue's measurements on a GPU host (after
# bench/package-for-gpu-host.sh; profiles.sqlite next to this script is
# kept between calls on one machine). Each part fits one 10-minute device
# call; results go to $OUT, with the profiles.
#   bash gpu-run/bench/run-issue23.sh links    the machine's topology and
#        routes (skmd-info --topology, skmd-prof --links)
#   bash gpu-run/bench/run-issue23.sh memory   the six memory-bound
#        applications, SKMD alone and auto, pageable and page-locked: auto's
#        launches predicted as batches (predicted_ms) beside Algorithm 1's
#        estimate (estimated_ms)
#   bash gpu-run/bench/run-issue23.sh others   the other applications, the
#        same way (GPU alone for the four the CPU is 100x slower on)
#   bash gpu-run/bench/run-issue23.sh batches  batch-latency: 200 random
#        batches predicted and run, with the paper's two baselines
cd "$(dirname "$0")"
export SKMD_PROFILE_DB=$PWD/profiles.sqlite
part=${1:-links}
case "$part" in
links)
  bin/skmd-info --topology > "$OUT/topology.txt" 2>&1
  cat "$OUT/topology.txt"
  bin/skmd-prof --links --db=profiles.sqlite 2>&1 | tee "$OUT/links.txt" | tail -n 40 ;;
memory)
  bash run-suite.sh vector-add,black-scholes,transpose,box-muller,sobel,median-filter \
    --plans=single,auto --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 12 ;;
others)
  bash run-suite.sh matmul,nbody,nbody-float3,binomial-option --plans=gpu0,auto \
    --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 8
  bash run-suite.sh mersenne-twister,fdtd3d,histogram,reduction,reduction-strided,scan,aes-encrypt,aes-decrypt \
    --plans=single,auto --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 14 ;;
batches)
  bin/batch-latency --db=profiles.sqlite --bundles-dir=kernels --compare \
    --json="$OUT/batch-latency.json" > "$OUT/batch-latency.txt" 2>&1
  echo "batch-latency rc=$?"
  tail -n 30 "$OUT/batch-latency.txt" ;;
*)
  echo "run-issue23.sh: links, memory, others or batches, got '$part'" >&2
  exit 2 ;;
esac
cp profiles.sqlite "$OUT/" 2>/dev/null
exit 0
