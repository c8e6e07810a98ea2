#!/bin/bash
# The multi-GPU issue's suite runs on a host with several GPUs (after
# bench/package-for-gpu-host.sh; a profiles.sqlite next to this script, from
# an earlier call's $OUT, skips the profiling). Each part fits one 10-minute
# device call; results go to $OUT, with the profiles.
#   bash gpu-run/bench/run-issue26.sh memory    the six memory-bound
#        applications: PoCL's CPU and NVIDIA's first GPU, SKMD's devices
#        alone and auto, pageable and page-locked, with the bound
#   bash gpu-run/bench/run-issue26.sh compute   matmul, both n-bodies and
#        binomial option: NVIDIA's first GPU, SKMD's first GPU and auto
#        (the CPU alone is 100x slower on these)
#   bash gpu-run/bench/run-issue26.sh others    the other eight, as memory
#   bash gpu-run/bench/run-issue26.sh batches   batch-latency over every
#        device: random batches predicted and run (peer copies included
#        where the GPUs reach each other)
cd "$(dirname "$0")"
export SKMD_PROFILE_DB=$PWD/profiles.sqlite
part=${1:-memory}
suite() {  # name apps options...
  local name=$1 apps=$2; shift 2
  bash run-suite.sh "$apps" --memory=both --runs=3 --time-limit=2 "$@" > "$OUT/$name.txt" 2>&1
  echo "$name rc=$?"
  grep -E "^\| [a-z]|^The model|^Geometric|^Applications" "$OUT/$name.txt" | cut -c1-400
}
case "$part" in
memory)
  suite memory vector-add,black-scholes,transpose,box-muller,sobel,median-filter \
    --opencl=pocl-cpu,nvidia-gpu0 --plans=single,auto ;;
compute)
  suite compute matmul,nbody,nbody-float3,binomial-option --opencl=nvidia-gpu0 \
    --plans=gpu0,auto ;;
others)
  suite others mersenne-twister,fdtd3d,histogram,reduction,reduction-strided,scan,aes-encrypt,aes-decrypt \
    --opencl=pocl-cpu,nvidia-gpu0 --plans=single,auto ;;
batches)
  bin/skmd-info --topology > "$OUT/topology.txt" 2>&1
  bin/skmd-prof --links --db=profiles.sqlite > "$OUT/links.txt" 2>&1
  echo "links rc=$?"; tail -n 20 "$OUT/links.txt"
  bin/batch-latency --db=profiles.sqlite --bundles-dir=kernels --compare \
    --json="$OUT/batch-latency.json" > "$OUT/batch-latency.txt" 2>&1
  echo "batch-latency rc=$?"
  tail -n 30 "$OUT/batch-latency.txt" ;;
*)
  echo "run-issue26.sh: memory, compute, others or batches, got '$part'" >&2
  exit 2 ;;
esac
cp profiles.sqlite "$OUT/" 2>/dev/null
exit 0
